#pragma once
// The SRAM family: on-chip scratch memory (Kokkos' team scratch, level 0: shared memory on CUDA,
// LDS on HIP, a per-thread pool buffer on hosts, where it stays in L1). One kernel per call: each
// team fills its scratch from global memory, sweeps it `passes` times, and each thread stores one
// value. Counted bytes are the bytes moved to and from scratch (the fill's writes included);
// the fill's global reads and the final stores are recorded in params.global_bytes and left out
// of the rate, though their time is inside it (a fraction 1/passes of the scratch traffic).
//
//   sram_read:   the fill, then `passes` read sweeps (a sum per thread): (1 + passes)·S bytes
//   sram_update: the fill, `passes` in-place sweeps x <- x·α + β (fma_recurrence.hpp), then one
//                read sweep for the thread's sum: (1 + 2·passes + 1)·S bytes
//
// Accesses are 16-byte words (a struct aligned to 16: one 128-bit load or store per word on GPUs).
// Thread t of a team owns words t, t + team_size, t + 2·team_size, …: consecutive threads touch
// consecutive words, so a warp's 32 × 16 bytes cover each of the 32 four-byte banks once per
// quarter-warp (no bank conflicts on CUDA), and no thread reads another's words (no barrier). On
// hosts a team is one thread and its words are contiguous, so the sweeps vectorise like the
// stream probes' (kIsa accumulators in flight), and the read sweeps combine the scratch's 32-bit
// words as the stream read does (word_sum.hpp, xor3_read: one 3-input XOR per two loaded vectors;
// fp adds would cap an L1 read on Zen's two FADD pipes, and integer adds cost 5-8 % on the Intel
// Xeon; no FLOPs counted on hosts but sram_update's FMAs). The XOR needs inputs that vary along a
// lane: fma_input's 16 values repeat with a period that divides a lane's stride of elements (64
// fp64, 128 fp32), so every lane would see one value an even number of times and XOR to 0
// whatever was read. sram_read's scratch therefore holds sram_read_input's 7 values in turn (7 is
// prime to every power-of-two stride); sram_update keeps fma_input's 16 (its replay needs them)
// and its one final read sweep keeps integer adds.
//
// CUDA/HIP: written for them with the API Kokkos 3.4 and 4.x share (TeamPolicy, PerTeam scratch,
// ScratchMemorySpace::get_shmem_aligned, scratch_size_max); compiled for sm_89/sm_90 (Kokkos
// 4.6.99) and gfx908/gfx90a/gfx942 (Kokkos 3.4.01; gfx942 with clang 19), and code-checked there
// (scripts/check-gpu-codegen: every scratch access in a loop 16 bytes wide), not run. Kokkos' CUDA
// level-0 limit is the 48 KiB a block gets without opting in, less its own reserve (about 40 KiB;
// HIP's LDS 64 KiB less the same): the planner refuses larger sizes on device spaces with that
// reason (a skipped point), rather than clipping them all to one point. On hosts a size beyond
// one thread's share of L1d still clips to it (the scratch must stay in L1).
//
// Teams on GPUs: the planner's (harness/sweep/plan_sizes.hpp, sram_launch): as many blocks per SM
// (CU) as its shared memory holds, for two waves, from the device's own shared memory per SM,
// threads and blocks per SM; recorded in params.launch. Without those facts, two waves of the
// space's concurrency in 128-thread teams.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/device_clock.hpp"
#include "harness/probes/dtype.hpp"
#include "harness/probes/fma_recurrence.hpp"
#include "harness/probes/layout.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"
#include "harness/probes/word_sum.hpp"

namespace ridgeline {

enum class SramOp { kRead, kUpdate };

inline constexpr std::size_t kSramWordBytes = 16;
// The buffer starts on a cache line: Kokkos promises a scratch View only its element's alignment
// (16 bytes here), and on hosts a 64-byte vector load from a buffer off a line boundary splits
// over two lines.
inline constexpr std::size_t kSramAlignBytes = 64;

template <class T>
struct alignas(kSramWordBytes) SramWord {
  static constexpr std::size_t kLanes = kSramWordBytes / sizeof(T);
  T v[kLanes];
};

// Launch shape per backend, fixed at compile time so the host loops see contiguous words.
template <class Space, class T>
struct SramShape {
  using Word = SramWord<T>;
  static constexpr std::size_t kLanes = Word::kLanes;
  // GPUs: the harness' 128-thread block (layout.hpp); hosts: one thread per team.
  static constexpr std::size_t kTeamSize = kIsDeviceSpace<Space> ? 128 : 1;
  // Words loaded before they are summed: 2 per GPU thread (warps hide the rest of the latency),
  // the ISA's accumulator registers on hosts.
  static constexpr std::size_t kWordsInFlight =
      kIsDeviceSpace<Space>
          ? 2
          : std::max<std::size_t>(1, LaunchShape<Space>::template lanes<T>() / kLanes);
  static constexpr std::size_t kAccumulators = kWordsInFlight * kLanes;
  static_assert((kAccumulators & (kAccumulators - 1)) == 0, "pairwise sum needs a power of two");
  // Hosts combine the scratch's 32-bit words with integer ops (word_sum.hpp): the same
  // registers hold kSumWords words. GPUs add elements in T (stream_probe_impl.hpp, reduce_vectors,
  // says why). Sum: what a thread's sum and its stored value are.
  static constexpr bool kWords = !kIsDeviceSpace<Space> && kSumsWords<T>;
  using Sum = std::conditional_t<kWords, SumWord, T>;
  static constexpr std::size_t kSumWords = kAccumulators * (kWords ? kWordsPerElement<T> : 1);
  // A team's words are a whole number of groups per thread.
  static constexpr std::size_t kGranuleWords = kTeamSize * kWordsInFlight;
  // Teams: four per host thread (a thread that starts late does not stretch the call); on GPUs
  // where the planner could not size the launch by shared memory (sram_launch), two waves of
  // 128-thread teams.
  static std::size_t teams(int concurrency) {
    const std::size_t c = static_cast<std::size_t>(std::max(concurrency, 1));
    return kIsDeviceSpace<Space> ? std::max<std::size_t>(1, 2 * c / kTeamSize) : 4 * c;
  }
  // Distinct regions of the global source the fills read (team g reads region g mod this): a
  // GPU's thousands of teams fill from L2, not HBM, and a wrong team index still shows.
  static constexpr std::size_t kSourceRegions = 64;
};

// The end of an in-place sweep: every word is stored before the next sweep loads it. Without it
// GCC 12 fuses two sweeps (load once, two FMAs, store once: legal, the words are private to the
// thread) and the scratch moves half the bytes counted. Read sweeps need none: fusing them would
// reorder each accumulator's additions, which the compiler may not do.
KOKKOS_FORCEINLINE_FUNCTION void sram_pass_boundary() { asm volatile("" ::: "memory"); }

// Pairwise sum of the accumulators (N - 1 adds); the host check bounds its rounding.
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION T sram_sum(T (&v)[N]) {
  for (std::size_t width = N / 2; width > 0; width /= 2)
    for (std::size_t c = 0; c < width; ++c) v[c] += v[c + width];
  return v[0];
}

// What sram_read's scratch holds: fma_input's first 7 values in turn (see the top of this file).
template <class T>
KOKKOS_INLINE_FUNCTION T sram_read_input(std::size_t i) {
  return fma_input<T>(i % 7);
}

template <class Space, class T>
class SramProbe final : public Probe {
 public:
  using Shape = SramShape<Space, T>;
  using Word = typename Shape::Word;
  using Team = Kokkos::TeamPolicy<Space>;
  using WordView = Kokkos::View<Word*, typename Space::memory_space>;
  using Sum = typename Shape::Sum;
  using OutView = Kokkos::View<Sum*, typename Space::memory_space>;

  // The most scratch bytes per team the space allows (Kokkos' level-0 limit, less the padding
  // that aligns the buffer).
  static std::uint64_t scratch_limit() {
    const long long max = Team::scratch_size_max(0) - static_cast<long long>(kSramAlignBytes);
    return max > 0 ? static_cast<std::uint64_t>(max) : 0;
  }

  // `scratch_bytes`: per team, rounded down to whole groups of words per thread (0 words: the
  // planner skips the point). `requested_bytes`: what the profile asked for, recorded. `teams`:
  // the planner's launch (0: Shape::teams), `launch` how it was sized, recorded.
  SramProbe(SramOp op, std::uint64_t scratch_bytes, int passes, std::uint64_t requested_bytes = 0,
            std::size_t teams = 0, const nlohmann::json& launch = nullptr)
      : op_(op), passes_(passes) {
    words_ = scratch_bytes / sizeof(Word) / Shape::kGranuleWords * Shape::kGranuleWords;
    teams_ = teams ? teams : Shape::teams(compat::concurrency(Space()));
    const double s = sizeof(T);
    const double elements = double(teams_) * double(words_) * double(Shape::kLanes);
    const double threads = double(teams_) * double(Shape::kTeamSize);
    const bool read = op == SramOp::kRead;
    info_.probe = read ? "sram_read" : "sram_update";
    info_.family = "sram";
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = static_cast<std::uint64_t>(elements);
    info_.working_set_bytes = words_ * sizeof(Word);  // one team's scratch: what the grade names
    const double sweeps = read ? 1.0 + passes : 2.0 + 2.0 * passes;  // fill + passes (+ final)
    info_.bytes = sweeps * elements * s;
    // Hosts: the read sweeps combine words with integer ops, no FLOPs; sram_update's FMAs remain.
    info_.flops = Shape::kWords ? (read ? 0.0 : 2.0 * passes * elements)
                                : (read ? double(passes) : 2.0 * passes + 1.0) * elements +
                                      threads * double(Shape::kAccumulators - 1);
    info_.params = {{"passes", passes},
                    {"scratch_bytes", info_.working_set_bytes},
                    {"requested_bytes", requested_bytes ? requested_bytes : scratch_bytes},
                    {"scratch_limit_bytes", scratch_limit()},
                    {"teams", teams_},
                    {"team_size", Shape::kTeamSize},
                    {"words_per_thread", words_ / Shape::kTeamSize},
                    {"word_bytes", sizeof(Word)},
                    {"accumulators", Shape::kSumWords},
                    {"sum", !Shape::kWords ? dtype_name<T>()
                            : read         ? "u32_words_xor3"
                                           : "u32_words"},
                    {"source_regions", std::min(teams_, Shape::kSourceRegions)},
                    {"global_bytes", elements * s + threads * double(sizeof(Sum))},
                    {"bytes_counted",
                     "scratch reads and writes, the fill's writes included; the fill's global "
                     "reads and the one store per thread are global_bytes, timed but not counted"}};
    if (!launch.is_null()) info_.params["launch"] = launch;  // device spaces: how teams were sized
    info_.params.update(LaunchShape<Space>::isa_json());
    info_.name = point_name(info_.probe, info_.space, info_.dtype,
                            grade("scratch", info_.working_set_bytes));
  }

  const PointInfo& info() const override { return info_; }

  void setup() override {
    const std::size_t regions = std::min(teams_, Shape::kSourceRegions);
    source_ = WordView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::sram_source"),
                       regions * words_);
    out_ = OutView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::sram_out"),
                   teams_ * Shape::kTeamSize);
    const WordView src = source_;
    const bool read = op_ == SramOp::kRead;
    Kokkos::parallel_for(
        "ridgeline::sram_init", Kokkos::RangePolicy<Space>(0, src.extent(0)),
        KOKKOS_LAMBDA(const std::size_t w) {
          for (std::size_t l = 0; l < Word::kLanes; ++l) {
            const std::size_t e = w * Word::kLanes + l;
            src(w).v[l] = read ? sram_read_input<T>(e) : fma_input<T>(e);
          }
        });
    fence();
    // Built once: the timed call launches the kernel and nothing else.
    policy_ = Team(static_cast<int>(teams_), static_cast<int>(Shape::kTeamSize));
    policy_.set_scratch_size(0, Kokkos::PerTeam(words_ * sizeof(Word) + kSramAlignBytes));
  }

  void release() override {
    source_ = WordView();
    out_ = OutView();
  }

  void run() override {
    if (op_ == SramOp::kRead)
      run_op<SramOp::kRead>();
    else
      run_op<SramOp::kUpdate>();
  }

  void fence() override { compat::fence(Space(), "ridgeline::sram"); }

  Verification verify() override;

  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(out_, std::make_pair(0, 1)), static_cast<Sum>(-7));
  }

  // Public: nvcc refuses an extended lambda inside a private or protected member function.
  template <SramOp Op>
  void run_op();

 private:
  // Global element index of lane l of word w in team g's fill (the source region it reads).
  std::size_t source_element(std::size_t team, std::size_t w, std::size_t l) const {
    const std::size_t regions = std::min(teams_, Shape::kSourceRegions);
    return ((team % regions) * words_ + w) * Word::kLanes + l;
  }

  SramOp op_;
  int passes_;
  std::size_t words_ = 0;  // per team
  std::size_t teams_ = 0;
  PointInfo info_;
  WordView source_;
  OutView out_;
  Team policy_;  // set by setup()
};

template <class Space, class T>
template <SramOp Op>
void SramProbe<Space, T>::run_op() {
  // Shape's and Word's static members in the kernel, not local copies: nvcc refuses a lambda's
  // first capture of a variable inside an `if constexpr`.
  constexpr std::size_t TS = Shape::kTeamSize;
  const std::size_t words = words_, per_thread = words_ / TS;
  const std::size_t regions = std::min(teams_, Shape::kSourceRegions);
  const int passes = passes_;
  const T alpha = runtime_value(kFmaAlpha<T>), beta = runtime_value(kFmaBeta<T>);
  const Word* const source = source_.data();
  Sum* const out = out_.data();
  Kokkos::parallel_for(
      Op == SramOp::kRead ? "ridgeline::sram_read" : "ridgeline::sram_update", policy_,
      KOKKOS_LAMBDA(const typename Team::member_type& team) {
        Word* KOKKOS_RESTRICT buf = static_cast<Word*>(
            team.team_scratch(0).get_shmem_aligned(words * sizeof(Word), kSramAlignBytes));
        const std::size_t t = team.team_rank();
        const std::size_t g = team.league_rank();
        const Word* KOKKOS_RESTRICT src = source + (g % regions) * words;
        // The fill: each thread copies its own words (coalesced on GPUs).
        for (std::size_t k = 0; k < per_thread; ++k) buf[k * TS + t] = src[k * TS + t];
        // Captured outside the `if constexpr`: nvcc refuses a lambda's first capture inside one.
        [[maybe_unused]] const T a = alpha, b = beta;
        const int n_passes = passes;
        if constexpr (Op == SramOp::kUpdate) {
          for (int p = 0; p < n_passes; ++p) {
            if constexpr (kIsDeviceSpace<Space>) {
              // One word per iteration: vectorised across iterations, clang 19 (gfx942) paired
              // fp32 lanes of two words into v_pk_fma_f32 and stored the results with eight
              // ds_write_b32, clang 15 (gfx90a) one of them as ds_write2_b64. The resident
              // warps, not unrolling, are to keep the LDS busy (compiled, not run on a GPU).
              RIDGELINE_DEVICE_UNROLL(1)
              RIDGELINE_HIP_NO_VECTORIZE
              for (std::size_t k = 0; k < per_thread; ++k) {
                // The whole word in, the whole word out. Updated through a reference, lane by
                // lane, nvcc and clang load and store each lane on its own (LDS.64 / LDS.32,
                // ds_read2_b64 / ds_read2_b32 at the words' 16-byte stride: bank conflicts),
                // not one 16-byte access per word.
                Word x = buf[k * TS + t];
                for (std::size_t l = 0; l < Word::kLanes; ++l) x.v[l] = compat::fma(x.v[l], a, b);
                buf[k * TS + t] = x;
              }
            } else {
              // kWordsInFlight words (one vector register of the ISA) at a time through a register
              // array, as the read sweep: updated in place one word per step, GCC 12 made fp32's
              // four lanes one xmm FMA per word and left the words' loop unvectorised (xmm, not
              // zmm, on AVX-512).
              for (std::size_t k = 0; k < per_thread; k += Shape::kWordsInFlight) {
                T x[Shape::kAccumulators];
                for (std::size_t u = 0; u < Shape::kWordsInFlight; ++u)
                  for (std::size_t l = 0; l < Word::kLanes; ++l)
                    x[u * Word::kLanes + l] = buf[(k + u) * TS + t].v[l];
                for (std::size_t i = 0; i < Shape::kAccumulators; ++i)
                  x[i] = compat::fma(x[i], a, b);
                for (std::size_t u = 0; u < Shape::kWordsInFlight; ++u)
                  for (std::size_t l = 0; l < Word::kLanes; ++l)
                    buf[(k + u) * TS + t].v[l] = x[u * Word::kLanes + l];
              }
            }
            sram_pass_boundary();
          }
        }
        const int read_passes = Op == SramOp::kRead ? n_passes : 1;
        Sum* const sum = out + g * TS + t;  // captured here, not first inside `if constexpr`
        if constexpr (Shape::kWords) {
          // Hosts: the thread's words (a team is one thread: contiguous) as 32-bit integers in
          // kSumWords lanes, the same registers' worth as the elements' (word_sum.hpp): XORed two
          // vectors at a time for sram_read, added for sram_update's one final sweep.
          static_assert(Shape::kTeamSize == 1, "one thread per team on hosts");
          const AliasWord* KOKKOS_RESTRICT w = reinterpret_cast<const AliasWord*>(buf);
          const std::size_t n = per_thread * sizeof(Word) / sizeof(SumWord);
          if constexpr (Op == SramOp::kRead) {
            *sum = xor3_read<Shape::kSumWords>(w, n, read_passes);
          } else {
            SumWord acc[Shape::kSumWords] = {};
            for (std::size_t j = 0; j < n; j += Shape::kSumWords)
              for (std::size_t k = 0; k < Shape::kSumWords; ++k) acc[k] += w[j + k];
            *sum = sram_sum(acc);
          }
        } else {
          T acc[Shape::kAccumulators] = {};
          for (int p = 0; p < read_passes; ++p)
            for (std::size_t k = 0; k < per_thread; k += Shape::kWordsInFlight)
              for (std::size_t u = 0; u < Shape::kWordsInFlight; ++u) {
                const Word x = buf[(k + u) * TS + t];
                for (std::size_t l = 0; l < Word::kLanes; ++l) acc[u * Word::kLanes + l] += x.v[l];
              }
          *sum = sram_sum(acc);
        }
      });
}

// Each thread's sum against its closed form: read, passes × the sum of the inputs it owns;
// update, the sum of the exact values the recurrence gives them after `passes` steps (the host
// replays the 16 possible ones, bit for bit). Hosts sum the values' 32-bit words mod 2^32, and
// compare exactly. GPUs' fp sums: all values are positive, so rounding is bounded by the longest
// chain of dependent additions: an accumulator's run, then the pairwise sum.
template <class Space, class T>
Verification SramProbe<Space, T>::verify() {
  constexpr std::size_t TS = Shape::kTeamSize, U = Shape::kWordsInFlight, L = Word::kLanes;
  constexpr std::size_t A = Shape::kAccumulators;
  const std::size_t per_thread = words_ / TS;
  const bool read = op_ == SramOp::kRead;
  const auto ref = fma_reference<T>(passes_);
  const double chain = double(per_thread / U) * (read ? passes_ : 1) + std::log2(double(A)) + 1;
  const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out_);
  if constexpr (Shape::kWords) {
    // Hosts, exactly: sram_read replays xor3_pass on the words the scratch should hold
    // (word_sum.hpp), passes × one pass; sram_update the sum of the 32-bit words of its values, mod
    // 2^32.
    std::vector<SumWord> words(per_thread * sizeof(Word) / sizeof(SumWord));
    for (std::size_t g = 0; g < teams_; ++g) {
      SumWord gold = 0;
      if (read) {
        for (std::size_t k = 0; k < per_thread; ++k) {
          Word x;
          for (std::size_t l = 0; l < L; ++l) x.v[l] = sram_read_input<T>(source_element(g, k, l));
          std::memcpy(words.data() + k * sizeof(Word) / sizeof(SumWord), &x, sizeof x);
        }
        gold = xor3_pass<Shape::kSumWords>(words.data(), words.size()) * SumWord(passes_);
        if (gold == 0)
          return {false, info_.probe + ": team " + std::to_string(g) +
                             " cannot verify: the expected XOR sum of 32-bit words is 0 at " +
                             std::to_string(words_) + " words and " + std::to_string(passes_) +
                             " passes (a kernel that read nothing matches)"};
      } else {
        for (std::size_t k = 0; k < per_thread; ++k)
          for (std::size_t l = 0; l < L; ++l)
            gold += element_word_sum(ref[source_element(g, k, l) % 16]);
      }
      if (out(g) != gold)
        return {false, info_.probe + ": team " + std::to_string(g) + " thread 0 " +
                           (read ? "XOR sum" : "sum") + " of 32-bit words " +
                           std::to_string(out(g)) + ", expected " + std::to_string(gold)};
    }
  } else {
    for (std::size_t g = 0; g < teams_; ++g)
      for (std::size_t t = 0; t < TS; ++t) {
        long double gold = 0;
        for (std::size_t k = 0; k < per_thread; ++k)
          for (std::size_t l = 0; l < L; ++l) {
            const std::size_t e = source_element(g, k * TS + t, l);
            gold += read ? (long double)sram_read_input<T>(e) : (long double)ref[e % 16];
          }
        if (read) gold *= passes_;
        const long double got = out(g * TS + t);
        const long double tol = chain * epsilon<T>() * gold;
        if (!(std::fabs(got - gold) <= tol))
          return {false, info_.probe + ": team " + std::to_string(g) + " thread " +
                             std::to_string(t) + " sum " + std::to_string((double)got) +
                             ", expected " + std::to_string((double)gold)};
      }
  }
  return {};
}

}  // namespace ridgeline
