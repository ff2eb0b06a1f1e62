#include "backends/host/host_clock.hpp"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <thread>

#include <fmt/format.h>

#include "core/stats.hpp"

namespace ridgeline::host {
namespace {

constexpr int kChain = 64;  // dependent instructions per loop trip

#if defined(__x86_64__)
constexpr bool kHasChains = true;

// `trips` × 64 dependent adds: 64 clocks a trip (the loop's own increment and branch run beside
// the chain on other ports).
__attribute__((noinline)) std::uint64_t add_chain(std::uint64_t trips, std::uint64_t x,
                                                  std::uint64_t y) {
  for (std::uint64_t i = 0; i < trips; ++i)
    asm volatile(".rept 64\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  return x;
}

// `trips` × 64 dependent imuls: 3 × 64 clocks a trip.
__attribute__((noinline)) std::uint64_t imul_chain(std::uint64_t trips, std::uint64_t x,
                                                   std::uint64_t y) {
  for (std::uint64_t i = 0; i < trips; ++i)
    asm volatile(".rept 64\n\timul %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  return x;
}
#else
constexpr bool kHasChains = false;
std::uint64_t add_chain(std::uint64_t, std::uint64_t x, std::uint64_t) { return x; }
std::uint64_t imul_chain(std::uint64_t, std::uint64_t x, std::uint64_t) { return x; }
#endif

constexpr double kImulClocks = 3;

using Clock = std::chrono::steady_clock;

// The chain's clock rate in MHz over `trips` trips.
template <class Chain>
double chain_mhz(Chain chain, std::uint64_t trips, double clocks_per_instruction,
                 std::uint64_t& sink) {
  const auto t0 = Clock::now();
  sink += chain(trips, sink, 3);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return s > 0 ? trips * kChain * clocks_per_instruction / s / 1e6 : 0;
}

// Trips of the chain that take about `seconds` at the rate of a first short run.
template <class Chain>
std::uint64_t trips_for(Chain chain, double clocks_per_instruction, double seconds,
                        std::uint64_t& sink) {
  const double mhz = chain_mhz(chain, 2000, clocks_per_instruction, sink);
  const double trips_per_s = mhz * 1e6 / (kChain * clocks_per_instruction);
  return static_cast<std::uint64_t>(std::max(1.0, trips_per_s * seconds));
}

// Repetitions of each chain, alternating (a clock that still ramps up after the warm-up moves
// both alike), and the fastest of each.
ThreadClock measure_thread(std::uint64_t& sink) {
  // 30 ms of adds first: a core leaves its idle clock before the timed runs.
  chain_mhz(add_chain, trips_for(add_chain, 1, 0.030, sink), 1, sink);
  const std::uint64_t add_trips = trips_for(add_chain, 1, 0.002, sink);
  const std::uint64_t imul_trips = trips_for(imul_chain, kImulClocks, 0.002, sink);
  ThreadClock c;
  for (int r = 0; r < 7; ++r) {
    c.add_mhz = std::max(c.add_mhz, chain_mhz(add_chain, add_trips, 1, sink));
    c.imul_mhz = std::max(c.imul_mhz, chain_mhz(imul_chain, imul_trips, kImulClocks, sink));
  }
  return c;
}

// Pins the calling thread to `cpu`. A thread inherits its creator's binding: under
// OMP_PROC_BIND the main thread is bound to one CPU, and every measuring thread would share it.
// Where the pin is not allowed (a cpuset without that CPU), the thread stays as it was.
void pin_to(int cpu) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
#else
  (void)cpu;
#endif
}

}  // namespace

std::optional<MeasuredClock> clock_from(const std::vector<ThreadClock>& threads, std::string& why) {
  if (threads.empty()) {
    why = "no thread measured";
    return std::nullopt;
  }
  std::vector<double> mhz;
  for (const ThreadClock& t : threads) {
    if (!(t.add_mhz > 0) || !(t.imul_mhz > 0) ||
        std::abs(t.add_mhz / t.imul_mhz - 1) > kClockChainsAgree) {
      why = fmt::format(
          "the dependent add and imul chains disagree ({:.0f} and {:.0f} MHz on one thread): "
          "their latencies are not 1 and 3 clocks on this CPU, or the clock changed while they "
          "ran",
          t.add_mhz, t.imul_mhz);
      return std::nullopt;
    }
    // Anything else on the core (an SMT sibling, a neighbour's vCPU) only delays a chain: the
    // faster chain is the nearer bound of the clock.
    mhz.push_back(std::max(t.add_mhz, t.imul_mhz));
  }
  MeasuredClock m;
  m.mhz = median(mhz);
  m.low_mhz = *std::min_element(mhz.begin(), mhz.end());
  m.high_mhz = *std::max_element(mhz.begin(), mhz.end());
  m.threads = static_cast<int>(threads.size());
  return m;
}

std::optional<MeasuredClock> measure_clock(const std::vector<int>& cpus, std::string& why) {
  if (!kHasChains) {
    why = "no clock chain for this ISA (x86-64 only)";
    return std::nullopt;
  }
  const int threads = std::max(static_cast<int>(cpus.size()), 1);
  std::vector<ThreadClock> clocks(static_cast<std::size_t>(threads));
  std::vector<std::uint64_t> sinks(clocks.size(), 1);
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  // Every thread starts its chains once all are running, each on its own CPU: the clock of a
  // loaded machine.
  for (std::size_t i = 0; i < clocks.size(); ++i)
    pool.emplace_back([&, i] {
      if (i < cpus.size()) pin_to(cpus[i]);
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      clocks[i] = measure_thread(sinks[i]);
    });
  for (auto& t : pool) t.join();
  return clock_from(clocks, why);
}

std::optional<double> read_clock_mhz(std::string& why) {
  if (!kHasChains) {
    why = "no clock chain for this ISA (x86-64 only)";
    return std::nullopt;
  }
  // Trip counts for ~0.25 ms per chain, set once from the first call's rates (a chain timed too
  // short is all timer; a long one costs every repetition). A clock that later runs faster or
  // slower only makes the chains shorter or longer, not wrong.
  thread_local std::uint64_t sink = 1;
  thread_local const std::uint64_t add_trips = trips_for(add_chain, 1, 0.00025, sink);
  thread_local const std::uint64_t imul_trips = trips_for(imul_chain, kImulClocks, 0.00025, sink);
  ThreadClock c;
  for (int r = 0; r < 2; ++r) {
    c.add_mhz = std::max(c.add_mhz, chain_mhz(add_chain, add_trips, 1, sink));
    c.imul_mhz = std::max(c.imul_mhz, chain_mhz(imul_chain, imul_trips, kImulClocks, sink));
  }
  const std::optional<MeasuredClock> m = clock_from({c}, why);
  if (!m) return std::nullopt;
  return m->mhz;
}

void record_measured_clock(nlohmann::json& cpu, const std::vector<int>& cpus) {
  std::string why;
  const std::optional<MeasuredClock> m = measure_clock(cpus, why);
  if (!m) {
    cpu["measured_clock"] = nullptr;
    cpu["measured_clock_unavailable"] = why;
    return;
  }
  const auto mhz = [](double v) { return std::round(v * 10) / 10; };
  cpu["measured_clock"] = {
      {"mhz", mhz(m->mhz)},
      {"low_mhz", mhz(m->low_mhz)},
      {"high_mhz", mhz(m->high_mhz)},
      {"threads", m->threads},
      {"method",
       "one thread per CPU this process owns, all at once, each pinned to its CPU: dependent "
       "register adds (1 clock each) and "
       "dependent imuls (3 clocks each), which must agree within 10 %; per thread the faster, "
       "then the median thread"}};
}

}  // namespace ridgeline::host
