#pragma once
// The vendor library's GEMM (cuBLASLt; backends/vendor_gemm.hpp) on a device space: the
// tensor-core roof in fp8, fp16, bf16 and tf32, and the fp64/fp32 library roof, beside our own
// probes, for C (m×n) = op(A)·B with k-long dot products: the square n³ and the skinny m×n×n of a
// prefill or batched-decode GEMM. The matrices hold random values with full-entropy significands in
// ±[2^-7, 1) (low-entropy data such as zeros or a few repeated values draws less power and runs
// faster than real work), written on the device; fp8 values are rounded to E4M3 on the host
// (probes/fp8_e4m3.hpp), in the encoding the library reads (OCP on CUDA, FNUZ on MI300), and
// copied. C is poisoned with NaN before every check, so an unwritten
// element fails.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/fp8_e4m3.hpp"
#include "harness/probes/half_precision.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"

namespace ridgeline {

// A random element of `bytes` bytes (2: fp16 or bf16 by `bf16`, 4: fp32, 8: fp64) as raw bits,
// from a counter-based hash: sign and significand random, magnitude in [2^-7, 1).
KOKKOS_INLINE_FUNCTION std::uint64_t random_element_bits(std::uint64_t index, std::uint64_t seed,
                                                         int bytes, bool bf16) {
  std::uint64_t z = index * 0x9e3779b97f4a7c15ull + seed;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  const std::uint64_t sign = z >> 63, octave = (z >> 56) % 7;  // exponent 2^-7 … 2^-1
  switch (bytes) {
    case 8:
      return (sign << 63) | ((1016 + octave) << 52) | (z & ((1ull << 52) - 1));
    case 4:
      return (sign << 31) | ((120 + octave) << 23) | (z & ((1ull << 23) - 1));
    default:
      return bf16 ? (sign << 15) | ((120 + octave) << 7) | (z & 0x7f)
                  : (sign << 15) | ((8 + octave) << 10) | (z & 0x3ff);
  }
}

// fp8 E4M3 in either encoding.
inline std::uint8_t encode_fp8(Fp8Encoding e, double x) {
  return e == Fp8Encoding::kFnuz ? encode_e4m3_fnuz(x) : encode_e4m3(x);
}
inline double decode_fp8(Fp8Encoding e, std::uint8_t code) {
  return e == Fp8Encoding::kFnuz ? decode_e4m3_fnuz(code) : decode_e4m3(code);
}

// The value of such an element, read on the host (1 byte: fp8 E4M3 in encoding `fp8`).
inline double element_value(const unsigned char* p, int bytes, bool bf16,
                            Fp8Encoding fp8 = Fp8Encoding::kOcp) {
  if (bytes == 1) return decode_fp8(fp8, *p);
  if (bytes == 8) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  if (bytes == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  std::uint16_t h;
  std::memcpy(&h, p, 2);
  return bf16 ? decode_half(Bf16{}, h) : decode_half(Fp16{}, h);
}

template <class Space>
class VendorGemmProbe final : public Probe {
 public:
  using Bytes = Kokkos::View<unsigned char*, typename Space::memory_space>;

  // `input_copies`: how many copies of A and B the calls rotate through (gemm_input_copies in
  // harness/sweep/plan_sizes.hpp), so that a call never finds its operands in the last-level
  // cache the previous call left them in.
  VendorGemmProbe(GemmType type, const GemmShape& shape, VendorGemm& library,
                  std::size_t input_copies = 1)
      : type_(type),
        t_(gemm_type_info(type)),
        shape_(shape),
        library_(library),
        fp8_(library.fp8_encoding()),
        copies_(std::max<std::size_t>(1, input_copies)) {
    const auto [m, n, k] = shape;
    info_.probe = "vendor_gemm";
    info_.family = "library";
    info_.space = Space::name();
    info_.dtype = t_.dtype;
    info_.elements = m * n;
    info_.working_set_bytes = copies_ * (m * k + k * n) * t_.in_bytes + m * n * t_.out_bytes;
    info_.flops = gemm_flops(shape);
    info_.bytes = gemm_bytes(type, shape);
    // The unit by the device's architecture: an fp64 GEMM on an sm_89 runs on the vector units
    // and is held against P, not P_matrix.
    info_.params = {{"m", m},
                    {"n", n},
                    {"k", k},
                    {"layout", a_transposed(type) ? "TN" : "NN"},
                    {"library", library.library()},
                    {"math", library.math(type)},
                    {"unit", gemm_unit(type, library.arch())},
                    {"accumulate", t_.accumulate},
                    {"arch", library.arch()},
                    {"data", "random, |x| in [2^-7, 1)"},
                    {"c_dtype", t_.c_dtype},
                    {"input_copies", copies_}};
    if (type == GemmType::kFp8E4m3) info_.params["fp8_encoding"] = fp8_encoding_name(fp8_);
    info_.name = point_name("vendor_gemm", info_.space, info_.dtype, gemm_grade(shape));
  }
  const PointInfo& info() const override { return info_; }

  // "n:8192" for the square (the name points had before the skinny sweep), else
  // "m:16,n:8192,k:8192".
  static std::string gemm_grade(const GemmShape& s) {
    if (s.m == s.n && s.n == s.k) return grade("n", s.n);
    return grade("m", s.m) + "," + grade("n", s.n) + "," + grade("k", s.k);
  }

  void release() override {
    a_ = Bytes();
    b_ = Bytes();
    c_ = Bytes();
  }

  void setup() override {
    const auto [m, n, k] = shape_;
    a_bytes_ = m * k * t_.in_bytes;
    b_bytes_ = k * n * t_.in_bytes;
    // Every copy of A (of B) back to back in one allocation; each holds its own random values.
    a_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_a"),
               copies_ * a_bytes_);
    b_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_b"),
               copies_ * b_bytes_);
    c_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_c"),
               m * n * t_.out_bytes);
    fill_random(a_, 0x1234);
    fill_random(b_, 0x5678);
    fence();
    // Untimed: the library picks its algorithm on these very matrices (it writes C).
    choice_ = library_.prepare(type_, shape_, a_.data(), b_.data(), c_.data());
    last_copy_ = 0;
    next_copy_ = 0;
    poison_c();
    fence();
  }

  // What prepare() chose, beside the params planned before it ran.
  nlohmann::json setup_params() override {
    nlohmann::json j = {{"api", choice_.api},
                        {"algorithm", choice_.algorithm},
                        {"heuristic_candidates", choice_.candidates},
                        {"algorithms_tried", choice_.tried}};
    j["heuristic_rank"] = choice_.heuristic_rank >= 0 ? nlohmann::json(choice_.heuristic_rank)
                                                      : nlohmann::json(nullptr);
    j["selection_best_s"] =
        choice_.seconds > 0 ? nlohmann::json(choice_.seconds) : nlohmann::json(nullptr);
    return j;
  }

  // Each call takes the next copy of A and B; verify() checks C against the copy of the last call.
  void run() override {
    last_copy_ = next_copy_;
    next_copy_ = (next_copy_ + 1) % copies_;
    library_.gemm(type_, shape_, a_.data() + last_copy_ * a_bytes_,
                  b_.data() + last_copy_ * b_bytes_, c_.data());
  }
  void fence() override { compat::fence(Space(), "ridgeline::vendor_gemm"); }

  // Sampled entries against an exact host dot product of the same inputs (long double), and no
  // NaN anywhere in C (it was poisoned before the last run). The tolerance, per entry, is the
  // rounding the library may add, in terms of S = Σ|a·b| over the k products:
  // - fp64, fp32, tf32, fp16, bf16: the worst-case rounding of a k-term sum, k·u·S (u = 2^-53 in
  //   fp64, else 2^-24), plus for tf32 the rounding of each input to 10 bits (2·2^-11·S);
  // - fp8: the inputs are exactly the decoded E4M3 values and a product of two 4-bit significands
  //   is exact, so only the sum and the output round. Hopper's FP8 tensor cores keep fewer bits
  //   than fp32 inside one MMA's k-slice (about 14, as DeepSeek-V3's report measured on H800);
  //   without fast accumulation cuBLASLt adds each slice's partial into fp32, so that costs at
  //   most a few 2^-14 of the slice's S, bounded here by 2^-10·S in all, plus k·2^-24·S for the
  //   fp32 sum of the partials, plus the bf16 output's rounding (half an ulp: 2^-9·|c|, taken as
  //   2^-8). MI300's fp8 MFMA instructions accumulate into fp32 registers; the same bound is used.
  //   A wrong layout or scale misses by about |c| or more: S is ~√k·|c| for random signs, so the
  //   bound stays below that for k up to ~2^16.
  Verification verify() override {
    const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    const auto [m, n, k] = shape_;
    const int in = int(t_.in_bytes), out = int(t_.out_bytes);
    const bool bf16_in = type_ == GemmType::kBf16, bf16_out = out == 2;
    for (std::size_t e = 0; e < m * n; ++e)
      if (!std::isfinite(element_value(&c(e * out), out, bf16_out)))
        return {false, "vendor_gemm: C element " + std::to_string(e) + " is not finite"};
    const bool fp8 = type_ == GemmType::kFp8E4m3;
    const double u_acc = out == 8 ? 0x1p-53 : 0x1p-24;
    const double u_in = type_ == GemmType::kTf32 ? 0x1p-11 : 0;
    const double slices = fp8 ? 0x1p-10 : 0, u_out = fp8 ? 0x1p-8 : 0;
    const bool at = a_transposed(type_);
    const std::size_t a0 = last_copy_ * a_bytes_, b0 = last_copy_ * b_bytes_;  // the last call's
    constexpr std::size_t kSamples = 256;
    for (std::size_t s = 0; s < kSamples; ++s) {
      const std::size_t i = (s * 7919 + 13) % m, j = (s * 104729 + 7) % n;
      long double exact = 0, magnitude = 0;
      for (std::size_t l = 0; l < k; ++l) {
        const std::size_t ai = at ? l + i * k : i + l * m;
        const long double p = (long double)element_value(&a(a0 + ai * in), in, bf16_in, fp8_) *
                              element_value(&b(b0 + (l + j * k) * in), in, bf16_in, fp8_);
        exact += p;
        magnitude += std::fabs(p);
      }
      const double got = element_value(&c((i + j * m) * out), out, bf16_out);
      const long double tol =
          (double(k) * u_acc + 2 * u_in + slices) * magnitude + u_out * std::fabs(exact);
      if (!(std::fabs(got - exact) <= tol))
        return {false, "vendor_gemm " + info_.dtype + ": C(" + std::to_string(i) + "," +
                           std::to_string(j) + ") is " + std::to_string(got) + ", expected " +
                           std::to_string((double)exact)};
    }
    return {};
  }
  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(c_, std::make_pair(std::size_t(0), t_.out_bytes)),
                      (unsigned char)0xff);
  }

  // Public only because nvcc refuses device lambdas in private member functions.
  void fill_random(const Bytes& v, std::uint64_t seed) {
    if (type_ == GemmType::kFp8E4m3) return fill_random_fp8(v, seed);
    const int bytes = int(t_.in_bytes);
    const bool bf16 = type_ == GemmType::kBf16;
    unsigned char* p = v.data();
    Kokkos::parallel_for(
        "ridgeline::vgemm_init", Kokkos::RangePolicy<Space>(0, v.extent(0) / bytes),
        KOKKOS_LAMBDA(const std::size_t e) {
          const std::uint64_t bits = random_element_bits(e, seed, bytes, bf16);
          for (int k = 0; k < bytes; ++k) p[e * bytes + k] = (unsigned char)(bits >> (8 * k));
        });
  }
  // The same fp32 values, rounded to E4M3 in the library's encoding on the host (the codecs are
  // tested on the CPU; a device copy of them would be a second one to trust).
  void fill_random_fp8(const Bytes& v, std::uint64_t seed) {
    const Kokkos::View<unsigned char*, Kokkos::HostSpace> host(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_fp8_host"), v.extent(0));
    for (std::size_t e = 0; e < v.extent(0); ++e) {
      float f;
      const auto bits = static_cast<std::uint32_t>(random_element_bits(e, seed, 4, false));
      std::memcpy(&f, &bits, 4);
      host(e) = encode_fp8(fp8_, f);
    }
    Kokkos::deep_copy(v, host);
  }
  // All-ones bytes: NaN in fp32, fp64 and bf16.
  void poison_c() { Kokkos::deep_copy(c_, (unsigned char)0xff); }

 private:
  GemmType type_;
  GemmTypeInfo t_;
  GemmShape shape_;
  VendorGemm& library_;
  Fp8Encoding fp8_;
  std::size_t copies_;  // of A and B, rotated call by call
  std::size_t a_bytes_ = 0, b_bytes_ = 0;
  std::size_t next_copy_ = 0, last_copy_ = 0;
  PointInfo info_;
  GemmChoice choice_;
  Bytes a_, b_, c_;
};

}  // namespace ridgeline
