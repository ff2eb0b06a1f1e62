#pragma once
// Which vendor gemm points a device space gets: every shape of the profile (the square n³, then
// the skinny m×n×n sweep) in every wanted type, as probes, or as skipped points that say why
// (no library; a type this GPU or this library cannot run). Separate from the planner so the
// decision can be tested on a host space with a stand-in library.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"
#include "harness/probes/probe.hpp"
#include "harness/probes/vendor_gemm_probe.hpp"
#include "harness/sweep/plan_sizes.hpp"
#include "harness/sweep/sweep_profile.hpp"

namespace ridgeline {

// `library` null: every point is skipped with `why_not`. `type_wanted` says which types the
// profile and filter ask for. `llc_bytes`: the device's last-level cache (0: unknown), which
// sets how many copies of its inputs each point rotates through (gemm_input_copies).
template <class Space>
std::vector<PointPlan> vendor_gemm_plan(VendorGemm* library, const std::string& why_not,
                                        const std::vector<GemmShape>& shapes,
                                        const std::function<bool(GemmType)>& type_wanted,
                                        std::uint64_t llc_bytes = 0) {
  std::vector<PointPlan> out;
  for (const GemmType t : kGemmTypes) {
    if (!type_wanted(t)) continue;
    const std::string unsupported = library ? library->unsupported(t) : why_not;
    for (const GemmShape& shape : shapes) {
      PointPlan p;
      if (unsupported.empty()) {
        const GemmTypeInfo ti = gemm_type_info(t);
        const std::size_t copies =
            gemm_input_copies((shape.m * shape.k + shape.k * shape.n) * ti.in_bytes, llc_bytes);
        p.probe = std::make_unique<VendorGemmProbe<Space>>(t, shape, *library, copies);
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
