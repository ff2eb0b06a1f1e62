#include "reports/compare/device_compare.hpp"

#include <cmath>
#include <map>

#include "core/input_error.hpp"
#include "results/device_split.hpp"

namespace ridgeline {
namespace {

using Devices = std::map<std::string, FileAnalysis>;  // device key → its analysis

Devices analyze_devices(Results r, std::uint64_t seed) {
  if (r.mpi_size == 0)
    throw InputError(r.file, "mpi",
                     "is not an MPI job's file, and the other files are: a job is compared with "
                     "runs of the same job");
  Devices out;
  for (Results& d : split_by_device(std::move(r))) {
    const std::string key = d.device_key;
    out.emplace(key, analyze(std::move(d), kBootstrapReplicates, seed++));
  }
  return out;
}

void prefix(std::vector<MetricComparison>& metrics, const std::string& label) {
  for (auto& m : metrics) m.metric = label + ": " + m.metric;
}

}  // namespace

Comparison compare_devices(std::vector<Results> history, Results current, const CompareOptions& o) {
  std::vector<Devices> past;
  for (std::size_t i = 0; i < history.size(); ++i)
    past.push_back(analyze_devices(std::move(history[i]), kBootstrapSeed + 1000 * (i + 2)));
  const Devices now = analyze_devices(std::move(current), kBootstrapSeed + 1000);
  Comparison all;
  all.gates_speed = true;
  all.history_nights = static_cast<int>(past.size());
  bool first = true;
  for (const auto& [key, device] : now) {
    std::vector<const FileAnalysis*> own;
    for (const Devices& night : past)
      if (const auto it = night.find(key); it != night.end()) own.push_back(&it->second);
    if (own.empty()) {
      all.not_compared.push_back(device.results.device_label + " (" + key +
                                 "): new device, no history");
      continue;
    }
    Comparison c = compare_history(own, device, o);
    const std::string& label = device.results.device_label;
    prefix(c.roofs, label);
    prefix(c.points, label);
    prefix(c.levels, label);
    for (auto& n : c.not_compared) all.not_compared.push_back(label + ": " + n);
    for (auto& n : c.busy_history) all.busy_history.push_back(label + ": " + n);
    all.night_cpu_wait = std::max(all.night_cpu_wait, c.night_cpu_wait);
    all.quiet_history_nights =
        first ? c.quiet_history_nights : std::min(all.quiet_history_nights, c.quiet_history_nights);
    all.roofs.insert(all.roofs.end(), c.roofs.begin(), c.roofs.end());
    all.points.insert(all.points.end(), c.points.begin(), c.points.end());
    all.levels.insert(all.levels.end(), c.levels.begin(), c.levels.end());
    // One machine-wide row: a device whose night is SLOWER (it fails the gate) before one that
    // is not, else the device whose night moved most. Every device's lost roofs are listed.
    for (const auto& r : c.machine_roofs) all.machine_roofs.push_back(label + ": " + r);
    if (c.machine) {
      c.machine->metric = label + ": " + c.machine->metric;
      const auto slower = [](const MetricComparison& m) { return m.verdict == Verdict::kSlower; };
      if (!all.machine || slower(*c.machine) > slower(*all.machine) ||
          (slower(*c.machine) == slower(*all.machine) &&
           std::fabs(c.machine->change) > std::fabs(all.machine->change)))
        all.machine = c.machine;
    }
    if (first) all.history = c.history;
    first = false;
    all.history_nights = std::min(all.history_nights, c.history_nights);
    all.gates_speed = all.gates_speed && c.gates_speed;
  }
  if (!past.empty())
    for (const auto& [key, device] : past.back())
      if (!now.count(key)) {
        MetricComparison gone;
        gone.metric = device.results.device_label + " (" + key + ")";
        gone.roof = true;
        gone.baseline = "measured";
        gone.current = "absent";
        gone.verdict = Verdict::kMissing;
        gone.note = "the device is not in tonight's job";
        all.roofs.push_back(gone);
      }
  if (first) all.gates_speed = false;
  return all;
}

}  // namespace ridgeline
