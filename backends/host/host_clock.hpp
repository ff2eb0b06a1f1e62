#pragma once
// The clock the host's cores run at, measured, not read: /proc/cpuinfo's "cpu MHz" is the
// nominal frequency in many VMs (2096 MHz on the Zen 5 development VM, whose FMA pipes ran at
// ~3.59 GHz), and spec sheets assume one clock for every machine of a name. One thread per CPU the
// process may run on, all at once, runs a chain of dependent register adds (one clock each on every
// x86-64 core; a register operand, so no rename-stage folding of immediates) and a chain of
// dependent imuls (three clocks each on Intel since Nehalem and AMD since Zen 1); the clock is the
// faster chain's rate. The two chains must agree, or the measurement is withheld: were either
// latency not what is assumed here (a CPU that folds adds, an imul of 4 clocks), they would differ
// by 25 % or more.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ridgeline::host {

// One thread's rates: the add chain's clocks per second and the imul chain's, in MHz (each the
// fastest of its repetitions: a preempted repetition only runs slower).
struct ThreadClock {
  double add_mhz = 0, imul_mhz = 0;
};

// |add / imul − 1| at most this, per thread. On the 2-vCPU development VM the two chains of one
// thread differed by up to 6 % (another tenant on the core delays the 1-clock chain more); a
// wrong latency (an imul of 4 clocks, folded adds) would differ by 25 % or more.
inline constexpr double kClockChainsAgree = 0.10;

struct MeasuredClock {
  double mhz = 0;                    // the median over the threads (each its faster chain's)
  double low_mhz = 0, high_mhz = 0;  // the slowest and the fastest thread
  int threads = 0;
};

// The clock from every thread's rates, or nullopt with the reason in `why` (no threads, a thread
// whose chains disagree).
std::optional<MeasuredClock> clock_from(const std::vector<ThreadClock>& threads, std::string& why);

// Runs the chains on one thread per CPU of `cpus` at once, each pinned to its CPU (one unpinned
// thread when `cpus` is empty); x86-64 only, elsewhere `why` says so.
std::optional<MeasuredClock> measure_clock(const std::vector<int>& cpus, std::string& why);

// One short reading on the calling thread, taken after each repetition of a host point (a
// point's `host_clock`, results/schema.md): one add chain and one imul chain of about 0.25 ms
// each, twice, alternating; the faster chain's rate where the two agree within
// kClockChainsAgree, else nullopt with the reason in `why`. A host's clock can change within a
// run (the 2-vCPU Xeon VM's measured 3.29 to 3.99 GHz in 100 MHz steps between runs minutes
// apart, 2026-12-06): the run's one measured_clock cannot say what a point ran at.
std::optional<double> read_clock_mhz(std::string& why);

// context.cpu.measured_clock: {"mhz", "low_mhz", "high_mhz", "threads", "method"}, or null (then
// "measured_clock_unavailable" beside it says why).
void record_measured_clock(nlohmann::json& cpu, const std::vector<int>& cpus);

}  // namespace ridgeline::host
