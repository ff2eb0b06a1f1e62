#pragma once
// Which vendor gemm points a device space gets: every shape of the profile (the square n³, then
// the skinny m×n×n sweep) in every wanted type, as probes, or as skipped points that say why
// (no library; a type this GPU or this library cannot run). Separate from the planner so the
// decision can be tested on a host space with a stand-in library.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"
#include "harness/probes/probe.hpp"
#include "harness/probes/vendor_gemm_probe.hpp"
#include "harness/sweep/sweep_profile.hpp"

namespace ridgeline {

// The square first (the points that existed before the sweep), then each m of the sweep that
// differs from it; m = n is the square, measured once.
inline std::vector<GemmShape> vendor_gemm_shapes(const SweepProfile& p) {
  const std::size_t n = p.vendor_gemm_n;
  std::vector<GemmShape> shapes = {{n, n, n}};
  for (const std::uint64_t m : p.vendor_gemm_m)
    if (m != n) shapes.push_back({std::size_t(m), n, n});
  return shapes;
}

// `library` null: every point is skipped with `why_not`. `type_wanted` says which types the
// profile and filter ask for.
template <class Space>
std::vector<PointPlan> vendor_gemm_plan(VendorGemm* library, const std::string& why_not,
                                        const std::vector<GemmShape>& shapes,
                                        const std::function<bool(GemmType)>& type_wanted) {
  std::vector<PointPlan> out;
  for (const GemmType t : kGemmTypes) {
    if (!type_wanted(t)) continue;
    const std::string unsupported = library ? library->unsupported(t) : why_not;
    for (const GemmShape& shape : shapes) {
      PointPlan p;
      if (unsupported.empty()) {
        p.probe = std::make_unique<VendorGemmProbe<Space>>(t, shape, *library);
        p.info = p.probe->info();
      } else {
        p.info.probe = "vendor_gemm";
        p.info.family = "library";
        p.info.space = Space::name();
        p.info.dtype = gemm_type_info(t).dtype;
        p.info.name = point_name("vendor_gemm", Space::name(), p.info.dtype,
                                 VendorGemmProbe<Space>::gemm_grade(shape));
        p.skipped_reason = unsupported;
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace ridgeline
