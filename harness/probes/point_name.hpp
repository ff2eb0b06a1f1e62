#pragma once
// Point names are stable ids (probe/space/dtype/grade) so baselines keep matching across runs;
// run-length settings (repetitions, min time) stay out of them.
#include <cstdint>
#include <string>

namespace ridgeline {

inline std::string point_name(const std::string& probe, const std::string& space,
                              const std::string& dtype, const std::string& grade) {
  return probe + "/" + space + "/" + dtype + "/" + grade;
}

inline std::string grade(const char* key, std::uint64_t value) {
  return std::string(key) + ":" + std::to_string(value);
}

}  // namespace ridgeline
