#pragma once
// Kernels and verification of StreamProbe (stream_probe.hpp).
#include <cmath>
#include <string>

namespace ridgeline {

template <class Space, class T>
void StreamProbe<Space, T>::run() {
  // Only the path of this space's kind is instantiated: the host kernels are not compiled for
  // the device (dead kernels there, minutes of nvcc time).
  if constexpr (kIsDeviceSpace<Space>)
    run_device();
  else
    run_host();
}

template <class Space, class T>
void StreamProbe<Space, T>::run_host() {
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
          result_);
      break;
    }
  }
}

template <class Space, class T>
void StreamProbe<Space, T>::run_device() {
  for (int launch = 0; launch < sweep_.launches; ++launch) run_device_launch();
}

template <class Space, class T>
void StreamProbe<Space, T>::run_device_launch() {
  switch (kernel_.op) {
    case StreamOp::kCopy:
      return run_device_op<StreamOp::kCopy>();
    case StreamOp::kScale:
      return run_device_op<StreamOp::kScale>();
    case StreamOp::kAdd:
      return run_device_op<StreamOp::kAdd>();
    case StreamOp::kTriad:
      return run_device_op<StreamOp::kTriad>();
    case StreamOp::kDot:
      return run_device_op<StreamOp::kDot>();
    case StreamOp::kRead:
      return run_device_op<StreamOp::kRead>();
    case StreamOp::kFill:
      return run_device_op<StreamOp::kFill>();
  }
}

// One kernel per operation, so each compiles to straight-line code: W loads per input array,
// then the arithmetic, then W stores (or W accumulations).
template <class Space, class T>
template <StreamOp Op>
void StreamProbe<Space, T>::run_device_op() {
  constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
  // Plain `if` on these below: nvcc refuses a lambda's first capture inside an `if constexpr`.
  constexpr bool kReads = Op != StreamOp::kFill;
  constexpr bool kReadsB = Op == StreamOp::kAdd || Op == StreamOp::kTriad || Op == StreamOp::kDot;
  const auto l = layout_;
  const DeviceSweep sweep = sweep_;
  const int passes = passes_;
  const T q = kStreamScalar<T>;
  T* const a = a_.data();
  T* const b = b_.data();
  T* const c = c_.data();
  T* const out = Op == StreamOp::kFill                               ? a
                 : (Op == StreamOp::kCopy || Op == StreamOp::kScale) ? b
                                                                     : c;
  // Thread g starts at chunk g mod items and moves by `rotation` per pass (DeviceSweep).
  if constexpr (Op == StreamOp::kDot || Op == StreamOp::kRead) {
    // Kokkos' reduction with 256-thread blocks and at most 64 registers (4 blocks, 1024 threads
    // per SM on sm_90): 8-16 loads of 8 bytes in flight per thread are 64-128 KiB per SM, and
    // no spills (a cap at 32 registers spilled the fp64 dot to local memory on the first H200
    // run: 35 LDL/STL, 0.85 of the device copy).
    const Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<256, 4>> threads(0,
                                                                           sweep.threads(l.items));
    Kokkos::parallel_reduce(
        kernel_label(), threads,
        KOKKOS_LAMBDA(const std::size_t g, T& total) {
          T acc[W] = {};
          std::size_t item = g % l.items;
          for (int p = 0; p < passes; ++p) {
            [[maybe_unused]] T ra[W], rb[W];
            for (std::size_t j = 0; j < W; ++j) {
              ra[j] = a[l.index(item, j)];
              if (kReadsB) rb[j] = b[l.index(item, j)];
            }
            for (std::size_t j = 0; j < W; ++j) {
              if constexpr (Op == StreamOp::kDot)
                acc[j] = compat::fma(ra[j], rb[j], acc[j]);
              else
                acc[j] += ra[j];
            }
            item += sweep.rotation;
            if (item >= l.items) item -= l.items;
          }
          for (std::size_t j = 0; j < W; ++j) total += acc[j];
        },
        result_);
  } else {
    const typename LaunchShape<Space>::Policy threads(0, sweep.threads(l.items));
    Kokkos::parallel_for(
        kernel_label(), threads, KOKKOS_LAMBDA(const std::size_t g) {
          std::size_t item = g % l.items;
          for (int p = 0; p < passes; ++p) {
            [[maybe_unused]] T ra[W], rb[W];
            for (std::size_t j = 0; j < W; ++j) {
              if (kReads) ra[j] = a[l.index(item, j)];
              if (kReadsB) rb[j] = b[l.index(item, j)];
            }
            for (std::size_t j = 0; j < W; ++j) {
              T v = q;  // fill
              if constexpr (Op == StreamOp::kCopy) v = ra[j];
              if constexpr (Op == StreamOp::kScale) v = q * ra[j];
              if constexpr (Op == StreamOp::kAdd) v = ra[j] + rb[j];
              if constexpr (Op == StreamOp::kTriad) v = compat::fma(q, rb[j], ra[j]);
              out[l.index(item, j)] = v;
            }
            item += sweep.rotation;
            if (item >= l.items) item -= l.items;
          }
        });
  }
}

template <class Space, class T>
Verification StreamProbe<Space, T>::verify() {
  const std::size_t n = layout_.elements();
  const T q = kStreamScalar<T>;
  if (kernel_.reduces) {
    // The inputs repeat with period 35 (i mod 7 and i mod 5): sum one period per residue class.
    long double gold = 0;
    for (std::size_t r = 0; r < 35 && r < n; ++r) {
      const long double count = (long double)(n / 35 + (r < n % 35 ? 1 : 0));
      const long double a = stream_init_a<T>(r);
      gold += count * (kernel_.op == StreamOp::kDot ? a * (long double)stream_init_b<T>(r) : a);
    }
    gold *= double(passes_) * double(sweep_.replicas);  // per launch: the result is the last one
    const long double result = read_result();
    // Worst-case rounding of the longest chain of dependent additions. Host: each accumulator's
    // run, then the W accumulators, then the items. Device: each thread's passes, the threads a
    // reduction thread folds in sequence (Kokkos launches at least 1024 of them), W, and a tree.
    // Values are multiples of 1/32, so small sums are exact and the bound is rarely approached.
    constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
    const double threads = double(sweep_.threads(layout_.items));
    const double chain = kIsDeviceSpace<Space>
                             ? double(passes_) * std::ceil(threads / 1024) + W + 64
                             : double(layout_.per_item) * passes_ / W + W + double(layout_.items);
    const long double tol = chain * epsilon<T>() * std::fabs(gold);
    if (!(std::fabs(result - gold) <= tol))
      return {false, std::string(kernel_.name) + ": sum " + std::to_string((double)result) +
                         ", expected " + std::to_string((double)gold)};
    return {};
  }
  if constexpr (kIsDeviceSpace<Space>) return verify_on_device();
  const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), output());
  for (std::size_t i = 0; i < n; ++i) {
    const T want = expected_element(kernel_.op, q, i);
    if (!(std::fabs(out(i) - want) <= 4 * epsilon<T>() * std::fabs(want)))
      return {false, std::string(kernel_.name) + ": element " + std::to_string(i) + " is " +
                         std::to_string((double)out(i)) + ", expected " +
                         std::to_string((double)want)};
  }
  return {};
}

// Device arrays are gigabytes: every element is checked where it lives, and only the first wrong
// one (if any) comes to the host.
template <class Space, class T>
Verification StreamProbe<Space, T>::verify_on_device() {
  const std::size_t n = layout_.elements();
  const View out = output();
  const StreamOp op = kernel_.op;
  const T q = kStreamScalar<T>;
  const T rel = 4 * epsilon<T>();
  std::size_t first_bad = n;  // Min's identity is the largest size_t: >= n means none
  Kokkos::parallel_reduce(
      "ridgeline::stream_verify", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::size_t i, std::size_t& bad) {
        const T want = expected_element(op, q, i);
        const T diff = out(i) - want, tol = rel * (want < 0 ? -want : want);
        if (!(diff <= tol && -diff <= tol) && i < bad) bad = i;
      },
      Kokkos::Min<std::size_t>(first_bad));
  if (first_bad >= n) return {};
  T got{};
  Kokkos::deep_copy(got, Kokkos::subview(out, first_bad));
  return {false, std::string(kernel_.name) + ": element " + std::to_string(first_bad) + " is " +
                     std::to_string((double)got) + ", expected " +
                     std::to_string((double)expected_element(op, q, first_bad))};
}

}  // namespace ridgeline
