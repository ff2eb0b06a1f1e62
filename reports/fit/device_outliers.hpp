#pragma once
// Which device of a job is off: one device's P or B against the median of the devices of the
// same model, with the tolerance the devices' own spread and intervals allow.
#include <string>
#include <vector>

#include "reports/roofline/roofline_fit.hpp"

namespace ridgeline {

struct DeviceValue {
  std::string label;  // "rank 5 · a12 · GPU 0000:9b:00.0"
  double value = 0;
  Interval ci;  // the device's own interval for `value`
};

struct LowOutlier {
  std::string label;
  double value = 0;
  double peers = 0;    // the median of the other devices
  double below = 0;    // fraction below it (0.11: 11 % below)
  double allowed = 0;  // the fraction the other devices' spread allowed
};

struct OutlierCheck {
  int devices = 0;
  double median = 0;
  double spread = 0;  // robust spread across all devices, in log units (1.4826 · MAD of logs)
  std::vector<LowOutlier> outliers;
  std::string not_checked;  // why no device can be named (fewer than kMinOutlierDevices)
};

inline constexpr int kMinOutlierDevices = 3;  // with two, neither is "the odd one"

// Each device against the others (leave one out, so a slow device cannot widen its own
// tolerance): named when, on a log scale, it lies below the others' median by more than
// max(`floor`, k × their robust spread, k × the difference two devices' repetition noise makes
// (the median interval width)), and its own interval lies wholly below that median too. A device
// is not called slow for noise its peers or its repetitions show anyway: with 3 or 4 devices the
// peers' spread rests on two values and alone would be too sure.
OutlierCheck find_low_outliers(const std::vector<DeviceValue>& values, double floor = 0.05,
                               double k = 3);

}  // namespace ridgeline
