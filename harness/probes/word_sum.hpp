#pragma once
// The host read sweeps as word sums (issue 44): the stream probes' read (`read`, `cache_read`) and
// the SRAM probe's read sweeps, on host spaces, read the buffer's bytes as 32-bit unsigned words
// and combine them with packed integer ops (XORs and adds), not with adds of the element type. Why
// not fp adds: a read of L1 issues one add per loaded vector, and Zen 3 and Zen 5 issue packed fp
// adds (vaddpd, vaddps) on two FADD pipes, as many as their load ports, so fp adds cap the loop at
// exactly L1's rate (1.00 of it; scripts/check-hot-loops --ceiling asks 1.5). Packed integer ops
// issue on all four vector pipes (the sheets' vec_int, 4 per clock).
//
// Why a 3-input XOR, two loaded vectors per update (`acc ^= a ^ b`), not one integer add per
// vector: on the Intel Xeon these runs are measured on (family 6 model 207, AVX-512), an L1 read
// of 16 KiB with 8 zmm accumulators ran 464 GB/s with vaddpd, 390 with vpaddd and 461-467 with
// one vpternlogd per two vectors; the word sum with vpaddd cost cache_read 0.82-0.84 x main's fp
// adds there. `acc ^= a ^ b` is one vpternlogd for AVX-512 (one op per two vectors: 3.37 x L1 on
// the Zen 5 sheet, bound by issue) and two vpxor for AVX2 (one per vector: 1.78 x on the Zen 3
// sheet, issue). In the harness on that Xeon, xor3_read runs cache_read at 0.98-1.02 x the fp
// adds and sram_read at 1.04-1.06 x (backends/README.md).
//
// What it computes: per pass, W lanes (8 vector registers), lane k the XOR of the words at offsets
// k mod W of the item's run, then the lanes' sum mod 2^32; an item's total adds its passes' sums.
// XOR within a pass only: a word XORed an even number of times cancels, so XOR across passes
// would leave 0 for an even pass count, and XOR of the lanes into one word left 0 for a 16 KiB
// fp64 run (its 2048 elements hold the 7 inputs 292 or 293 times, and 0 ^ 1 ^ 2 ^ 3 cancels the
// odd ones' mantissa bits). The result is exact and independent of the order of the passes and
// of the XORs within a lane, so the checks compare it bit for bit with the host's (no rounding
// bound), and no FLOP is done: the points count 0 FLOPs on hosts. The point's dtype still names
// the buffer's element type. GPUs keep fp adds (stream_probe_impl.hpp, run_device_op, says why).
//
// The XOR needs inputs that vary along a lane: the stream inputs repeat with period 7 and
// sram_read's with period 7 (sram_probe.hpp, sram_read_input), prime to every power-of-two lane
// stride. sram_update's one closing sweep adds its words (vpaddd): its inputs have period 16.
#include <Kokkos_Core.hpp>

#include "harness/probes/vector_isa.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ridgeline {

// The words' sum type, and the word a read kernel loads: may_alias, so loading an fp element's
// bytes through it is not subject to type-based alias analysis (GCC and Clang).
using SumWord = std::uint32_t;
typedef std::uint32_t AliasWord __attribute__((__may_alias__));

// Element types a host read sums as words: fp64 and fp32, the stream and SRAM probes' types.
// Others (the counting scalar of tests/harness/probe_counts_test.cpp) sum in their own type.
template <class T>
inline constexpr bool kSumsWords = std::is_floating_point_v<T> && sizeof(T) % sizeof(SumWord) == 0;

template <class T>
inline constexpr std::size_t kWordsPerElement = sizeof(T) / sizeof(SumWord);

// The start of a read pass over words: the pointer comes back from an empty asm statement, so the
// compiler cannot know that this pass reads what the last one did and must load every pass's
// words again. Integer adds and XORs may be reordered at will: without it a pass summed once and
// multiplied, or the passes' loop swapped inward, would be legal (fp adds forbid both). No memory
// clobber: with `asm volatile("" ::: "memory")` after each pass instead, GCC 12 kept the partial
// sums in memory (the stream read stored and reloaded them every pass; SramProbe<Serial>'s inlined
// team body loaded and stored one per vector, sram_read at 0.56-0.59 x main's fp sum on an Intel
// Xeon). Host code only: a device compile of a host space's kernel (dead there) keeps the pointer
// as is.
KOKKOS_FORCEINLINE_FUNCTION const AliasWord* words_pass_start(const AliasWord* p) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  asm volatile("" : "+r"(p));
#endif
  return p;
}

// One read pass over an item's n words (a whole number of W): W lanes, lane k the XOR of the
// words at offsets k mod W, two loaded vectors per update (the last W words alone where n / W is
// odd); then the lanes' sum mod 2^32. The portable form: what a device compile of a host space's
// kernel (dead there) and xor3_read's checks see.
template <std::size_t W>
KOKKOS_FORCEINLINE_FUNCTION SumWord xor3_pass(const AliasWord* KOKKOS_RESTRICT v, std::size_t n) {
  SumWord acc[W] = {};
  const std::size_t pairs = n - n % (2 * W);
  for (std::size_t j = 0; j < pairs; j += 2 * W)
    for (std::size_t k = 0; k < W; ++k) acc[k] ^= v[j + k] ^ v[j + W + k];
  if (pairs < n)
    for (std::size_t k = 0; k < W; ++k) acc[k] ^= v[pairs + k];
  SumWord x = 0;
  for (std::size_t k = 0; k < W; ++k) x += acc[k];
  return x;
}

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
// One host vector register of words (GCC's and Clang's vector extension).
typedef SumWord HostWordVector __attribute__((vector_size(kHostIsa.vector_bytes)));
#endif

// `passes` read passes over an item's n words: the sum of their xor3_pass values, bit for bit.
// On hosts the lanes are V vector registers (GCC's vector extension, V = kHostIsa's accumulator
// registers) and each pass ends with V - 1 packed adds of its registers into one and one add into
// a register of sums that lives across passes; the W lanes are added into one word once, after
// the last pass. Why not xor3_pass per pass: GCC 12 kept its W-word array on the stack (zeroed by
// `rep stos` and stored and reloaded every pass), which cost about 40 clocks a pass: 0.68 x the fp
// adds' rate on an 8 KiB set on the Xeon of backends/README.md, whose passes are 64 clocks of
// loads.
template <std::size_t W>
KOKKOS_FORCEINLINE_FUNCTION SumWord xor3_read(const AliasWord* w, std::size_t n, int passes) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  using Vec = HostWordVector;
  constexpr std::size_t L = sizeof(Vec) / sizeof(SumWord);
  static_assert(W == 8 * L, "8 registers of lanes (kHostIsa.accumulator_vectors)");
  const auto at = [](const AliasWord* p) {
    Vec x;
    __builtin_memcpy(&x, p, sizeof x);  // an unaligned load, folded into the XOR's operand
    return x;
  };
  Vec sums = {};
  const std::size_t pairs = n - n % (2 * W);
  for (int p = 0; p < passes; ++p) {
    const AliasWord* KOKKOS_RESTRICT v = words_pass_start(w);
    // Eight named registers: an array of them, even unrolled, stayed an array on the stack.
    Vec a0 = {}, a1 = {}, a2 = {}, a3 = {}, a4 = {}, a5 = {}, a6 = {}, a7 = {};
    for (std::size_t j = 0; j < pairs; j += 2 * W) {
      const AliasWord* x = v + j;
      const AliasWord* y = v + j + W;
      a0 ^= at(x) ^ at(y);
      a1 ^= at(x + L) ^ at(y + L);
      a2 ^= at(x + 2 * L) ^ at(y + 2 * L);
      a3 ^= at(x + 3 * L) ^ at(y + 3 * L);
      a4 ^= at(x + 4 * L) ^ at(y + 4 * L);
      a5 ^= at(x + 5 * L) ^ at(y + 5 * L);
      a6 ^= at(x + 6 * L) ^ at(y + 6 * L);
      a7 ^= at(x + 7 * L) ^ at(y + 7 * L);
    }
    if (pairs < n) {
      const AliasWord* x = v + pairs;
      a0 ^= at(x), a1 ^= at(x + L), a2 ^= at(x + 2 * L), a3 ^= at(x + 3 * L);
      a4 ^= at(x + 4 * L), a5 ^= at(x + 5 * L), a6 ^= at(x + 6 * L), a7 ^= at(x + 7 * L);
    }
    sums += ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  }
  SumWord total = 0;
  for (std::size_t k = 0; k < L; ++k) total += sums[k];
  return total;
#else
  SumWord total = 0;
  for (int p = 0; p < passes; ++p) total += xor3_pass<W>(words_pass_start(w), n);
  return total;
#endif
}

// The checks' side, on the host: word h of an element's bytes, and the sum of its words mod 2^32.
template <class T>
inline SumWord element_word(T v, std::size_t h) {
  static_assert(kSumsWords<T>, "an element of whole 32-bit words");
  SumWord w[kWordsPerElement<T>];
  std::memcpy(w, &v, sizeof v);
  return w[h];
}

template <class T>
inline SumWord element_word_sum(T v) {
  SumWord s = 0;
  for (std::size_t h = 0; h < kWordsPerElement<T>; ++h) s += element_word(v, h);
  return s;
}

}  // namespace ridgeline
