#include "reports/roofline/uniform_index.hpp"

#include <cstdint>

namespace ridgeline {

std::size_t uniform_index(std::mt19937_64& rng, std::size_t n) {
  const auto range = static_cast<std::uint64_t>(n);
  // 2^64 mod n, computed in 64 bits: (2^64 - n) mod n.
  const std::uint64_t threshold = (0 - range) % range;
  std::uint64_t x = rng();
  while (x < threshold) x = rng();
  return static_cast<std::size_t>(x % range);
}

}  // namespace ridgeline
