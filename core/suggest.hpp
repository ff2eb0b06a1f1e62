#pragma once
// "did you mean": the known name closest to a mistyped one, as git and cargo suggest.
#include <algorithm>
#include <string>
#include <vector>

namespace ridgeline {

inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'run'?)" when a known name is within two edits (or starts with the typed
// text), else "".
inline std::string did_you_mean(const std::string& typed, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& k : known) {
    const std::size_t d = k.rfind(typed, 0) == 0 && !typed.empty() ? 1 : edit_distance(typed, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace ridgeline
