#include "reports/fit/device_outliers.hpp"

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"

namespace ridgeline {

OutlierCheck find_low_outliers(const std::vector<DeviceValue>& values, double floor, double k) {
  OutlierCheck check;
  check.devices = static_cast<int>(values.size());
  std::vector<double> all;
  for (const auto& d : values)
    if (d.value > 0) all.push_back(d.value);
  if (all.size() != values.size() || values.empty()) {
    check.not_checked = values.empty() ? "no device measured" : "a device has no positive value";
    return check;
  }
  check.median = median(all);
  check.spread = log_sigma(all);
  if (check.devices < kMinOutlierDevices) {
    check.not_checked = "needs " + std::to_string(kMinOutlierDevices) +
                        " or more devices of one model, has " + std::to_string(check.devices);
    return check;
  }
  // The devices' own repetition noise, as a standard deviation in log units (a 95 % interval
  // spans ±1.96 of them); two devices differ by √2 of it.
  std::vector<double> own;
  for (const auto& d : values)
    if (d.ci.low > 0 && d.ci.high > d.ci.low) own.push_back(std::log(d.ci.high / d.ci.low) / 3.92);
  const double repetition_noise = own.empty() ? 0 : std::sqrt(2.0) * median(own);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<double> others;
    for (std::size_t j = 0; j < values.size(); ++j)
      if (j != i) others.push_back(values[j].value);
    const double peers = median(others);
    const double allowed_log =
        std::max({-std::log1p(-floor), k * log_sigma(others), k * repetition_noise});
    const DeviceValue& d = values[i];
    const double gap = std::log(peers / d.value);
    const bool interval_below = d.ci.high <= 0 || d.ci.high < peers;  // no interval: none to ask
    if (gap > allowed_log && interval_below)
      check.outliers.push_back(
          {d.label, d.value, peers, 1 - d.value / peers, 1 - std::exp(-allowed_log)});
  }
  std::sort(check.outliers.begin(), check.outliers.end(),
            [](const LowOutlier& a, const LowOutlier& b) { return a.below > b.below; });
  return check;
}

}  // namespace ridgeline
