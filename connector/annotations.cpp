#include "connector/annotations.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "ridgeline/annotation_format.hpp"

namespace ridgeline::kp {

bool parse_counts(const std::string& value, Counts& out, std::string& why) {
  std::istringstream in(value);
  std::string field;
  bool have_flop = false, have_bytes = false, have_dtype = false;
  while (in >> field) {
    const auto eq = field.find('=');
    if (eq == std::string::npos) {
      why = "'" + field + "' is not name=value";
      return false;
    }
    const std::string name = field.substr(0, eq), text = field.substr(eq + 1);
    if (name == "dtype") {
      if (text.empty()) {
        why = "dtype is empty";
        return false;
      }
      out.dtype = text;
      have_dtype = true;
      continue;
    }
    if (name != "flop" && name != "bytes") {
      why = "unknown field '" + name + "' (expected flop, bytes, dtype)";
      return false;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0) {
      why = name + " '" + text + "' is not a non-negative number";
      return false;
    }
    (name == "flop" ? out.flop : out.bytes) = v;
    (name == "flop" ? have_flop : have_bytes) = true;
  }
  if (!have_flop || !have_bytes || !have_dtype) {
    why = "needs flop=, bytes= and dtype= (got '" + value + "')";
    return false;
  }
  return true;
}

bool Annotations::declare(const std::string& key, const std::string& value, std::string& why) {
  const std::string prefix = annotation::kKeyPrefix;
  std::lock_guard<std::mutex> lock(mutex_);
  if (key.compare(0, prefix.size(), prefix) != 0) {
    metadata_[key] = value;
    return true;
  }
  const std::string label = key.substr(prefix.size());
  Counts c;
  bool ok = false;
  if (label.empty()) {
    why = "the label after '" + prefix + "' is empty";
  } else if (parse_counts(value, c, why)) {
    const auto it = counts_.find(label);
    if (it != counts_.end() && it->second.dtype != c.dtype)
      why = "dtype " + c.dtype + " differs from the label's first declaration (" +
            it->second.dtype + "); its counts cannot be summed, so this one is ignored";
    else
      ok = true;
  }
  if (!ok) {
    ++errors_total_;
    if (errors_.size() < kMaxErrors) errors_.push_back({key, value, why});
    return false;
  }
  counts_[label] = c;
  any_counts_.store(true, std::memory_order_relaxed);
  return true;
}

bool Annotations::current(const std::string& label, Counts& out) const {
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
  return counts_;
}

std::map<std::string, std::string> Annotations::metadata() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return metadata_;
}

}  // namespace ridgeline::kp
