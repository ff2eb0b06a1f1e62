#include "reports/fit/gemm_shapes.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

// A shape parameter the probe records as a number (m, n, k); 0 when absent.
std::uint64_t shape_param(const Point& p, const char* key) {
  const auto it = p.params.find(key);
  if (it == p.params.end() || !it->is_number()) return 0;
  const double v = it->get<double>();
  return v > 0 ? std::uint64_t(v) : 0;
}

}  // namespace

std::optional<double> gemm_m_at_intensity(double ridge, double flops_per_row, double bytes_per_row,
                                          double fixed_bytes) {
  // flops_per_row·m / (bytes_per_row·m + fixed_bytes) = ridge
  const double denominator = flops_per_row - ridge * bytes_per_row;
  if (!(ridge > 0) || !(denominator > 0) || !(fixed_bytes > 0)) return std::nullopt;
  return ridge * fixed_bytes / denominator;
}

std::vector<GemmShapeSweep> gemm_shape_sweeps(const FileAnalysis& a) {
  std::vector<GemmShapeSweep> out;
  for (const GroupAnalysis& g : a.groups) {
    const auto& matrix = g.fit.matrix;
    if (!matrix || !(matrix->peak.value > 0)) continue;
    // (n, k) → points by m; a repeated m keeps the faster (it is one shape).
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::map<std::uint64_t, const Point*>> by_nk;
    for (const Point* p : a.points_of(g.fit.space, g.fit.dtype)) {
      if (!p->measured() || !p->verified || !p->flops_per_s || !is_tensor_point(*p)) continue;
      const std::uint64_t m = shape_param(*p, "m"), n = shape_param(*p, "n"),
                          k = shape_param(*p, "k");
      if (!m || !n || !k || !(p->bytes > 0)) continue;
      const Point*& slot = by_nk[{n, k}][m];
      if (!slot || *p->flops_per_s > *slot->flops_per_s) slot = p;
    }
    // The ridge the knee uses: B_read's where known (a skinny GEMM mostly reads), else B's.
    const std::optional<double> ridge = matrix->read_ridge ? matrix->read_ridge : matrix->ridge;
    for (const auto& [nk, points] : by_nk) {
      if (points.size() < 2) continue;
      GemmShapeSweep s;
      s.space = g.fit.space;
      s.dtype = g.fit.dtype;
      std::tie(s.n, s.k) = nk;
      s.peak = matrix->peak.value;
      for (const auto& [m, p] : points) {
        GemmShapeRow r;
        r.point = p;
        r.m = m;
        r.flops_per_s = *p->flops_per_s;
        r.intensity = p->flops / p->bytes;
        r.share_of_peak = r.flops_per_s / s.peak;
        if (ridge) r.attainable = std::min(s.peak, r.intensity * s.peak / *ridge);
        s.rows.push_back(r);
      }
      for (auto r = s.rows.rbegin(); r != s.rows.rend(); ++r) {
        if (r->share_of_peak < kGemmSaturatedShare) break;
        s.saturated_m = r->m;
      }
      if (ridge) {
        // The probe counts (k·in + n·out)·m + kn·in bytes: the line through the smallest and the
        // largest m gives both terms without knowing the types.
        const Point &lo = *s.rows.front().point, &hi = *s.rows.back().point;
        const double dm = double(s.rows.back().m) - double(s.rows.front().m);
        const double per_row = (hi.bytes - lo.bytes) / dm;
        const double fixed = lo.bytes - per_row * double(s.rows.front().m);
        s.roof_knee_m =
            gemm_m_at_intensity(*ridge, 2.0 * double(s.n) * double(s.k), per_row, fixed);
        s.knee_ridge = matrix->read_ridge ? "I*_matrix on B_read" : "I*_matrix";
        s.knee_ridge_value = *ridge;
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace ridgeline
