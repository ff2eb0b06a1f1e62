// ridgeline-report: the reporter alone, for machines that hold results files but no Kokkos.
#include "cli/report/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "ridgeline-report: fit, report, place, compare, export, calc and slug on ridgeline results",
      "ridgeline-report"};
  app.set_version_flag("-V,--version", "ridgeline-report " RIDGELINE_REPORT_VERSION);
  int exit_code = 0;
  ridgeline::add_report_commands(app, exit_code);
  return ridgeline::run_app(app, argc, argv, exit_code);
}
