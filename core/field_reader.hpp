#pragma once
// Field access into a parsed JSON input that names the exact JSON path in its errors
// (InputError(file, "points[3].samples", "must be a number")). Shared by the readers of the
// results file and of the connector's kernels file.
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>

#include "core/input_error.hpp"

namespace ridgeline {

class FieldReader {
 public:
  FieldReader(const std::string& file, const nlohmann::json& j, std::string path)
      : file_(file), j_(j), path_(std::move(path)) {}

  std::string where(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  bool has(const std::string& key) const { return j_.contains(key) && !j_[key].is_null(); }
  std::string str(const std::string& key, bool required) const {
    if (!has(key)) {
      if (required) throw InputError(file_, where(key), "missing required field");
      return {};
    }
    if (!j_[key].is_string()) throw InputError(file_, where(key), "must be a string");
    const std::string s = j_[key].get<std::string>();
    if (required && s.empty()) throw InputError(file_, where(key), "must not be empty");
    return s;
  }
  // A finite number >= 0 (or > 0 when `positive`); nullopt when absent or null.
  std::optional<double> number(const std::string& key, bool positive) const {
    if (!has(key)) return std::nullopt;
    return check(j_[key], where(key), positive);
  }
  double check(const nlohmann::json& v, const std::string& at, bool positive) const {
    if (!v.is_number()) throw InputError(file_, at, "must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw InputError(file_, at, "is not finite");
    if (positive ? d <= 0 : d < 0)
      throw InputError(file_, at, positive ? "must be positive" : "must not be negative");
    // A subnormal count or time (1e-310) turns every rate computed from it into infinity.
    if (d != 0 && !std::isnormal(d))
      throw InputError(file_, at, "is too close to 0 to compute with (subnormal)");
    return d;
  }
  bool boolean(const std::string& key) const {
    if (!has(key)) throw InputError(file_, where(key), "missing required field");
    if (!j_[key].is_boolean()) throw InputError(file_, where(key), "must be true or false");
    return j_[key].get<bool>();
  }

 private:
  const std::string& file_;
  const nlohmann::json& j_;
  std::string path_;
};

}  // namespace ridgeline
