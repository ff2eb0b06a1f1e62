#pragma once
// The counts an application declared per kernel label (include/ridgeline/annotation_format.hpp),
// parsed from the Kokkos Tools metadata the connector receives. A declaration holds for the
// label's launches from then on: a label whose launches differ in size declares before each one.
#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::kp {

struct Counts {
  double flop = 0, bytes = 0;  // per call
  std::string dtype;
};

// Parses "flop=<n> bytes=<n> dtype=<name>". Returns false with `why` set when the value is not
// of that form or a count is negative or not finite.
bool parse_counts(std::string_view value, Counts& out, std::string& why);

// A declaration the connector could not use, and why: recorded in the kernels file, never an
// exit (the application's run is worth more than one bad annotation).
struct AnnotationError {
  std::string key, value, why;
};

class Annotations {
 public:
  // Metadata that is not a ridgeline annotation is kept as provenance (Kokkos declares its
  // version and configuration this way). A malformed annotation, or one that changes the dtype
  // of a label declared before, is recorded (the first kMaxErrors of them, then counted) and
  // returns false with `why` set; the label keeps its earlier counts.
  bool declare(std::string_view key, std::string_view value, std::string& why);

  // The counts the label's launch starting now carries; false when none were declared.
  // Looked up by the launch's own label text: no string is built per launch.
  bool current(std::string_view label, Counts& out) const;
  bool any_counts() const { return any_counts_.load(std::memory_order_relaxed); }

  std::map<std::string, Counts> counts() const;  // the latest declaration per label
  std::map<std::string, std::string> metadata() const;
  std::vector<AnnotationError> errors() const;
  long long errors_total() const;  // recorded and not

  static constexpr std::size_t kMaxErrors = 100;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Counts, std::less<>> counts_;  // by kernel label
  std::map<std::string, std::string> metadata_;
  std::vector<AnnotationError> errors_;
  long long errors_total_ = 0;
  std::atomic<bool> any_counts_{false};  // read on every launch without the lock
};

}  // namespace ridgeline::kp
