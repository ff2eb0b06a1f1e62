#pragma once
// Field access into a parsed JSON input that names the exact JSON path in its errors
// (InputError(file, "points[3].samples", "must be a number")). The one checked reader of every
// JSON input: the results file, the connector's kernels file, machine sheets, workload files,
// sweep profiles.
// A field that is absent is "missing"; one that is present but null fails its type check (a
// null where a value is required says what the value must be), except where a reader's own
// optional_* accessor takes null as "not stated".
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "core/suggest.hpp"

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
  // Present (null included: the type checks below name what it must be).
  const nlohmann::json& require(const std::string& key) const {
    if (!j_.is_object() || !j_.contains(key))
      throw InputError(file_, where(key), "missing required field");
    return j_[key];
  }
  std::string text(const std::string& key) const {
    const nlohmann::json& v = require(key);
    if (!v.is_string() || v.get<std::string>().empty())
      throw InputError(file_, where(key), "must be a non-empty string");
    return v.get<std::string>();
  }
  // Absent or null: empty; any other type than a string is an error, never an abort.
  std::string optional_text(const std::string& key) const {
    if (!has(key)) return {};
    if (!j_[key].is_string()) throw InputError(file_, where(key), "must be a string or null");
    return j_[key].get<std::string>();
  }
  // A number in (0, max]: finite, and small enough that ratios and products of it stay finite.
  double bounded(const std::string& key, double max) const {
    const nlohmann::json& v = require(key);
    if (!v.is_number() || !(v.get<double>() > 0) || !(v.get<double>() <= max))
      throw InputError(file_, where(key), fmt::format("must be a number in (0, {:g}]", max));
    return v.get<double>();
  }
  long long integer(const std::string& key, long long lo, long long hi) const {
    return integer_in(require(key), where(key), lo, hi);
  }
  // Absent or null: `fallback`; else an integer in [lo, hi].
  long long optional_integer(const std::string& key, long long lo, long long hi,
                             long long fallback = 0) const {
    return has(key) ? integer_in(j_[key], where(key), lo, hi) : fallback;
  }
  bool boolean(const std::string& key) const {
    if (!has(key)) throw InputError(file_, where(key), "missing required field");
    if (!j_[key].is_boolean()) throw InputError(file_, where(key), "must be true or false");
    return j_[key].get<bool>();
  }

  // An object with no key outside `known`: a typo in a setting must not silently drop it.
  void only(const std::set<std::string>& known) const {
    if (!j_.is_object()) throw InputError(file_, path_, "must be an object");
    for (const auto& item : j_.items())
      if (!known.count(item.key()))
        throw InputError(file_, where(item.key()),
                         fmt::format("unknown field (known: {}){}", fmt::join(known, ", "),
                                     did_you_mean(item.key(), {known.begin(), known.end()})));
  }

  // Settings with a default (a sweep profile's): absent is the fallback, but present, null
  // included, a value must be valid.
  bool present(const std::string& key) const { return j_.is_object() && j_.contains(key); }
  std::string text_or(const std::string& key, const std::string& fallback) const {
    if (!present(key)) return fallback;
    if (!j_[key].is_string()) throw InputError(file_, where(key), "must be a string");
    return j_[key].get<std::string>();
  }
  // A number in [low, high] ((low, high] when `low_open`): a range keeps every setting far from
  // overflowing what is computed from it.
  double number_or(const std::string& key, double fallback, double low, double high,
                   bool low_open = false) const {
    if (!present(key)) return fallback;
    const nlohmann::json& v = j_[key];
    const double d = v.is_number() ? v.get<double>() : 0;
    if (!v.is_number() || (low_open ? !(d > low) : !(d >= low)) || !(d <= high))
      throw InputError(
          file_, where(key),
          fmt::format("must be a number in {}{:g}, {:g}]", low_open ? "(" : "[", low, high));
    return d;
  }
  long long integer_or(const std::string& key, long long fallback, long long lo,
                       long long hi) const {
    return present(key) ? integer_in(j_[key], where(key), lo, hi) : fallback;
  }
  // A non-empty array of distinct integers, each in [lo, hi]; absent: empty.
  std::vector<long long> distinct_integers(const std::string& key, long long lo,
                                           long long hi) const {
    if (!present(key)) return {};
    const nlohmann::json& v = j_[key];
    if (!v.is_array() || v.empty())
      throw InputError(file_, where(key), "must be a non-empty array of integers");
    std::vector<long long> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string at = fmt::format("{}[{}]", where(key), i);
      const long long n = integer_in(v[i], at, lo, hi);
      if (std::find(out.begin(), out.end(), n) != out.end())
        throw InputError(file_, at, "is listed twice");
      out.push_back(n);
    }
    return out;
  }
  // An array of distinct names, each one of `allowed` (`what` names them in errors: "dtype");
  // absent: empty. The same name twice would mean the same thing twice.
  std::vector<std::string> distinct_names(const std::string& key,
                                          const std::vector<std::string>& allowed,
                                          const std::string& what) const {
    if (!present(key)) return {};
    const nlohmann::json& v = j_[key];
    if (!v.is_array())
      throw InputError(file_, where(key), "must be an array of " + what + " names");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string at = fmt::format("{}[{}]", where(key), i);
      if (!v[i].is_string()) throw InputError(file_, at, "must be a string");
      const std::string name = v[i].get<std::string>();
      if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
        throw InputError(
            file_, at,
            fmt::format("unknown {} '{}' (known: {})", what, name, fmt::join(allowed, ", ")));
      if (std::find(out.begin(), out.end(), name) != out.end())
        throw InputError(file_, at, "'" + name + "' is listed twice");
      out.push_back(name);
    }
    return out;
  }

 private:
  long long integer_in(const nlohmann::json& v, const std::string& at, long long lo,
                       long long hi) const {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      throw InputError(file_, at, fmt::format("must be an integer in [{}, {}]", lo, hi));
    return v.get<long long>();
  }
  const std::string& file_;
  const nlohmann::json& j_;
  std::string path_;
};

}  // namespace ridgeline
