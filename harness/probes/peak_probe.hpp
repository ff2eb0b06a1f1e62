#pragma once
// The compute ceiling: FMA chains on values that never leave registers. Per element K FMAs and
// one add (the pairwise chunk sum plus the add into the item's total); the only memory traffic is
// one store per work item.
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "backends/spaces.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/device_clock.hpp"
#include "harness/probes/dtype.hpp"
#include "harness/probes/fma_recurrence.hpp"
#include "harness/probes/layout.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"

#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define RIDGELINE_HOST_NOINLINE __attribute__((noinline))
#else
#define RIDGELINE_HOST_NOINLINE
#endif

namespace ridgeline {

template <class Space, class T>
class PeakProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;
  static constexpr std::size_t C = fma_chains<Space, T>();
  static_assert((C & (C - 1)) == 0, "chunk_sum pairs chains: C must be a power of two");

  PeakProbe(std::size_t elements, int k) : k_(k) {
    // Several items per host thread, so that a thread that starts late does not stretch the call;
    // at least one chunk everywhere, however small the budget.
    layout_ = LaunchShape<Space>::chunked(elements, C, Space().concurrency(), 16);
    layout_.items = std::max<std::size_t>(layout_.items, 1);
    layout_.per_item = std::max<std::size_t>(layout_.per_item, C);
    const std::size_t n = layout_.elements();
    info_.probe = "peak";
    info_.family = "peak";
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = layout_.items * sizeof(T);
    info_.flops = double(n) * (2.0 * k + 1.0);
    info_.bytes = double(layout_.items) * sizeof(T);
    info_.params = {{"k", k},
                    {"chains", C},
                    {"items", layout_.items},
                    {"elements_per_item", layout_.per_item},
                    {"block_size", LaunchShape<Space>::block_size_json()}};
    info_.params.update(LaunchShape<Space>::isa_json());
    info_.name = point_name("peak", info_.space, info_.dtype, grade("k", k));
  }

  const PointInfo& info() const override { return info_; }

  // Pairwise sum of a chunk's chains: C-1 adds that vectorise, where a sequential sum would pull
  // every lane out of its register. The host check replays the same order.
  KOKKOS_INLINE_FUNCTION static T chunk_sum(T (&v)[C]) {
    for (std::size_t width = C / 2; width > 0; width /= 2)
      for (std::size_t c = 0; c < width; ++c) v[c] += v[c + width];
    return v[0];
  }

  // One chunk of C chains, K steps each, summed. A function of its own so that the chains are
  // all the compiler has live in the step loop: inline in the kernel, GCC 12 (AVX2) kept six of
  // the eight chain registers on the stack there (22 instead of 51 GFLOP/s on a Zen 3 core).
  RIDGELINE_HOST_NOINLINE KOKKOS_INLINE_FUNCTION static T chunk(const BlockLayout<Space>& l,
                                                                std::size_t item, std::size_t j0,
                                                                int k_steps, T alpha, T beta) {
    T v[C];
    for (std::size_t c = 0; c < C; ++c) v[c] = fma_input<T>(l.index(item, j0 + c));
#if defined(__HIP_DEVICE_COMPILE__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_fma)
    // fp32 on AMD as the v_pk_fma_f32 pairs it becomes, with alpha and beta as one pair each.
    // Left to the SLP vectorizer, clang 19 (gfx942) kept four copies of each constant pair and
    // rebuilt them with 11 v_mov per loop test (512 FMAs of 523 VALU, 97.9 %): its register
    // rotation of the chains overwrote them. Same FMAs, same order per chain: the same results.
    if constexpr (std::is_same_v<T, float> && C % 2 == 0) {
      using Pair = float __attribute__((ext_vector_type(2)));
      Pair w[C / 2];
      for (std::size_t c = 0; c < C / 2; ++c) w[c] = Pair{v[2 * c], v[2 * c + 1]};
      const Pair a2 = {alpha, alpha}, b2 = {beta, beta};
      RIDGELINE_DEVICE_UNROLL(128)
      for (int k = 0; k < k_steps; ++k) {
        for (std::size_t c = 0; c < C / 2; ++c) w[c] = __builtin_elementwise_fma(w[c], a2, b2);
      }
      for (std::size_t c = 0; c < C / 2; ++c) {
        v[2 * c] = w[c].x;
        v[2 * c + 1] = w[c].y;
      }
      return chunk_sum(v);
    }
#endif
#endif
    // 128 steps of 8 chains per iteration on devices: 1024 FMAs against ~5 loop instructions
    // (99.5 %, 16 KB of loop body, the size of the half peak's loop that ran at 124.6 TFLOP/s on
    // the H200); unrolled 16x the loop was 128 FFMA in 132 instructions, a 97 % cap.
    RIDGELINE_DEVICE_UNROLL(128)
    for (int k = 0; k < k_steps; ++k) {
      for (std::size_t c = 0; c < C; ++c) v[c] = compat::fma(v[c], alpha, beta);
    }
    return chunk_sum(v);
  }

  void release() override {
    out_ = View();
    stamps_ = Stamps();
  }

  void setup() override {
    out_ = View("ridgeline::peak_out", layout_.items);
    if constexpr (kIsDeviceSpace<Space>)
      stamps_ = Stamps("ridgeline::peak_clock", clock_stamp_count(layout_.items));
    fence();
  }

  void run() override {
    const auto l = layout_;
    const int k_steps = k_;
    T* KOKKOS_RESTRICT out = out_.data();
    const T alpha = runtime_value(kFmaAlpha<T>), beta = runtime_value(kFmaBeta<T>);
    const Stamps stamps = stamps_;
    const std::size_t stride = kClockStride;
    Kokkos::parallel_for(
        "ridgeline::peak", typename LaunchShape<Space>::Policy(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          const bool stamp = stamps.extent(0) && item % stride == 0;
          if (stamp) stamps(item / stride, 0) = device_clock();
          T total = T(0);
          for (std::size_t j0 = 0; j0 < l.per_item; j0 += C)
            total += chunk(l, item, j0, k_steps, alpha, beta);
          out[item] = total;
          if (stamp) stamps(item / stride, 1) = device_clock();
        });
  }

  // The SM clock the kernel ran at (device spaces), from the stamping threads of the last run.
  nlohmann::json observed() override {
    return observed_clock(stamps_, wall_clock_tick_ns(Space::name()));
  }

  void fence() override { compat::fence(Space(), "ridgeline::peak"); }

  Verification verify() override {
    const auto ref = fma_reference<T>(k_);
    const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out_);
    for (std::size_t item = 0; item < layout_.items; ++item) {
      T want = T(0);
      for (std::size_t j0 = 0; j0 < layout_.per_item; j0 += C) {
        T v[C];
        for (std::size_t c = 0; c < C; ++c) v[c] = ref[layout_.index(item, j0 + c) % 16];
        want += chunk_sum(v);
      }
      if (out(item) != want)
        return {false, "peak: item " + std::to_string(item) + " total " +
                           std::to_string((double)out(item)) + ", expected " +
                           std::to_string((double)want)};
    }
    return {};
  }

  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(out_, std::make_pair(0, 1)), T(-7));
  }

 private:
  using Stamps = ClockStamps<Space>;

  int k_;
  BlockLayout<Space> layout_;
  PointInfo info_;
  View out_;
  Stamps stamps_;
};

}  // namespace ridgeline
