#pragma once
// The host read sweeps as integer sums (issue 44): the stream probes' read (`read`, `cache_read`)
// and the SRAM probe's read sweeps, on host spaces, sum the buffer's bytes as 32-bit unsigned
// words with integer adds, which wrap modulo 2^32. Why not adds of the element type: a read of L1
// issues one add per loaded vector, and Zen 3 and Zen 5 issue packed fp adds (vaddpd, vaddps) on
// two FADD pipes, as many as their load ports, so fp adds cap the loop at exactly L1's rate (1.00
// of it; scripts/check-hot-loops --ceiling asks 1.5). Packed integer adds (vpaddd) issue on all
// four vector pipes: 2.0. The sum is exact and independent of the order of the adds, so the checks
// compare it bit for bit with the host's (no rounding bound), and no FLOP is done: the points
// count 0 FLOPs on hosts. The point's dtype still names the buffer's element type. GPUs keep fp
// adds (stream_probe_impl.hpp, run_device_op, says why).
#include <Kokkos_Core.hpp>

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
// words again. Integer adds may be reordered at will: without it a pass summed once and multiplied,
// or the passes' loop swapped inward, would be legal (fp adds forbid both). No memory clobber: with
// `asm volatile("" ::: "memory")` after each pass instead, GCC 12 kept the partial sums in memory
// (the stream read stored and reloaded them every pass; SramProbe<Serial>'s inlined team body
// loaded and stored one per vector, sram_read at 0.56-0.59 x main's fp sum on an Intel Xeon).
// Host code only: a device compile of a host space's kernel (dead there) keeps the pointer as is.
KOKKOS_FORCEINLINE_FUNCTION const AliasWord* words_pass_start(const AliasWord* p) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  asm volatile("" : "+r"(p));
#endif
  return p;
}

// The sum of one element's words mod 2^32, on the host: the checks' side.
template <class T>
inline SumWord element_word_sum(T v) {
  static_assert(kSumsWords<T>, "an element of whole 32-bit words");
  SumWord w[kWordsPerElement<T>];
  std::memcpy(w, &v, sizeof v);
  SumWord s = 0;
  for (const SumWord x : w) s += x;
  return s;
}

}  // namespace ridgeline
