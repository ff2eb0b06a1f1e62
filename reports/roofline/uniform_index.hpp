#pragma once
// An index drawn uniformly from [0, n) with an own rule, so that a bootstrap from a recorded seed
// redraws the same replicates on every standard library: std::mt19937_64's output is fixed by the
// standard, but std::uniform_int_distribution's mapping of it is not (libstdc++ and libc++ differ).
#include <cstddef>
#include <random>

namespace ridgeline {

// Rejection on the engine's 64-bit output: values below 2^64 mod n are redrawn, the rest are
// taken mod n, so every index is equally likely. n must be at least 1.
std::size_t uniform_index(std::mt19937_64& rng, std::size_t n);

}  // namespace ridgeline
