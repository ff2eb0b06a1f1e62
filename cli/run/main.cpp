// ridgeline: measure where this machine's roofline really is, and report it.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cli/report/commands.hpp"
#include "cli/run/harness_commands.hpp"
#include "harness/context/context.hpp"
#include "harness/mpi/cpu_binding.hpp"
#include "harness/mpi/launch.hpp"

namespace {

// Ranks of an MPI job on one node that the launcher left unbound (an oversubscribed mpirun, a
// launcher told --bind-to none) would run their OpenMP threads on the same cores: each takes
// its share. True when the CPU set changed.
bool bind_rank_to_its_cpus() {
  const ridgeline::Launch launch = ridgeline::detect_launch();
  if (!launch.under_launcher || launch.local_size < 2 || std::getenv("RIDGELINE_RANK_BOUND"))
    return false;
  const std::vector<int> cpus = ridgeline::thread_cpus();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const std::size_t fair =
      static_cast<std::size_t>((std::max(online, 1L) + launch.local_size - 1) / launch.local_size);
  if (cpus.size() <= fair) return false;  // the launcher bound us to a share already
  setenv("RIDGELINE_RANK_BOUND", "1", 1);
  return ridgeline::bind_to_cpus(ridgeline::cpu_share(cpus, launch.local_rank, launch.local_size));
}

// The OpenMP runtime reads OMP_PROC_BIND/OMP_PLACES and the CPU set when it loads, before main:
// unbound threads migrate and blur measurements, so `run` and `info` without a binding set one
// and start again.
void bind_threads_or_reexec(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "run") != 0 && std::strcmp(argv[1], "info") != 0)) return;
  const bool rebound = std::strcmp(argv[1], "run") == 0 && bind_rank_to_its_cpus();
  if (!rebound && (std::getenv("OMP_PROC_BIND") || std::getenv("OMP_PLACES"))) return;
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  // Bound, the OpenMP runtime pins the main thread to its first place before main: the CPUs
  // this process owns are recorded now (the rank's placement names them).
  setenv(ridgeline::kProcessCpusVariable,
         ridgeline::cpu_list_text(ridgeline::thread_cpus()).c_str(), 1);
  execv("/proc/self/exe", argv);  // returns only on failure; then run unbound
}

}  // namespace

int main(int argc, char** argv) {
  bind_threads_or_reexec(argc, argv);
  CLI::App app{"ridgeline: measure a machine's roofline (peak FLOP/s, bandwidth, ridge point)",
               "ridgeline"};
  app.set_version_flag("-V,--version", ridgeline::version_line());
  int exit_code = 0;
  ridgeline::add_info_command(app, exit_code);
  ridgeline::add_run_command(app, exit_code);
  ridgeline::add_list_command(app, exit_code);
  ridgeline::add_plan_command(app, exit_code);
  ridgeline::add_report_commands(app, exit_code);
  return ridgeline::run_app(app, argc, argv, exit_code);
}
