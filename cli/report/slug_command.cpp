#include "cli/report/slug_command.hpp"

#include <iostream>
#include <memory>

#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "reports/machines/device_slug.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

// A results file (it has a `context`) is read as the reporter reads it, its points saying which
// space ran and which ISA the host has; anything else is a context as `info --json` prints it.
Results read_machine(const std::string& path) {
  const std::string text = read_text_file(path, "results file or machine context");
  // Whether it has a context is decided without building its points (a file may hold 200k).
  bool in_points = false;
  const json top =
      parse_json_text(text, path, [&in_points](int depth, json::parse_event_t event, json& parsed) {
        using E = json::parse_event_t;
        if (depth == 1 && event == E::key) in_points = parsed == "points";
        return !(in_points && depth == 2 &&
                 (event == E::object_end || event == E::array_end || event == E::value));
      });
  if (top.is_object() && top.contains("context")) return parse_results(text, path);
  return results_of_context(top, path);
}

}  // namespace

void add_slug_command(CLI::App& app, int& exit_code) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "slug",
      "Print the folder name of the machine a results file or `ridgeline info --json` describes: "
      "the id of the sheet that names its GPU (h100-sxm), else a slug of the GPU's name "
      "(nvidia-h100-pcie); without a GPU the host's CPU sheet, else a slug of the CPU model");
  cmd->add_option("file", *file, "A results JSON file or the output of `ridgeline info --json`")
      ->required();
  cmd->callback([file, &exit_code] {
    // A sheet that cannot be read fails the command: the folder name must not depend on it.
    const auto profiles = load_machine_profiles(machine_profiles_dir());
    std::cout << device_slug(read_machine(*file), profiles) << "\n";
    exit_code = kExitOk;
  });
}

}  // namespace ridgeline
