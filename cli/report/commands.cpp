#include "cli/report/commands.hpp"

#include <cstring>
#include <iostream>
#include <new>

#include "cli/report/calc_command.hpp"
#include "cli/report/compare_command.hpp"
#include "cli/report/export_command.hpp"
#include "cli/report/fit_command.hpp"
#include "cli/report/gate_command.hpp"
#include "cli/report/place_command.hpp"
#include "cli/report/profile_command.hpp"
#include "cli/report/report_command.hpp"
#include "cli/report/slug_command.hpp"
#include "core/input_error.hpp"
#include "core/suggest.hpp"

namespace ridgeline {

void add_report_commands(CLI::App& app, int& exit_code) {
  add_calc_command(app, exit_code);
  add_fit_command(app, exit_code);
  add_report_command(app, exit_code);
  add_place_command(app, exit_code);
  add_profile_command(app, exit_code);
  add_compare_command(app, exit_code);
  add_gate_command(app, exit_code);
  add_export_command(app, exit_code);
  add_slug_command(app, exit_code);
}

namespace {

// What CLI11 would answer with "A subcommand is required": a bare call, `help [COMMAND]`, a
// mistyped command, an option before the command. Returns the exit status, or -1 to parse.
int before_subcommand(CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  const std::string prog = app.get_name().empty() ? "ridgeline" : app.get_name();
  if (argc < 2) {
    std::cerr << app.help() << "\n" << prog << ": error: a command is required\n";
    return kExitBadInput;
  }
  const std::string first = argv[1];
  if (first == "help") {
    if (argc < 3) {
      std::cout << app.help();
      return kExitOk;
    }
    for (CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[2]) {
        std::cout << sub->help();
        return kExitOk;
      }
    std::cerr << prog << ": error: unknown command '" << argv[2] << "'"
              << did_you_mean(argv[2], names) << "\n";
    return kExitBadInput;
  }
  if (std::find(names.begin(), names.end(), first) != names.end()) return -1;
  if (first.rfind('-', 0) == 0) {
    if (first == "-h" || first == "--help" || first == "--help-all" || first == "-V" ||
        first == "--version")
      return -1;
    std::cerr << prog << ": error: '" << first
              << "' comes before a command; options follow it, e.g. '" << prog << " run " << first
              << "' (see '" << prog << " --help')\n";
    return kExitBadInput;
  }
  std::cerr << prog << ": error: unknown command '" << first << "'" << did_you_mean(first, names)
            << "; see '" << prog << " --help'\n";
  return kExitBadInput;
}

}  // namespace

int run_app(CLI::App& app, int argc, char** argv, const int& exit_code) {
  app.require_subcommand(1);
  if (const int early = before_subcommand(app, argc, argv); early >= 0) return early;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ridgeline: error: " << single_line(e.what()) << "\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "ridgeline: error: " << single_line(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "ridgeline: error: out of memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "ridgeline: internal error (please report): " << single_line(e.what()) << "\n";
    return kExitInternal;
  }
  return exit_code;
}

}  // namespace ridgeline
