// ridgeline plan: the points a profile plans on a GPU and how long they take there, on any
// build (no Kokkos initialised, no device needed), so a borrowed GPU's minutes are planned
// before they start.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/run/harness_commands.hpp"
#include "cli/run/plan_inputs.hpp"
#include "core/input_error.hpp"
#include "core/units.hpp"
#include "harness/sweep/plan_estimate.hpp"
#include "harness/sweep/plan_outline.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/results_model.hpp"

namespace ridgeline {
namespace {

struct Options {
  std::string profile = "gpu-first-light";
  std::string device_info, device_sheet, space, timings;
  double budget = 0;  // 0: no verdict
  bool json = false, points = false;
};

std::string device_line(const DeviceSpaceFacts& d) {
  const DeviceCapacities& c = d.capacities;
  return fmt::format(
      "{} ({}, {}, {} units, L1 {}/unit, L2 {}, memory {})", d.name, d.space, d.arch,
      d.compute_units, c.l1_per_unit_bytes ? format_size_bytes(double(c.l1_per_unit_bytes)) : "?",
      format_size_bytes(double(c.l2_bytes)), format_size_bytes(double(c.memory_bytes)));
}

std::string sheet_text(const DeviceSpeed& s) {
  return s.sheet.empty() ? "no sheet: rates unscaled" : "sheet " + s.sheet;
}

nlohmann::json estimate_json(const Options& o, const DeviceSpaceFacts& device,
                             const DeviceSpeed& target, const Results& timings,
                             const DeviceSpeed& timing_speed, const PlanEstimate& e) {
  nlohmann::json families = nlohmann::json::array();
  for (const FamilyEstimate& f : e.families)
    families.push_back({{"family", f.family},
                        {"points", f.points},
                        {"measured", f.measured},
                        {"skipped", f.points - f.measured},
                        {"seconds", f.seconds}});
  nlohmann::json units = nlohmann::json::array();
  for (const FamilyEstimate& u : e.units)
    units.push_back({{"unit", u.family},
                     {"points", u.points},
                     {"measured", u.measured},
                     {"seconds", u.seconds}});
  nlohmann::json points = nlohmann::json::array();
  for (const PointEstimate& p : e.points)
    points.push_back(
        {{"name", p.point.info.name},
         {"family", p.point.info.family},
         {"skipped_reason",
          p.point.measured() ? nlohmann::json() : nlohmann::json(p.point.skipped_reason)},
         {"call_s", p.point.measured() ? nlohmann::json(p.call_s) : nlohmann::json()},
         {"seconds", p.seconds},
         {"host_bytes", p.point.host_bytes},
         {"setup_calls", p.point.setup_calls},
         {"basis", p.basis}});
  const DeviceCapacities& c = device.capacities;
  nlohmann::json j = {
      {"profile", o.profile},
      {"device",
       {{"name", device.name},
        {"space", device.space},
        {"arch", device.arch},
        {"compute_units", device.compute_units},
        {"concurrency", device.concurrency},
        {"l1_per_unit_bytes", c.l1_per_unit_bytes},
        {"l2_bytes", c.l2_bytes},
        {"memory_bytes", c.memory_bytes},
        {"source", device.source},
        {"sheet", target.sheet.empty() ? nlohmann::json() : nlohmann::json(target.sheet)}}},
      {"timings",
       {{"file", timings.file},
        {"points", e.timing_points},
        {"sheet",
         timing_speed.sheet.empty() ? nlohmann::json() : nlohmann::json(timing_speed.sheet)}}},
      {"model",
       {{"startup_s", e.model.startup_s},
        {"per_point_s", e.model.per_point_s},
        {"per_host_byte_s", e.model.per_host_byte_s},
        {"per_repetition_s", e.model.per_repetition_s},
        {"unmeasured_efficiency", kUnmeasuredEfficiency}}},
      {"families", families},
      {"units", units},
      {"startup_s", e.startup_s},
      {"total_s", e.total_s},
      {"budget", nullptr},
      {"points", points}};
  if (o.budget > 0) {
    const double allowance = main_sweep_allowance(o.budget);
    j["budget"] = {{"budget_s", o.budget},
                   {"smoke_s", kSmokeAllowanceS},
                   {"reserve_s", kAfterSweepReserveS},
                   {"allowance_s", allowance},
                   {"main_sweep_s", e.session_s(false)},
                   {"fits", e.session_s(false) <= allowance},
                   {"spare_s", allowance - e.session_s(false)},
                   {"points_within_allowance", e.points_within(allowance)}};
  }
  return j;
}

void print_text(const Options& o, const DeviceSpaceFacts& device, const DeviceSpeed& target,
                const Results& timings, const DeviceSpeed& timing_speed, const PlanEstimate& e) {
  std::cout << fmt::format("Plan of {} on {}\n  device from {} ({})\n", o.profile,
                           device_line(device), device.source, sheet_text(target));
  std::cout << fmt::format("  timings from {}: {} measured device points ({})\n\n", timings.file,
                           e.timing_points, sheet_text(timing_speed));
  if (o.points) {
    for (const PointEstimate& p : e.points)
      std::cout << (p.point.measured()
                        ? fmt::format("  {:<46} {:>7.2f} s  call {}: {}\n", p.point.info.name,
                                      p.seconds, format_seconds(p.call_s), p.basis)
                        : fmt::format("  {:<46} skipped: {}\n", p.point.info.name,
                                      p.point.skipped_reason));
    std::cout << "\n";
  }
  std::cout << fmt::format("  {:<10} {:>6} {:>9} {:>8} {:>9}\n", "family", "points", "measured",
                           "skipped", "seconds");
  int points = 0, measured = 0;
  for (const FamilyEstimate& f : e.families) {
    std::cout << fmt::format("  {:<10} {:>6} {:>9} {:>8} {:>9.1f}\n", f.family, f.points,
                             f.measured, f.points - f.measured, f.seconds);
    points += f.points;
    measured += f.measured;
  }
  std::cout << fmt::format("  {:<10} {:>6} {:>9} {:>8} {:>9.1f}\n", "startup", "", "", "",
                           e.startup_s);
  std::cout << fmt::format("  {:<10} {:>6} {:>9} {:>8} {:>9.1f}\n", "total", points, measured,
                           points - measured, e.total_s);
  if (o.budget > 0) {
    const double allowance = main_sweep_allowance(o.budget);
    std::cout << fmt::format(
        "\nBudget {:g} s: the main sweep may take {:g} s ({:g} - smoke {:g} - reference, report "
        "and rerun {:g}): ",
        o.budget, allowance, o.budget, kSmokeAllowanceS, kAfterSweepReserveS);
    const double main = e.session_s(false);
    std::cout << fmt::format("{:.0f} s in gpu-run's {} parts: ", main, kMainSweepProcesses);
    if (main <= allowance) {
      std::cout << fmt::format("fits, {:.0f} s to spare\n", allowance - main);
    } else {
      const std::size_t n = e.points_within(allowance);
      std::cout << fmt::format(
          "does not fit, {:.0f} s over; in plan order it would end after {} of {} points{}\n",
          main - allowance, n, e.points.size(),
          n < e.points.size() ? ", before " + e.points[n].point.info.name : std::string());
    }
  }
}

// The sheet figures of the timing file's first device space, matched by its GPU's name; its
// architecture (which unit runs each GEMM type) from the recorded context.
DeviceSpeed timing_device_speed(const Results& timings) {
  for (const SpaceInfo& s : timings.spaces) {
    if (s.kind != "device" || !s.device) continue;
    const auto sheet = sheet_for_device(s.device->name);
    if (!sheet) return {};
    std::string arch;
    for (const nlohmann::json& c : timings.context.value("spaces", nlohmann::json::array()))
      if (c.is_object() && c.value("name", "") == s.name && c.contains("device") &&
          c["device"].is_object() && c["device"].contains("arch") &&
          c["device"]["arch"].is_string())
        arch = c["device"]["arch"].get<std::string>();
    return speed_from_sheet(*sheet, arch);
  }
  return {};
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  CLI::App* plan = app.add_subcommand(
      "plan", "The points a profile plans on a GPU and its estimated wall time there");
  plan->add_option("--profile", o->profile, "A sweep profile (see 'list') or FILE.json")
      ->capture_default_str();
  auto* info = plan->add_option("--device-info", o->device_info,
                                "The device: what `ridgeline info --json` printed on it");
  auto* sheet = plan->add_option("--device-sheet", o->device_sheet,
                                 "The device: a machine sheet's id or name (profiles/machines)");
  info->excludes(sheet);
  plan->add_option("--space", o->space,
                   "The device space of --device-info (default: its first device space)")
      ->needs(info);
  plan->add_option("--timings", o->timings,
                   "A results file of a GPU run: the measured points the estimate scales from")
      ->required();
  plan->add_option("--budget", o->budget,
                   fmt::format("Seconds gpu-run is given: say whether the main sweep fits in "
                               "them less the smoke sweep ({:g} s) and what follows it ({:g} s); "
                               "exit 1 when it does not",
                               kSmokeAllowanceS, kAfterSweepReserveS))
      ->check(CLI::Range(1.0, 86400.0));
  plan->add_flag("--json", o->json, "Print JSON (every point with its estimate)");
  plan->add_flag("--points", o->points, "Also list every point with its estimate");
  plan->footer(
      fmt::format("The model and how it was fitted: harness/sweep/plan_estimate.hpp. The GPU "
                  "profiles are sized for a session budget of {:g} s.",
                  kSessionBudgetS));
  plan->callback([o, &exit_code] {
    if (o->device_info.empty() && o->device_sheet.empty())
      throw InputError("", "--device-info", "or --device-sheet is required: the GPU to plan for");
    const SweepProfile profile = load_sweep_profile(o->profile);
    DeviceSpaceFacts device;
    DeviceSpeed target;
    if (!o->device_info.empty()) {
      device = device_from_info(o->device_info, o->space);
      if (const auto s = sheet_for_device(device.name)) target = speed_from_sheet(*s, device.arch);
    } else {
      const MachineProfile s = find_machine_profile(o->device_sheet, machine_profiles_dir());
      device = device_from_sheet(s);
      target = speed_from_sheet(s, device.arch);
    }
    const Results timings = load_results(o->timings);
    const DeviceSpeed timing_speed = timing_device_speed(timings);
    const std::vector<OutlinePoint> outline = outline_device_plan(profile, device);
    if (outline.empty())
      throw InputError(profile.source, "spaces",
                       "leaves out the device's space (" + device.space + "): nothing to plan");
    const PlanEstimate e = estimate_plan(profile, outline, target, timings, timing_speed);
    if (o->json)
      std::cout << estimate_json(*o, device, target, timings, timing_speed, e).dump(2) << "\n";
    else
      print_text(*o, device, target, timings, timing_speed, e);
    exit_code = o->budget > 0 && e.session_s(false) > main_sweep_allowance(o->budget) ? kExitFailed
                                                                                      : kExitOk;
  });
}

}  // namespace ridgeline
