#include "connector/annotations.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "ridgeline/annotation_format.hpp"

namespace ridgeline::kp {

// Parsed in place (string_view, no stream): a kernel of varying size declares before every
// launch, so this runs as often as kernels do.
bool parse_counts(std::string_view value, Counts& out, std::string& why) {
  constexpr const char* kSpace = " \t\n\r\f\v";
  std::string_view rest = value;
  bool have_flop = false, have_bytes = false, have_dtype = false;
  while (true) {
    const auto begin = rest.find_first_not_of(kSpace);
    if (begin == std::string_view::npos) break;
    rest.remove_prefix(begin);
    const std::string_view field = rest.substr(0, rest.find_first_of(kSpace));
    rest.remove_prefix(field.size());
    const auto eq = field.find('=');
    if (eq == std::string_view::npos) {
      why = "'" + std::string(field) + "' is not name=value";
      return false;
    }
    const std::string_view name = field.substr(0, eq), text = field.substr(eq + 1);
    if (name == "dtype") {
      if (text.empty()) {
        why = "dtype is empty";
        return false;
      }
      out.dtype.assign(text.data(), text.size());
      have_dtype = true;
      continue;
    }
    if (name != "flop" && name != "bytes") {
      why = "unknown field '" + std::string(name) + "' (expected flop, bytes, dtype)";
      return false;
    }
    // strtod needs a terminated string; a count longer than any %.17g is not one.
    char buf[64];
    double v = -1;
    if (!text.empty() && text.size() < sizeof buf) {
      text.copy(buf, text.size());
      buf[text.size()] = '\0';
      char* end = nullptr;
      v = std::strtod(buf, &end);
      if (*end != '\0') v = -1;
    }
    if (!std::isfinite(v) || v < 0) {
      why = std::string(name) + " '" + std::string(text) + "' is not a non-negative number";
      return false;
    }
    (name == "flop" ? out.flop : out.bytes) = v;
    (name == "flop" ? have_flop : have_bytes) = true;
  }
  if (!have_flop || !have_bytes || !have_dtype) {
    why = "needs flop=, bytes= and dtype= (got '" + std::string(value) + "')";
    return false;
  }
  return true;
}

bool Annotations::declare(std::string_view key, std::string_view value, std::string& why) {
  const std::string_view prefix = annotation::kKeyPrefix;
  std::lock_guard<std::mutex> lock(mutex_);
  if (key.substr(0, prefix.size()) != prefix) {
    metadata_[std::string(key)] = std::string(value);
    return true;
  }
  const std::string_view label = key.substr(prefix.size());
  Counts c;
  bool ok = false;
  const auto it = counts_.find(label);
  if (label.empty()) {
    why = "the label after '" + std::string(prefix) + "' is empty";
  } else if (parse_counts(value, c, why)) {
    if (it != counts_.end() && it->second.dtype != c.dtype)
      why = "dtype " + c.dtype + " differs from the label's first declaration (" +
            it->second.dtype + "); its counts cannot be summed, so this one is ignored";
    else
      ok = true;
  }
  if (!ok) {
    ++errors_total_;
    if (errors_.size() < kMaxErrors) errors_.push_back({std::string(key), std::string(value), why});
    return false;
  }
  // A label declared before each launch is updated in place: no allocation after its first.
  if (it != counts_.end())
    it->second = c;
  else
    counts_.emplace(std::string(label), c);
  any_counts_.store(true, std::memory_order_relaxed);
  return true;
}

bool Annotations::current(std::string_view label, Counts& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = counts_.find(label);
  if (it == counts_.end()) return false;
  out = it->second;
  return true;
}

std::vector<AnnotationError> Annotations::errors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return errors_;
}

long long Annotations::errors_total() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return errors_total_;
}

std::map<std::string, Counts> Annotations::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {counts_.begin(), counts_.end()};
}

std::map<std::string, std::string> Annotations::metadata() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return metadata_;
}

}  // namespace ridgeline::kp
