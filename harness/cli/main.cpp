// ridgeline: measure where this machine's roofline really is, and report it.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "cli/commands.hpp"
#include "cli/harness_commands.hpp"
#include "context/context.hpp"

namespace {

// The OpenMP runtime reads OMP_PROC_BIND/OMP_PLACES when it loads, before main: unbound threads
// migrate and blur measurements, so `run` and `info` without a binding set one and start again.
void bind_threads_or_reexec(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "run") != 0 && std::strcmp(argv[1], "info") != 0)) return;
  if (std::getenv("OMP_PROC_BIND") || std::getenv("OMP_PLACES")) return;
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
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
  ridgeline::add_report_commands(app, exit_code);
  return ridgeline::run_app(app, argc, argv, exit_code);
}
