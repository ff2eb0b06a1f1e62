#include "reports/render/spec_scope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/stats.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/machines/host_match.hpp"
#include "reports/render/markdown_text.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// "no machine sheet matches this host (AMD, avx2, 256-bit, 2 cores, 2 threads;
// `epyc-zen5-2vcpu` needs avx512, 512-bit vectors)".
std::string no_sheet_line(const HostFacts& host, const HostMatch& match) {
  std::string why;
  for (const auto& miss : match.misses) {
    why += (why.empty() ? "" : "; ") + md_code(miss.id) + " needs ";
    for (std::size_t i = 0; i < miss.unmet.size(); ++i)
      why += (i ? ", " : "") + md_text(miss.unmet[i]);
  }
  if (why.empty())
    why = host.model.empty() ? "the file records no CPU model"
                             : "no sheet names " + md_code(host.model);
  return "no machine sheet matches this host (" + md_text(describe_host(host)) + "; " + why + ")";
}

// The median clock the space's peak kernels counted (GPUs), nullopt when none did.
std::optional<double> kernel_clock(const Results& r, const std::string& space) {
  std::vector<double> mhz;
  for (const Point& p : r.points)
    if (p.space == space && defines_peak(p.family) && p.verified && p.kernel_clock_mhz)
      mhz.push_back(*p.kernel_clock_mhz);
  if (mhz.empty()) return std::nullopt;
  return std::round(median(mhz));
}

}  // namespace

SpecScope spec_scope(const FileAnalysis& f, const std::string& space,
                     const std::vector<MachineProfile>& profiles) {
  SpecScope s;
  if (is_device_space(f.results, space)) {
    s.profile = match_machine_profile(f.results.device_name(space), profiles);
    // The device's own SM (CU) count where the file records it: a cut-down part matched by a
    // family's sheet has fewer.
    const SpaceInfo* info = f.results.find_space(space);
    if (s.profile)
      s.units = info && info->device && info->device->units > 0 ? info->device->units
                                                                : s.profile->compute_units;
    s.measured_clock_mhz = kernel_clock(f.results, space);
    s.measured_clock_when = "by the peak kernels as they ran";
    return s;
  }
  const HostFacts host = host_facts(f.results);
  const HostMatch match = match_host_profile(host, profiles);
  if (!match.profile) {
    s.why_none = no_sheet_line(host, match);
    return s;
  }
  s.profile = match.profile;
  if (f.results.cpu_clock_mhz) {
    s.measured_clock_mhz = std::round(*f.results.cpu_clock_mhz);
    s.measured_clock_when = "on every core at the run's start";
  }
  const int units = s.profile->compute_units;
  const SpaceInfo* info = f.results.find_space(space);
  const int used = info ? info->concurrency : units;
  s.units = std::min(used, units);
  if (used < units) {
    s.peak_share = double(used) / units;
    s.bandwidth_why_not = fmt::format("{} of {} units: no sheet figure", used, units);
  }
  return s;
}

}  // namespace ridgeline
