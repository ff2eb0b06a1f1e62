#pragma once
// Kernels and verification of StreamProbe (stream_probe.hpp).
#include <cmath>
#include <string>

namespace ridgeline {

template <class Space, class T>
void StreamProbe<Space, T>::run() {
  const auto l = layout_;
  const int passes = passes_;
  const T q = kStreamScalar<T>;
  // Raw restrict pointers: the arrays never alias, and saying so lets host compilers vectorise.
  T* KOKKOS_RESTRICT a = a_.data();
  T* KOKKOS_RESTRICT b = b_.data();
  T* KOKKOS_RESTRICT c = c_.data();
  const Kokkos::RangePolicy<Space> items(0, l.items);
  switch (kernel_.op) {
    case StreamOp::kCopy:
      Kokkos::parallel_for(
          "ridgeline::copy", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j)
                b[l.index(item, j)] = a[l.index(item, j)];
          });
      break;
    case StreamOp::kScale:
      Kokkos::parallel_for(
          "ridgeline::scale", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j)
                b[l.index(item, j)] = q * a[l.index(item, j)];
          });
      break;
    case StreamOp::kAdd:
      Kokkos::parallel_for(
          "ridgeline::add", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) {
                const std::size_t i = l.index(item, j);
                c[i] = a[i] + b[i];
              }
          });
      break;
    case StreamOp::kTriad:
      Kokkos::parallel_for(
          "ridgeline::triad", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) {
                const std::size_t i = l.index(item, j);
                c[i] = compat::fma(q, b[i], a[i]);
              }
          });
      break;
    case StreamOp::kFill:
      Kokkos::parallel_for(
          "ridgeline::fill", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) a[l.index(item, j)] = q;
          });
      break;
    case StreamOp::kDot:
    case StreamOp::kRead: {
      // W independent partial sums per item: a vectorisable reduction without reassociating.
      constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
      const bool dot = kernel_.op == StreamOp::kDot;
      T sum = T(0);
      Kokkos::parallel_reduce(
          dot ? "ridgeline::dot" : "ridgeline::read", items,
          KOKKOS_LAMBDA(const std::size_t item, T& total) {
            T acc[W] = {};
            for (int p = 0; p < passes; ++p) {
              if (dot) {
                for (std::size_t j = 0; j < l.per_item; j += W)
                  for (std::size_t w = 0; w < W; ++w)
                    acc[w] = compat::fma(a[l.index(item, j + w)], b[l.index(item, j + w)], acc[w]);
              } else {
                for (std::size_t j = 0; j < l.per_item; j += W)
                  for (std::size_t w = 0; w < W; ++w) acc[w] += a[l.index(item, j + w)];
              }
            }
            for (std::size_t w = 0; w < W; ++w) total += acc[w];
          },
          sum);
      result_ = sum;  // parallel_reduce into a host scalar waits for the result
      break;
    }
  }
}

template <class Space, class T>
Verification StreamProbe<Space, T>::verify() {
  const std::size_t n = layout_.elements();
  const T q = kStreamScalar<T>;
  if (kernel_.reduces) {
    long double gold = 0;
    for (std::size_t i = 0; i < n; ++i)
      gold += kernel_.op == StreamOp::kDot
                  ? (long double)stream_init_a<T>(i) * (long double)stream_init_b<T>(i)
                  : (long double)stream_init_a<T>(i);
    gold *= passes_;
    // Worst-case rounding of the longest chain of dependent additions (each accumulator's run,
    // then the W accumulators, then the items). Values are multiples of 1/32, so small sums are
    // exact and the bound is rarely approached.
    constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
    const double chain = double(layout_.per_item) * passes_ / W + W + double(layout_.items);
    const long double tol = chain * epsilon<T>() * std::fabs(gold);
    if (!(std::fabs((long double)result_ - gold) <= tol))
      return {false, std::string(kernel_.name) + ": sum " + std::to_string((double)result_) +
                         ", expected " + std::to_string((double)gold)};
    return {};
  }
  const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), output());
  for (std::size_t i = 0; i < n; ++i) {
    const T a = stream_init_a<T>(i), b = stream_init_b<T>(i);
    T want = 0;
    switch (kernel_.op) {
      case StreamOp::kCopy:
        want = a;
        break;
      case StreamOp::kScale:
        want = q * a;
        break;
      case StreamOp::kAdd:
        want = a + b;
        break;
      case StreamOp::kTriad:
        want = std::fma(q, b, a);
        break;
      default:
        want = q;
        break;
    }
    if (!(std::fabs(out(i) - want) <= 4 * epsilon<T>() * std::fabs(want)))
      return {false, std::string(kernel_.name) + ": element " + std::to_string(i) + " is " +
                         std::to_string((double)out(i)) + ", expected " +
                         std::to_string((double)want)};
  }
  return {};
}

}  // namespace ridgeline
