#include "reports/compare/few_nights.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "core/stats.hpp"

namespace ridgeline {
namespace {

constexpr std::size_t kMaxNights = 64;

// |T_n| of kFewNightsDraws histories of n normal nights and one more night, sorted. The
// generator and the normal draws are spelled out (mt19937_64 is fixed by the standard,
// std::normal_distribution is not), so the table is the same with every standard library.
std::vector<double> simulate(std::size_t n) {
  std::mt19937_64 gen(0x726964676531ULL + n);
  const auto uniform = [&gen] { return (double(gen() >> 11) + 0.5) * 0x1.0p-53; };
  const auto normal = [&uniform] {  // Box–Muller, one of the pair
    return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
  };
  std::vector<double> t, nights(n);
  t.reserve(kFewNightsDraws);
  while (t.size() < kFewNightsDraws) {
    // Factors are logs: robust_log_spread takes the values themselves (exp of the logs).
    std::vector<double> logs(n);
    for (std::size_t i = 0; i < n; ++i) {
      logs[i] = 0.01 * normal();
      nights[i] = std::exp(logs[i]);
    }
    const double spread = robust_log_spread(nights);
    if (!(spread > 0)) continue;  // tied draws: never in practice
    t.push_back(std::fabs(0.01 * normal() - median(logs)) / spread);
  }
  std::sort(t.begin(), t.end());
  return t;
}

const std::vector<double>& table(std::size_t nights) {
  static std::mutex lock;
  static std::map<std::size_t, std::vector<double>> tables;
  const std::size_t n = std::clamp<std::size_t>(nights, 3, kMaxNights);
  const std::lock_guard<std::mutex> hold(lock);
  auto it = tables.find(n);
  if (it == tables.end()) it = tables.emplace(n, simulate(n)).first;
  return it->second;
}

}  // namespace

double few_nights_quantile(std::size_t nights, double p) {
  const std::vector<double>& s = table(nights);
  // P(T ≤ q) = p for a symmetric T is P(|T| ≤ q) = 2p − 1.
  const double share = std::clamp(2 * p - 1, 0.0, 1.0);
  const std::size_t i = std::min(s.size() - 1, std::size_t(share * double(s.size())));
  return s[i];
}

double few_nights_p_value(std::size_t nights, double t) {
  const std::vector<double>& s = table(nights);
  const auto beyond = s.end() - std::lower_bound(s.begin(), s.end(), std::fabs(t));
  return std::max(double(beyond), 1.0) / double(s.size());
}

double detection_margin(std::size_t nights, int remeasured) {
  return few_nights_quantile(nights,
                             std::pow(kDetectionPower, 1.0 / (1 + std::max(remeasured, 0))));
}

double detectable_change(double threshold_log, double spread, std::size_t nights, int remeasured) {
  const double margin = spread > 0 && nights >= 3 ? detection_margin(nights, remeasured) : 0;
  return -std::expm1(-(threshold_log + margin * spread));
}

}  // namespace ridgeline
