#include "reports/compare/compare_points.hpp"

#include <cmath>

#include "reports/compare/gate_rule.hpp"

namespace ridgeline {

double median_log_se(const std::vector<double>& samples) {
  if (samples.size() < 3) return 0;
  std::vector<double> logs;
  for (double t : samples) logs.push_back(std::log(t));
  const double med = median_of(logs);
  for (double& l : logs) l = std::fabs(l - med);
  return 1.2533 * 1.4826 * median_of(logs) / std::sqrt(double(samples.size()));
}

}  // namespace ridgeline
