#include "cli/commands.hpp"

#include <iostream>
#include <new>

#include "cli/calc_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/fit_command.hpp"
#include "cli/place_command.hpp"
#include "cli/report_command.hpp"
#include "results/input_error.hpp"

namespace ridgeline {

void add_report_commands(CLI::App& app, int& exit_code) {
  add_calc_command(app, exit_code);
  add_fit_command(app, exit_code);
  add_report_command(app, exit_code);
  add_place_command(app, exit_code);
  add_compare_command(app, exit_code);
}

int run_app(CLI::App& app, int argc, char** argv, const int& exit_code) {
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ridgeline: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "ridgeline: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "ridgeline: error: out of memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "ridgeline: internal error (please report): " << e.what() << "\n";
    return kExitInternal;
  }
  return exit_code;
}

}  // namespace ridgeline
