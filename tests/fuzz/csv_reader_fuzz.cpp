// libFuzzer target: the CSV reader must turn any input into points or an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/input_error.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/csv_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ridgeline::Observations obs;
    for (const auto& p : ridgeline::parse_csv_points(
             std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv"))
      obs.add_point(p.intensity, p.flops_per_s);
    ridgeline::fit_roofline_with_bootstrap(obs, 5);
  } catch (const ridgeline::InputError&) {
  } catch (const ridgeline::FitError&) {
  }
  return 0;
}
