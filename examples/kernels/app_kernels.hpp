#pragma once
// The example application's kernels: a stream triad, a 2-D five-point stencil and a GEMM-like
// triple loop, each with its FLOP and byte counts per call beside it (the numbers main.cpp
// declares through ridgeline/annotate.hpp). Templated on the element type so that a test can
// run them with a counting scalar and check the FLOP counts independently.
//
// Bytes are the compulsory traffic: every array element the kernel reads or writes, once per
// call. For the triad every access is compulsory; the stencil reads each input element up to
// five times and the GEMM each element of A and B n times, which caches serve, so their
// intensity on the DRAM roof is counted from the arrays' sizes.
#include <Kokkos_Core.hpp>

#include <cstddef>

namespace example {

inline constexpr const char* kTriadLabel = "example::triad";
inline constexpr const char* kStencilLabel = "example::stencil5";
inline constexpr const char* kGemmLabel = "example::gemm";

// a = b + q·c over n elements: a multiply and an add per element; b, c read, a written.
inline double triad_flop(std::size_t n) { return 2.0 * double(n); }
inline double triad_bytes(std::size_t n, std::size_t scalar) { return 3.0 * double(scalar * n); }

template <class View>
void triad(const View& a, const View& b, const View& c, double q) {
  using Space = typename View::execution_space;
  Kokkos::parallel_for(
      kTriadLabel, Kokkos::RangePolicy<Space>(0, a.extent(0)),
      KOKKOS_LAMBDA(const int i) { a(i) = b(i) + q * c(i); });
}

// out = w0·in + w1·(four neighbours) on the (n-2)² interior of an n×n grid: three adds for the
// neighbours, two multiplies and one add per point; in read (n² elements), out written.
inline double stencil_flop(std::size_t n) { return 6.0 * double((n - 2) * (n - 2)); }
inline double stencil_bytes(std::size_t n, std::size_t scalar) {
  return double(scalar) * double(n * n + (n - 2) * (n - 2));
}

template <class View2>
void stencil5(const View2& out, const View2& in, double w0, double w1) {
  using Space = typename View2::execution_space;
  const int n = int(in.extent(0));
  Kokkos::parallel_for(
      kStencilLabel, Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({1, 1}, {n - 1, n - 1}),
      KOKKOS_LAMBDA(const int i, const int j) {
        out(i, j) =
            w0 * in(i, j) + w1 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1));
      });
}

// C = A·B for n×n matrices, one row-column dot product per element: n multiplies and n adds
// each; A and B read, C written.
inline double gemm_flop(std::size_t n) { return 2.0 * double(n) * double(n) * double(n); }
inline double gemm_bytes(std::size_t n, std::size_t scalar) {
  return 3.0 * double(scalar) * double(n * n);
}

template <class View2>
void gemm(const View2& c, const View2& a, const View2& b) {
  using Space = typename View2::execution_space;
  using T = typename View2::non_const_value_type;
  const int n = int(a.extent(0));
  Kokkos::parallel_for(
      kGemmLabel, Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, n}),
      KOKKOS_LAMBDA(const int i, const int j) {
        T acc = 0;
        for (int k = 0; k < n; ++k) acc += a(i, k) * b(k, j);
        c(i, j) = acc;
      });
}

}  // namespace example
