#pragma once
// The counts an application declared per kernel label (include/ridgeline/annotation_format.hpp),
// parsed from the Kokkos Tools metadata the connector receives.
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ridgeline::kp {

struct Counts {
  double flop = 0, bytes = 0;  // per call
  std::string dtype;
};

// Parses "flop=<n> bytes=<n> dtype=<name>". Returns false with `why` set when the value is not
// of that form or a count is negative or not finite.
bool parse_counts(const std::string& value, Counts& out, std::string& why);

class Annotations {
 public:
  // Metadata that is not a ridgeline annotation is kept as provenance (Kokkos declares its
  // version and configuration this way). A malformed annotation, or one that contradicts an
  // earlier one for the same label, returns false with `why` set.
  bool declare(const std::string& key, const std::string& value, std::string& why);

  std::map<std::string, Counts> counts() const;
  std::map<std::string, std::string> metadata() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Counts> counts_;  // by kernel label
  std::map<std::string, std::string> metadata_;
};

}  // namespace ridgeline::kp
