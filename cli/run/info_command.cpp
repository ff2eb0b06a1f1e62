#include <iostream>
#include <memory>

#include "cli/run/harness_commands.hpp"
#include "cli/run/kokkos_session.hpp"
#include "cli/run/run_checks.hpp"
#include "core/input_error.hpp"
#include "harness/context/baseline_key.hpp"
#include "harness/context/context.hpp"

namespace ridgeline {

void add_info_command(CLI::App& app, int& exit_code) {
  struct Options {
    bool json = false;
    int threads = 0;
    std::vector<std::string> kokkos_args;
  };
  auto o = std::make_shared<Options>();
  CLI::App* info = app.add_subcommand(
      "info", "Describe this machine and every Kokkos execution space in the build");
  info->add_flag("--json", o->json, "Print JSON (what results files embed as context)");
  info->add_option("--threads", o->threads, "Host threads for Kokkos (default: Kokkos' choice)")
      ->check(thread_count_validator());
  info->add_option("--kokkos", o->kokkos_args, "Arguments passed to Kokkos::initialize");
  info->callback([o, &exit_code] {
    KokkosSession session(o->kokkos_args, o->threads);
    auto context = machine_context().recorded;
    if (o->json) {
      // The nightly baseline this machine's results belong to (info only: results files embed
      // the context without it).
      const BaselineKey key = baseline_key(context);
      context["baseline"] = {{"key", key.key}, {"host", key.host}, {"machine", key.machine}};
      std::cout << context.dump(2) << "\n";
    } else {
      std::cout << format_context(context);
    }
    exit_code = kExitOk;
  });
}

}  // namespace ridgeline
