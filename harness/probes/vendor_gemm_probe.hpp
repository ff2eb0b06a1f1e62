#pragma once
// The vendor library's GEMM (cuBLAS; backends/vendor_gemm.hpp) on a device space: the tensor-core
// roof in fp16, bf16 and tf32, and the fp64/fp32 library roof, beside our own probes. The matrices
// hold random values with full-entropy significands in ±[2^-7, 1) (low-entropy data such as
// zeros or a few repeated values draws less power and runs faster than real work), written on the
// device; C is poisoned with NaN before every check, so an unwritten element fails.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compat/kokkos_compat.hpp"
#include "probes/half_precision.hpp"
#include "probes/point_name.hpp"
#include "probes/probe.hpp"
#include "vendor_gemm.hpp"

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

// The value of such an element, read on the host.
inline double element_value(const unsigned char* p, int bytes, bool bf16) {
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

  VendorGemmProbe(GemmType type, std::size_t n, VendorGemm& library)
      : type_(type), t_(gemm_type_info(type)), n_(n), library_(library) {
    info_.probe = "vendor_gemm";
    info_.family = "library";
    info_.space = Space::name();
    info_.dtype = t_.dtype;
    info_.elements = n * n;
    info_.working_set_bytes = n * n * (2 * t_.in_bytes + t_.out_bytes);
    info_.flops = 2.0 * double(n) * double(n) * double(n);
    info_.bytes = double(n) * double(n) * double(2 * t_.in_bytes + t_.out_bytes);
    // The unit by the device's architecture: an fp64 GEMM on an sm_89 runs on the vector units
    // and is held against P, not P_matrix.
    info_.params = {{"n", n},
                    {"library", library.library()},
                    {"math", t_.math},
                    {"unit", gemm_unit(type, library.arch())},
                    {"accumulate", t_.accumulate},
                    {"arch", library.arch()},
                    {"data", "random, |x| in [2^-7, 1)"},
                    {"c_dtype", t_.out_bytes == 8 ? "fp64" : "fp32"}};
    info_.name = point_name("vendor_gemm", info_.space, info_.dtype, grade("n", n));
  }
  const PointInfo& info() const override { return info_; }

  void release() override {
    a_ = Bytes();
    b_ = Bytes();
    c_ = Bytes();
  }

  void setup() override {
    const std::size_t nn = n_ * n_;
    a_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_a"),
               nn * t_.in_bytes);
    b_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_b"),
               nn * t_.in_bytes);
    c_ = Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::vgemm_c"),
               nn * t_.out_bytes);
    fill_random(a_, 0x1234);
    fill_random(b_, 0x5678);
    poison_c();
    fence();
  }

  void run() override { library_.gemm(type_, n_, a_.data(), b_.data(), c_.data()); }
  void fence() override { compat::fence(Space(), "ridgeline::vendor_gemm"); }

  // Sampled entries against an exact host dot product of the same inputs, within the worst-case
  // rounding of the accumulation (k·u) plus, for tf32, the rounding of each input to 10 bits; and
  // no NaN anywhere in C (it was poisoned before the last run).
  Verification verify() override {
    const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    const int in = int(t_.in_bytes), out = int(t_.out_bytes);
    const bool bf16 = type_ == GemmType::kBf16;
    const std::size_t nn = n_ * n_;
    for (std::size_t e = 0; e < nn; ++e)
      if (!std::isfinite(element_value(&c(e * out), out, false)))
        return {false, "vendor_gemm: C element " + std::to_string(e) + " is not finite"};
    const double u_acc = out == 8 ? 0x1p-53 : 0x1p-24;
    const double u_in = type_ == GemmType::kTf32 ? 0x1p-11 : 0;
    constexpr std::size_t kSamples = 256;
    for (std::size_t s = 0; s < kSamples; ++s) {
      const std::size_t i = (s * 7919 + 13) % n_, j = (s * 104729 + 7) % n_;
      long double exact = 0, magnitude = 0;
      for (std::size_t k = 0; k < n_; ++k) {
        const long double p = (long double)element_value(&a((i + k * n_) * in), in, bf16) *
                              element_value(&b((k + j * n_) * in), in, bf16);
        exact += p;
        magnitude += std::fabs(p);
      }
      const double got = element_value(&c((i + j * n_) * out), out, false);
      const long double tol = (double(n_) * u_acc + 2 * u_in) * magnitude;
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
  // All-ones bytes: NaN in fp32 and fp64.
  void poison_c() { Kokkos::deep_copy(c_, (unsigned char)0xff); }

 private:
  GemmType type_;
  GemmTypeInfo t_;
  std::size_t n_;
  VendorGemm& library_;
  PointInfo info_;
  Bytes a_, b_, c_;
};

}  // namespace ridgeline
