#pragma once
// A results file read into typed structs, every field the reporter uses checked once here, so
// the fit, report and compare code can trust what it gets.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "results/memory_plateau.hpp"
#include "results/point_entry_reader.hpp"  // Point

namespace ridgeline {

struct CacheInfo {
  int level = 0;
  std::string type;
  double size_bytes = 0;
  int shared_by_threads = 1;
  int instances = 0;  // copies in the machine; 0 when the file does not say (schema < 1.1)
};

struct DeviceInfo {
  std::string name;
  double l2_bytes = 0;           // 0 when not recorded
  double l1_per_unit_bytes = 0;  // one SM's (CU's) L1; 0 when not recorded (older files)
  double llc_bytes = 0;          // a last-level cache behind the L2 (MI300's MALL); 0 when none
  int units = 0;                 // SMs or CUs; 0 when not recorded
};

struct SpaceInfo {
  std::string name;
  std::string kind;  // host | device
  int concurrency = 1;
  std::optional<DeviceInfo> device;
  // Where the run found the memory plateau (schema 1.4); nullopt when it searched none.
  std::optional<MemoryPlateau> plateau;
};

struct Results {
  std::string file;
  nlohmann::json context;
  bool complete = true;
  int repetitions = 0;  // 0 when the profile does not say
  // profile.dram_min_bytes: the smallest working set the harness sized its host DRAM kernels at,
  // the only DRAM threshold where the last-level cache is unknown; 0 when the profile does not say.
  double dram_min_bytes = 0;
  std::string profile_name;
  std::string hostname;
  std::string cpu_model;
  // context.cpu's cores and threads (0 when not recorded) and whether the CPU has AVX-512 (its
  // avx512f flag; nullopt when not recorded): what CPU spec sheets are matched on with the model.
  int cpu_cores = 0, cpu_threads = 0;
  // context.cpu.measured_clock.mhz: the host's clock under load, measured by the harness
  // (backends/host/host_clock.hpp); nullopt in files without it or where it was withheld.
  std::optional<double> cpu_clock_mhz;
  std::optional<bool> cpu_avx512;
  // context.cpu.hypervisor: the CPU runs under a hypervisor (x86's "hypervisor" flag); nullopt
  // where the file does not say. Its per-core caches may be shared with a sibling it cannot see.
  std::optional<bool> cpu_hypervisor;
  std::vector<CacheInfo> caches;
  // context.cpu.caches_incomplete: why `caches` lacks a level the CPU has (an L3 CPUID gave no
  // trustworthy size for); empty when the list is whole. Sizes beyond the last one are unknown.
  std::string caches_incomplete;
  std::vector<SpaceInfo> spaces;
  std::vector<Point> points;
  // An MPI job's file (schema 1.2): its size and mode; 0 and "" for a one-process run.
  int mpi_size = 0;
  std::string mpi_mode;
  // Set on the per-device parts of such a file (split_by_device): "rank 1 · host · GPU …".
  int rank = -1;
  std::string device_key, device_label;

  const SpaceInfo* find_space(const std::string& name) const;
  // The GPU's name for a device space, else the CPU model: what spec sheets are matched against.
  std::string device_name(const std::string& space) const;
  // The GPU this file measured: the first device space with a name that one of its points ran
  // in (a context without points: the first device space with a name); nullptr for a run on the
  // host alone. Reports name a GPU run by it, since every borrowed machine may be called "vm".
  const SpaceInfo* measured_device() const;
};

// Parses and checks a results file's text; `file` names it in errors (InputError).
Results parse_results(const std::string& text, const std::string& file);
Results load_results(const std::string& path);

// A machine context alone (what `ridgeline info --json` prints): a Results with no points, its
// host, CPU and spaces read and checked as a results file's context is; `file` names it in errors.
Results results_of_context(nlohmann::json context, const std::string& file);

}  // namespace ridgeline
