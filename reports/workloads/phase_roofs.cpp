#include "reports/workloads/phase_roofs.hpp"

#include <algorithm>

#include "core/input_error.hpp"
#include "core/suggest.hpp"
#include "core/text.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

// The fitted group of `dtype` on the preferred space, or nullptr.
const GroupFit* best_group(const FileAnalysis& f, const std::string& dtype,
                           const std::string& space) {
  const GroupFit* best = nullptr;
  bool best_device = false;
  for (const auto& g : f.groups) {
    if (!g.fit.fit || g.fit.dtype != dtype || (!space.empty() && g.fit.space != space)) continue;
    const bool device = is_device_space(f.results, g.fit.space);
    if (!best || (device && !best_device) ||
        (device == best_device &&
         g.fit.fit->estimate.roof.peak_flops > best->fit->estimate.roof.peak_flops)) {
      best = &g.fit;
      best_device = device;
    }
  }
  return best;
}

std::string fitted_dtypes(const FileAnalysis& f, const std::string& space) {
  std::string out;
  for (const auto& g : f.groups)
    if (g.fit.fit && (space.empty() || g.fit.space == space))
      out += (out.empty() ? "" : ", ") + g.fit.space + " " + g.fit.dtype;
  return out.empty() ? "none" : out;
}

}  // namespace

std::optional<PhaseRoofs> phase_roofs(const GroupFit& g) {
  if (!g.fit) return std::nullopt;
  PhaseRoofs r;
  r.space = g.space;
  r.dtype = g.dtype;
  r.p_vector = {g.fit->estimate.roof.peak_flops, g.fit->peak_ci};
  r.b = {g.fit->estimate.roof.bandwidth, g.fit->bandwidth_ci};
  if (g.read_bandwidth) r.b_read = RoofValue{g.read_bandwidth->value, g.read_bandwidth->ci};
  if (const MixRoof* write = g.mix_roof(TrafficMix::kWriteOnly))
    r.b_write = RoofValue{write->roof.value, write->roof.ci};
  // A transformer's matmuls run on the matrix units where the fit measured them.
  if (g.matrix) r.p_matrix = RoofValue{g.matrix->peak.value, g.matrix->peak.ci};
  return r;
}

HostRoofs host_roofs(const FileAnalysis& f, const std::string& weight_dtype,
                     const std::string& activation_dtype, const std::string& compute_dtype,
                     const std::string& space) {
  HostRoofs out;
  auto use = [&](const std::string& dtype, std::string why) {
    const GroupFit* g = best_group(f, dtype, space);
    if (!g) return false;
    out.roofs = phase_roofs(*g);
    out.compute_dtype = dtype;
    out.why = std::move(why);
    return true;
  };
  const std::string where = space.empty() ? "" : " on " + space;
  if (!compute_dtype.empty()) {
    if (use(compute_dtype, compute_dtype + " roofs, as --compute-dtype asks")) return out;
    out.why = "not measured: no fitted " + compute_dtype + " roofs" + where +
              " (fitted: " + fitted_dtypes(f, space) + ")";
    return out;
  }
  if (weight_dtype != "int4" && use(weight_dtype, weight_dtype + " roofs")) return out;
  const std::string instead = weight_dtype == "int4"
                                  ? "int4 weights are widened to the activation dtype: "
                                  : "no " + weight_dtype + " roofs measured" + where + ": ";
  if (weight_dtype != activation_dtype &&
      use(activation_dtype, instead + "the activation dtype's (" + activation_dtype + ") roofs"))
    return out;
  out.why = "not measured: no fitted " + activation_dtype + " roofs" + where +
            " (fitted: " + fitted_dtypes(f, space) + "; --compute-dtype picks one, stated)";
  return out;
}

void check_workload_names(const std::string& space, const std::string& compute_dtype,
                          const std::vector<const FileAnalysis*>& files) {
  std::vector<std::string> spaces, dtypes;
  auto add = [](std::vector<std::string>& to, const std::string& name) {
    if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
  };
  for (const FileAnalysis* f : files)
    for (const GroupAnalysis& g : f->groups) {
      add(spaces, g.fit.space);
      if (space.empty() || g.fit.space == space) add(dtypes, g.fit.dtype);
    }
  // did_you_mean with the case forgiven first: 'openmp' is 'OpenMP'.
  auto hint = [](const std::string& typed, const std::vector<std::string>& names) {
    for (const auto& n : names)
      if (lower_ascii(n) == lower_ascii(typed)) return " (did you mean '" + n + "'?)";
    return did_you_mean(typed, names);
  };
  auto listed = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  if (!space.empty() && std::find(spaces.begin(), spaces.end(), space) == spaces.end())
    throw InputError("", "--space",
                     "'" + space + "' is not a space of these results (" + listed(spaces) + ")" +
                         hint(space, spaces));
  if (!compute_dtype.empty() &&
      std::find(dtypes.begin(), dtypes.end(), compute_dtype) == dtypes.end())
    throw InputError("", "--compute-dtype",
                     "'" + compute_dtype + "' is not a dtype of these results" +
                         (space.empty() ? "" : " in " + space) + " (" + listed(dtypes) + ")" +
                         hint(compute_dtype, dtypes));
}

}  // namespace ridgeline
