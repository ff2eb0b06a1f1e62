#include "core/stats.hpp"

#include <algorithm>
#include <cmath>

namespace ridgeline {

double median(std::vector<double> v) {
  const std::size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  const double hi = v[n / 2];
  if (n % 2) return hi;
  return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2)));
}

double tukey_biweight_location(const std::vector<double>& v, double scale_floor) {
  double m = median(v);
  if (v.size() < 3) return m;
  std::vector<double> dev(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) dev[i] = std::fabs(v[i] - m);
  // 1.4826 * MAD estimates sigma for normal data; c = 4.685 gives 95 % efficiency there.
  const double scale = std::max(1.4826 * median(dev), scale_floor);
  const double c = 4.685 * scale;
  for (int iter = 0; iter < 50; ++iter) {
    double num = 0, den = 0;
    for (double x : v) {
      const double u = (x - m) / c;
      if (std::fabs(u) >= 1) continue;
      const double w = (1 - u * u) * (1 - u * u);
      num += w * x;
      den += w;
    }
    if (den <= 0) break;
    const double next = num / den;
    const bool done = std::fabs(next - m) < 1e-10 * (1 + std::fabs(m));
    m = next;
    if (done) break;
  }
  return m;
}

}  // namespace ridgeline
