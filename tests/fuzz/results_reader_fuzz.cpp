// libFuzzer target: the results JSON reader must turn any input into a Results or an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fit/analysis.hpp"
#include "results/input_error.hpp"
#include "results/results_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto r = ridgeline::parse_results(std::string(reinterpret_cast<const char*>(data), size),
                                      "fuzz.json");
    // Exercise what follows reading too (fit, levels) with few replicates to stay fast.
    ridgeline::analyze(std::move(r), 5);
  } catch (const ridgeline::InputError&) {
  }
  return 0;
}
