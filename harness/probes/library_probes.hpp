#pragma once
// Library ceilings: what tuned libraries reach on the same space, beside our own probes. Kokkos
// Kernels forwards gemm/axpby/dot to the vendor BLAS (OpenBLAS, cuBLAS, rocBLAS) where its TPLs
// are enabled; deep_copy is the backend's memcpy. Each point records the library and the threads
// it may use (library_threads.hpp); on Serial a host BLAS is held to one thread.
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>

#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/dtype.hpp"
#include "harness/probes/library_threads.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"
#include "harness/probes/stream_probe.hpp"

namespace ridgeline {

template <class Space>
using LibraryDevice = Kokkos::Device<Space, typename Space::memory_space>;

// Square n×n GEMM, C = A·B. A(i,k) and B(k,j) take values with two fractional bits, so every
// partial sum is exact in fp32 for n < 2^18 and the result can be checked exactly.
template <class Space, class T>
class GemmProbe final : public Probe {
 public:
  using Matrix = Kokkos::View<T**, Kokkos::LayoutLeft, LibraryDevice<Space>>;

  explicit GemmProbe(std::size_t n) : n_(n) {
    info_.probe = "gemm";
    info_.family = "library";
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n * n;
    info_.working_set_bytes = 3 * n * n * sizeof(T);
    info_.flops = 2.0 * double(n) * double(n) * double(n);
    info_.bytes = 3.0 * double(n) * double(n) * sizeof(T);
    info_.params = {{"n", n}, {"library", "KokkosBlas::gemm"}};
    info_.params.update(blas_params<Space>());
    info_.name = point_name("gemm", info_.space, info_.dtype, grade("n", n));
  }
  const PointInfo& info() const override { return info_; }

  void release() override {
    a_ = Matrix();
    b_ = Matrix();
    c_ = Matrix();
  }

  void setup() override {
    a_ = Matrix("ridgeline::gemm_a", n_, n_);
    b_ = Matrix("ridgeline::gemm_b", n_, n_);
    c_ = Matrix("ridgeline::gemm_c", n_, n_);
    Matrix a = a_, b = b_;
    const std::size_t n = n_;
    Kokkos::parallel_for(
        "ridgeline::gemm_init", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const std::size_t j) {
          for (std::size_t i = 0; i < n; ++i) {
            a(i, j) = T(1) + T(i % 4) * T(0.25);
            b(i, j) = T(1) + T(j % 4) * T(0.25);
          }
        });
    fence();
  }
  void run() override {
    const SerialBlasGuard<Space> one_thread_on_serial;
    KokkosBlas::gemm("N", "N", T(1), a_, b_, T(0), c_);
  }
  void fence() override { compat::fence(Space(), "ridgeline::gemm"); }

  Verification verify() override {
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    for (std::size_t j = 0; j < n_; ++j)
      for (std::size_t i = 0; i < n_; ++i) {
        const double want = double(n_) * (1 + (i % 4) * 0.25) * (1 + (j % 4) * 0.25);
        if (std::fabs(double(c(i, j)) - want) > 8 * epsilon<T>() * want)
          return {false, "gemm: C(" + std::to_string(i) + "," + std::to_string(j) + ") is " +
                             std::to_string(double(c(i, j))) + ", expected " +
                             std::to_string(want)};
      }
    return {};
  }
  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(c_, std::make_pair(0, 1), std::make_pair(0, 1)), T(-7));
  }

 private:
  std::size_t n_;
  PointInfo info_;
  Matrix a_, b_, c_;
};

// Vector kernels through Kokkos Kernels and deep_copy: axpby (y = α·x + y, α alternating in sign
// so y returns to its start every second call), dot, and deep_copy. axpby with β = 1 is what the
// BLAS runs as axpy (and Kokkos Kernels' own kernel as y += α·x): one multiply and one add, 2 FLOPs
// per element; its bytes (x read, y read and written) are moved bytes, no write-allocate.
enum class VectorLibOp { kAxpby, kDot, kDeepCopy };

template <class Space, class T>
class VectorLibraryProbe final : public Probe {
 public:
  using Vector = Kokkos::View<T*, LibraryDevice<Space>>;

  VectorLibraryProbe(VectorLibOp op, std::size_t n) : op_(op), n_(n) {
    static const char* names[] = {"axpby", "lib_dot", "deep_copy"};
    static const int flops[] = {2, 2, 0};
    static const int arrays[] = {3, 2, 2};
    const int o = static_cast<int>(op);
    info_.probe = names[o];
    info_.family = "library";
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = 2 * n * sizeof(T);
    info_.flops = double(flops[o]) * double(n);
    info_.bytes = double(arrays[o]) * double(n) * sizeof(T);
    info_.params = {{"library", op == VectorLibOp::kDeepCopy ? "Kokkos::deep_copy"
                                : op == VectorLibOp::kDot    ? "KokkosBlas::dot"
                                                             : "KokkosBlas::axpby"}};
    if (op == VectorLibOp::kDeepCopy)
      info_.params["threads"] = deep_copy_threads();
    else
      info_.params.update(blas_params<Space>());
    info_.name = point_name(info_.probe, info_.space, info_.dtype, grade("n", n));
  }
  const PointInfo& info() const override { return info_; }

  void release() override {
    x_ = Vector();
    y_ = Vector();
    result_ = Result();
  }

  void setup() override {
    result_ = Result("ridgeline::lib_dot_result");
    odd_ = false;  // y starts at y0 again: the sign of α alternates from the first call
    x_ = Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::lib_x"), n_);
    y_ = Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::lib_y"), n_);
    Vector x = x_, y = y_;
    Kokkos::parallel_for(
        "ridgeline::lib_init", Kokkos::RangePolicy<Space>(0, n_),
        KOKKOS_LAMBDA(const std::size_t i) {
          x(i) = stream_init_a<T>(i);
          y(i) = stream_init_b<T>(i);
        });
    fence();
  }

  void run() override {
    const SerialBlasGuard<Space> one_thread_on_serial;
    switch (op_) {
      case VectorLibOp::kAxpby:
        KokkosBlas::axpby(odd_ ? -kStreamScalar<T> : kStreamScalar<T>, x_, T(1), y_);
        odd_ = !odd_;
        break;
      case VectorLibOp::kDot:
        KokkosBlas::dot(result_, x_, y_);  // into a device scalar: no host wait in the sample
        break;
      case VectorLibOp::kDeepCopy:
        Kokkos::deep_copy(Space(), y_, x_);  // on the space's stream, without global fences
        break;
    }
  }
  void fence() override { compat::fence(Space(), "ridgeline::library"); }

  Verification verify() override {
    if (op_ == VectorLibOp::kDot) {
      T result{};
      Kokkos::deep_copy(result, result_);
      long double gold = 0;
      for (std::size_t i = 0; i < n_; ++i)
        gold += (long double)stream_init_a<T>(i) * (long double)stream_init_b<T>(i);
      // Worst-case rounding bound for a sum whose order the library chooses.
      if (!(std::fabs((long double)result - gold) <= double(n_) * epsilon<T>() * gold))
        return {false, "lib_dot: " + std::to_string(double(result)) + ", expected " +
                           std::to_string(double(gold))};
      return {};
    }
    if (op_ == VectorLibOp::kAxpby && !odd_) run();  // an odd number of calls leaves y = y0 + q·x
    fence();
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_);
    for (std::size_t i = 0; i < n_; ++i) {
      const T want = op_ == VectorLibOp::kDeepCopy
                         ? stream_init_a<T>(i)
                         : stream_init_b<T>(i) + kStreamScalar<T> * stream_init_a<T>(i);
      if (!(std::fabs(y(i) - want) <= 4 * epsilon<T>() * std::fabs(want)))
        return {false, info_.probe + ": element " + std::to_string(i) + " is " +
                           std::to_string(double(y(i))) + ", expected " +
                           std::to_string(double(want))};
    }
    return {};
  }
  void corrupt_output_for_test() override {
    if (op_ == VectorLibOp::kDot) {
      T result{};
      Kokkos::deep_copy(result, result_);
      Kokkos::deep_copy(result_, T(2) * result + T(1));
    } else {
      if (op_ == VectorLibOp::kAxpby && !odd_) run();
      Kokkos::deep_copy(Kokkos::subview(y_, std::make_pair(0, 1)), T(-7));
    }
  }

 private:
  // Threads of the space that performs the copy: Kokkos 3.x copies host to host on the default
  // host space whatever space is named (the planner skips Serial there); null on devices.
  static nlohmann::json deep_copy_threads() {
    if constexpr (kIsDeviceSpace<Space>) return nullptr;
#if KOKKOS_VERSION < 40000
    return Kokkos::DefaultHostExecutionSpace().concurrency();
#else
    return Space().concurrency();
#endif
  }

  VectorLibOp op_;
  std::size_t n_;
  PointInfo info_;
  using Result = Kokkos::View<T, LibraryDevice<Space>>;
  Vector x_, y_;
  Result result_;
  bool odd_ = false;
};

}  // namespace ridgeline
