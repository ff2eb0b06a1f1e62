#include "harness/sweep/host_clock_samples.hpp"

#include <cmath>

#include "core/stats.hpp"

namespace ridgeline {

nlohmann::json summarize_host_clock(const std::vector<double>& readings) {
  std::vector<double> good;
  nlohmann::json mhz = nlohmann::json::array();
  for (double r : readings) {
    // Rounded to 0.1 MHz: the file stays readable; the readings scatter by far more.
    const bool ok = std::isfinite(r) && r > 0;
    mhz.push_back(ok ? nlohmann::json(std::round(r * 10) / 10) : nlohmann::json(nullptr));
    if (ok) good.push_back(r);
  }
  if (good.empty()) return nullptr;
  return {{"readings_mhz", mhz}, {"median_mhz", std::round(median(good) * 10) / 10}};
}

}  // namespace ridgeline
