#include "core/stats.hpp"

#include <algorithm>
#include <cmath>

namespace ridgeline {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  const double hi = v[n / 2];
  if (n % 2) return hi;
  return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2)));
}

double log_mad(const std::vector<double>& positive) {
  std::vector<double> logs;
  for (double v : positive) logs.push_back(std::log(v));
  const double med = median(logs);
  for (double& l : logs) l = std::fabs(l - med);
  return median(logs);
}

double log_sigma(const std::vector<double>& positive) { return kMadToSigma * log_mad(positive); }

double robust_log_spread(const std::vector<double>& values) {
  if (values.size() < 3) return -1;
  // A few nights' MAD is smaller on average than many normal values' (3 nights: by a third), so
  // small counts get their own factor instead of kMadToSigma (simulated with normal values; from
  // 9 on, n / (n − 1) × kMadToSigma is within 1 % of it).
  constexpr double kSmall[] = {2.207, 2.017, 1.807, 1.758, 1.688, 1.674};  // n = 3 … 8
  const std::size_t n = values.size();
  const double factor = n <= 8 ? kSmall[n - 3] : kMadToSigma * double(n) / double(n - 1);
  return factor * log_mad(values);
}

double median_log_se(const std::vector<double>& samples) {
  if (samples.size() < 3) return 0;
  return kMedianEfficiency * kMadToSigma * log_mad(samples) / std::sqrt(double(samples.size()));
}

double tukey_biweight_location(const std::vector<double>& v, double scale_floor) {
  double m = median(v);
  if (v.size() < 3) return m;
  std::vector<double> dev(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) dev[i] = std::fabs(v[i] - m);
  // kMadToSigma × MAD estimates sigma for normal data.
  const double scale = std::max(kMadToSigma * median(dev), scale_floor);
  const double c = kBiweightTuning * scale;
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
