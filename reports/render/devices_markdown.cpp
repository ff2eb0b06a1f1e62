#include "reports/render/devices_markdown.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "core/units.hpp"
#include "reports/fit/device_outliers.hpp"
#include "reports/render/markdown_text.hpp"

namespace ridgeline {
namespace {

struct Sum {
  int devices = 0;
  double p = 0, b = 0;
  Interval p_ci, b_ci;
  void add(const RoofFit& f) {
    ++devices;
    p += f.estimate.roof.peak_flops;
    b += f.estimate.roof.bandwidth;
    p_ci.low += f.peak_ci.low;
    p_ci.high += f.peak_ci.high;
    b_ci.low += f.bandwidth_ci.low;
    b_ci.high += f.bandwidth_ci.high;
  }
};

std::string group_name(const GroupFit& g) { return g.space + " " + g.dtype; }

void devices_table(std::string& md, const std::vector<const FileAnalysis*>& devices) {
  md +=
      "| Rank | Host | Device | Where | Space · dtype | P | B | I* |\n"
      "|---:|---|---|---|---|---:|---:|---:|\n";
  for (const FileAnalysis* d : devices)
    for (const auto& g : d->groups) {
      const std::string where = d->results.points.empty() ? "" : d->results.points.front().where;
      const std::string head = fmt::format(
          "| {} | {} | {} | {} | {} ", d->results.rank, md_text(d->results.hostname),
          md_text(d->results.device_name(g.fit.space)), md_text(where), md_text(group_name(g.fit)));
      if (!g.fit.fit) {
        md += head + "| " + md_text(g.fit.not_fitted) + " | | |\n";
        continue;
      }
      const RoofFit& f = *g.fit.fit;
      md += head + fmt::format("| {} | {} | {} |\n",
                               format_flops_with_ci(f.estimate.roof.peak_flops, f.peak_ci),
                               format_bytes_with_ci(f.estimate.roof.bandwidth, f.bandwidth_ci),
                               format_intensity(f.estimate.roof.ridge_point()));
    }
  md += "\n";
}

void aggregates(std::string& md, const std::string& mode,
                const std::vector<const FileAnalysis*>& devices) {
  // (scope, group) → sum; nodes first in order of appearance, the whole job last.
  std::vector<std::string> scopes;
  std::map<std::pair<std::string, std::string>, Sum> sums;
  std::vector<std::string> groups;
  for (const FileAnalysis* d : devices)
    for (const auto& g : d->groups) {
      if (!g.fit.fit) continue;
      const std::string node = "node " + d->results.hostname;
      if (std::find(scopes.begin(), scopes.end(), node) == scopes.end()) scopes.push_back(node);
      if (std::find(groups.begin(), groups.end(), group_name(g.fit)) == groups.end())
        groups.push_back(group_name(g.fit));
      sums[{node, group_name(g.fit)}].add(*g.fit.fit);
      sums[{"whole job", group_name(g.fit)}].add(*g.fit.fit);
    }
  if (sums.empty()) {
    md += "No device has a fitted roof, so there is nothing to add up.\n\n";
    return;
  }
  scopes.push_back("whole job");
  md += mode == "concurrent"
            ? "Sums of the devices' roofs, measured with every rank running each point at the "
              "same time: what a node and the job deliver together.\n\n"
            : "Sums of the devices' roofs, each measured alone (isolated mode): an upper bound "
              "on what they deliver together, which shared memory buses, links and power may "
              "not reach; run with `--mpi-mode concurrent` to measure it.\n\n";
  md += "| Scope | Space · dtype | Devices | ΣP | ΣB |\n|---|---|---:|---:|---:|\n";
  for (const auto& scope : scopes)
    for (const auto& group : groups) {
      const auto it = sums.find({scope, group});
      if (it == sums.end()) continue;
      const Sum& s = it->second;
      md += fmt::format("| {} | {} | {} | {} | {} |\n", md_text(scope), md_text(group), s.devices,
                        format_flops_with_ci(s.p, s.p_ci), format_bytes_with_ci(s.b, s.b_ci));
    }
  md +=
      "\nAn interval here adds the devices' interval ends: wider than the sum's own, never "
      "narrower.\n\n";
}

void outliers(std::string& md, const std::vector<const FileAnalysis*>& devices) {
  // Devices are compared with those of the same model, space and dtype only.
  struct Group {
    std::vector<DeviceValue> p, b;
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  for (const FileAnalysis* d : devices)
    for (const auto& g : d->groups) {
      if (!g.fit.fit) continue;
      const std::string key = group_name(g.fit) + " on " + d->results.device_name(g.fit.space);
      if (!groups.count(key)) order.push_back(key);
      const RoofFit& f = *g.fit.fit;
      groups[key].p.push_back({d->results.device_label, f.estimate.roof.peak_flops, f.peak_ci});
      groups[key].b.push_back({d->results.device_label, f.estimate.roof.bandwidth, f.bandwidth_ci});
    }
  if (groups.empty()) {
    md += "No device has a fitted roof: no outlier can be named.\n\n";
    return;
  }
  int named = 0;
  std::string notes;
  for (const auto& key : order) {
    for (const auto& roof_values : {std::pair{"P", &groups[key].p}, {"B", &groups[key].b}}) {
      // Not a structured binding: C++17 lambdas cannot capture those (clang refuses).
      const char* roof = roof_values.first;
      const OutlierCheck c = find_low_outliers(*roof_values.second);
      const bool peak = std::string(roof) == "P";
      const auto shown = [peak](double v) {
        return peak ? format_flops(v) : format_bytes_per_s(v);
      };
      if (!c.not_checked.empty()) {
        notes += fmt::format("- {} {}: not checked ({}).\n", roof, md_text(key), c.not_checked);
        continue;
      }
      for (const auto& o : c.outliers) {
        ++named;
        md += fmt::format(
            "- **{}**: {} {} = {}, {:.0f} % below the median of the other {} devices ({}; "
            "their spread allows {:.0f} %).\n",
            md_text(o.label), roof, md_text(key), shown(o.value), 100 * o.below, c.devices - 1,
            shown(o.peers), 100 * o.allowed);
      }
      if (c.outliers.empty())
        notes += fmt::format(
            "- {} {}: none of {} devices below the others by more than "
            "their noise allows (median {}, spread {:.1f} %).\n",
            roof, md_text(key), c.devices, shown(c.median), 100 * std::expm1(c.spread));
    }
  }
  if (!named) md += "No device falls below its peers by more than its noise allows.\n";
  md += "\n" + notes + "\n";
}

}  // namespace

std::string render_devices_markdown(const std::string& file, int ranks, const std::string& mode,
                                    const std::vector<const FileAnalysis*>& devices) {
  std::set<std::string> hosts;
  for (const FileAnalysis* d : devices) hosts.insert(d->results.hostname);
  std::string md =
      fmt::format("## MPI job {}: {} rank{} on {} node{}, {} mode\n\n", md_code(file), ranks,
                  ranks == 1 ? "" : "s", hosts.size(), hosts.size() == 1 ? "" : "s", mode);
  md += mode == "concurrent"
            ? "Every rank measured its own device, all ranks starting each point together.\n\n"
            : "Every rank measured its own device, one rank at a time.\n\n";
  md += "### Devices\n\n";
  devices_table(md, devices);
  md += "### Per node and whole job\n\n";
  aggregates(md, mode, devices);
  md += "### Slow devices\n\n";
  outliers(md, devices);
  return md;
}

}  // namespace ridgeline
