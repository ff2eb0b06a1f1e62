#pragma once
// fp16 and bf16 FMA ladder and peak on device spaces, with packed two-lane FMAs
// (half_precision.hpp). Counting: a packed FMA is 2 lanes × 2 FLOPs; `elements` are lanes (half
// values).
//   ladder ("fma"): per lane load, K FMAs, store: FLOPs 2·K·n, bytes 2·n·2.
//   peak: per lane K FMAs in registers; the fp32 sum of the lanes at the end is not counted (it
//   is not half-precision work): FLOPs 2·K·n, bytes one float per work item.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>

#include "backends/spaces.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/device_clock.hpp"
#include "harness/probes/half_precision.hpp"
#include "harness/probes/layout.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"

#if defined(RIDGELINE_PACKED_HALF)

namespace ridgeline {

// Independent packed chains per thread: 8, as for fp32 (16 lanes in flight per thread).
inline constexpr std::size_t kHalfChains = 8;

// The 8 distinct input pairs: pair p holds lanes 2p and 2p+1, lane l starts at half_input(l % 16).
template <class H>
struct HalfInputs {
  std::uint32_t pair[8];
};
template <class H>
HalfInputs<H> half_input_pairs() {
  HalfInputs<H> in{};
  for (std::size_t p = 0; p < 8; ++p)
    in.pair[p] = pack_pair<H>(half_input<H>(2 * p), half_input<H>(2 * p + 1));
  return in;
}

// Runs `steps` steps of the recurrence on C packed chains: blocks of kHalfBlock steps, unrolled
// (1024 packed FMAs per loop test, 99.4 % of the loop's instructions, 16 KB of code), in a loop
// the compiler must keep even when `steps` is a compile-time K, then the rest (1 to kHalfBlock
// steps) in step pairs unrolled by 16 (256 packed FMAs per loop test; clang 15 unrolled them 4x
// for K = 64, 83 % of the gfx90a loop). A block is taken only while steps remain after it: K = 128
// as one block had no loop at all, and its hot loop was the launch's loop over items, whose loads,
// stores and index arithmetic made it 94 % FMAs (Kokkos 3.4.01 on gfx908,
// scripts/check-gpu-codegen); now it runs 4 tests of the pair loop, like K = 64 runs 2.
// A run-time loop of step pairs unrolled by the compiler kept one exit test per pair (84 % FMAs in
// the SASS of the first H200 run, 0.76 of the clock-adjusted peak); a fully unrolled K <= 256 (~34
// KB of straight-line code at K = 256) ran the ladder at 75-84 TFLOP/s against 124.6 at K = 512,
// whose loop of 1024 packed FMAs is the one kept here.
inline constexpr int kHalfBlock = 128;
template <class P, std::size_t C>
KOKKOS_FORCEINLINE_FUNCTION void half_step_pair(P (&v)[C], P minus_one, P zero, P step) {
  for (std::size_t c = 0; c < C; ++c) v[c] = packed_fma(v[c], minus_one, zero);
  for (std::size_t c = 0; c < C; ++c) v[c] = packed_fma(v[c], minus_one, step);
}
template <class P, std::size_t C>
KOKKOS_FORCEINLINE_FUNCTION void half_steps(P (&v)[C], int steps, P minus_one, P zero, P step) {
  int k = 0;
  RIDGELINE_DEVICE_UNROLL(1)
  for (; k + kHalfBlock < steps; k += kHalfBlock) {
    RIDGELINE_DEVICE_UNROLL()
    for (int b = 0; b < kHalfBlock; b += 2) half_step_pair(v, minus_one, zero, step);
  }
  RIDGELINE_DEVICE_UNROLL(16)
  for (; k + 1 < steps; k += 2) half_step_pair(v, minus_one, zero, step);
  if (steps & 1)
    for (std::size_t c = 0; c < C; ++c) v[c] = packed_fma(v[c], minus_one, zero);
}

template <class H>
struct HalfConstants {
  std::uint32_t minus_one = pack_pair<H>(-1.0f, -1.0f);
  std::uint32_t zero = 0;
  std::uint32_t step = pack_pair<H>(kHalfStep, kHalfStep);
};

// Identity, lane count and launch-shape params shared by the half ladder and peak points.
template <class Space, class H>
void half_point_info(PointInfo& info, const char* probe, long k, const BlockLayout<Space>& layout) {
  info.probe = probe;
  info.family = probe;
  info.space = Space::name();
  info.dtype = H::kName;
  info.name = point_name(probe, info.space, info.dtype, grade("k", std::uint64_t(k)));
  info.elements = 2 * layout.elements();  // lanes: two per packed element
  info.params = {{"k", k},
                 {"chains", kHalfChains},
                 {"lanes_per_chain", 2},
                 {"items", layout.items},
                 {"elements_per_item", 2 * layout.per_item},
                 {"block_size", LaunchShape<Space>::block_size_json()},
                 {"count_exact_up_to_k", half_exact_k_max<H>()}};
}

// The ladder rung K for half precision.
template <class Space, class H, int K>
class HalfFmaLadderProbe final : public Probe {
  static_assert(kIsDeviceSpace<Space>, "packed half probes run on device spaces only");

 public:
  using P = typename Packed<H>::type;
  using View = Kokkos::View<std::uint32_t*, typename Space::memory_space>;  // packed pairs
  static constexpr std::size_t C = kHalfChains;

  explicit HalfFmaLadderProbe(std::size_t lanes) {
    layout_.per_item = C;
    layout_.items = lanes / 2 / C;
    const std::size_t n = 2 * layout_.elements();
    half_point_info<Space, H>(info_, "fma", K, layout_);
    info_.working_set_bytes = 2 * n * 2;
    info_.flops = 2.0 * K * double(n);
    info_.bytes = 2.0 * double(n) * 2;
  }
  const PointInfo& info() const override { return info_; }

  void release() override {
    x_ = View();
    y_ = View();
  }

  void setup() override {
    const std::size_t pairs = layout_.elements();
    x_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::half_fma_x"), pairs);
    y_ = View("ridgeline::half_fma_y", pairs);
    auto h = Kokkos::create_mirror_view(x_);
    const auto in = half_input_pairs<H>();
    for (std::size_t p = 0; p < pairs; ++p) h(p) = in.pair[p % 8];
    Kokkos::deep_copy(x_, h);
    fence();
  }

  void run() override {
    const auto l = layout_;
    const P* KOKKOS_RESTRICT x = reinterpret_cast<const P*>(x_.data());
    P* KOKKOS_RESTRICT y = reinterpret_cast<P*>(y_.data());
    const HalfConstants<H> k;
    Kokkos::parallel_for(
        "ridgeline::fma_half", typename LaunchShape<Space>::Policy(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          const P minus_one = packed_from_bits<P>(k.minus_one), zero = packed_from_bits<P>(k.zero),
                  step = packed_from_bits<P>(k.step);
          P v[C];
          for (std::size_t c = 0; c < C; ++c) v[c] = x[l.index(item, c)];
          half_steps(v, K, minus_one, zero, step);
          for (std::size_t c = 0; c < C; ++c) y[l.index(item, c)] = v[c];
        });
  }
  void fence() override { compat::fence(Space(), "ridgeline::fma_half"); }

  Verification verify() override {
    const auto ref = half_reference<H>(K);
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_);
    for (std::size_t p = 0; p < y.extent(0); ++p)
      for (std::size_t lane = 0; lane < 2; ++lane) {
        const float got = decode_half(H{}, static_cast<std::uint16_t>(y(p) >> (16 * lane)));
        const float want = ref[(2 * p + lane) % 16];
        if (!(got == want))  // bit-exact: both are values of H
          return {false, std::string(H::kName) + " fma k=" + std::to_string(K) + ": lane " +
                             std::to_string(2 * p + lane) + " is " + std::to_string(got) +
                             ", expected " + std::to_string(want)};
      }
    return {};
  }
  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(y_, std::make_pair(0, 1)), pack_pair<H>(-7.0f, -7.0f));
  }

 private:
  BlockLayout<Space> layout_;
  PointInfo info_;
  View x_, y_;
};

template <class Space, class H>
class HalfPeakProbe final : public Probe {
  static_assert(kIsDeviceSpace<Space>, "packed half probes run on device spaces only");

 public:
  using P = typename Packed<H>::type;
  using View = Kokkos::View<float*, typename Space::memory_space>;
  static constexpr std::size_t C = kHalfChains;

  HalfPeakProbe(std::size_t lanes, int k) : k_(k) {
    layout_.per_item = C;
    layout_.items = std::max<std::size_t>(1, lanes / 2 / C);
    const std::size_t n = 2 * layout_.elements();
    half_point_info<Space, H>(info_, "peak", k, layout_);
    info_.working_set_bytes = layout_.items * sizeof(float);
    info_.flops = 2.0 * k * double(n);
    info_.bytes = double(layout_.items) * sizeof(float);
  }
  const PointInfo& info() const override { return info_; }

  void release() override {
    out_ = View();
    stamps_ = Stamps();
  }

  void setup() override {
    out_ = View("ridgeline::half_peak_out", layout_.items);
    stamps_ = Stamps("ridgeline::half_peak_clock", clock_stamp_count(layout_.items));
    fence();
  }

  void run() override {
    const auto l = layout_;
    const int steps = k_;
    float* KOKKOS_RESTRICT out = out_.data();
    const HalfConstants<H> k;
    const Stamps stamps = stamps_;
    const std::size_t stride = kClockStride;
    // Inputs computed in the kernel: a table indexed by a run-time value would live in local
    // memory (ptxas gave it a 120-byte stack frame).
    const float first = half_input<H>(0);
    Kokkos::parallel_for(
        "ridgeline::peak_half", typename LaunchShape<Space>::Policy(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          const bool stamp = item % stride == 0;
          if (stamp) stamps(item / stride, 0) = device_clock();
          const P minus_one = packed_from_bits<P>(k.minus_one), zero = packed_from_bits<P>(k.zero),
                  step = packed_from_bits<P>(k.step);
          P v[C];
          for (std::size_t c = 0; c < C; ++c) {
            const std::size_t p = l.index(item, c) % 8;  // lanes 2p and 2p + 1 (mod 16)
            v[c] = packed_from_floats<P>(first + float(2 * p) * kHalfStep,
                                         first + float(2 * p + 1) * kHalfStep);
          }
          half_steps(v, steps, minus_one, zero, step);
          float total = 0;
          for (std::size_t c = 0; c < C; ++c) total += packed_lane_sum(v[c]);
          out[item] = total;
          if (stamp) stamps(item / stride, 1) = device_clock();
        });
  }

  // The SM clock the kernel ran at, from the stamping threads of the last run.
  nlohmann::json observed() override {
    return observed_clock(stamps_, wall_clock_tick_ns(Space::name()));
  }
  void fence() override { compat::fence(Space(), "ridgeline::peak_half"); }

  Verification verify() override {
    const auto ref = half_reference<H>(k_);
    const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out_);
    for (std::size_t item = 0; item < layout_.items; ++item) {
      // Same order as the device: per chain, (lane 0 + lane 1) then into the total. Every term
      // is a multiple of 1/16 below 2^12 in magnitude, so the float sums are exact.
      float want = 0;
      for (std::size_t c = 0; c < C; ++c) {
        const std::size_t p = layout_.index(item, c) % 8;
        float s = ref[2 * p];
        s += ref[2 * p + 1];
        want += s;
      }
      if (!(out(item) == want))
        return {false, std::string(H::kName) + " peak: item " + std::to_string(item) + " total " +
                           std::to_string(out(item)) + ", expected " + std::to_string(want)};
    }
    return {};
  }
  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(out_, std::make_pair(0, 1)), -7.0f);
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

#endif  // RIDGELINE_PACKED_HALF
