#pragma once
// A scalar that counts what a kernel does with it: every arithmetic operation (an FMA counts 2),
// every value read from an array and every value written to one. Arrays are told from locals,
// temporaries and constants by address: array memory is neither on the running thread's stack
// nor in the executable's static storage. Run a probe's kernel on the Serial space with this as
// its element type and the counts are an independent measure of its FLOPs and bytes, not the
// formulas the probe states.
#include <pthread.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <type_traits>

#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/dtype.hpp"

namespace ridgeline::test {

struct OpCounts {
  long long flops = 0, loads = 0, stores = 0;
};
inline OpCounts g_counts;

}  // namespace ridgeline::test

// The executable's image, from its first byte to the end of .bss (GNU ld defines both).
extern "C" char __executable_start[], _end[];

namespace ridgeline::test {

inline bool on_stack(const void* p) {
  thread_local const char* lo = nullptr;
  thread_local const char* hi = nullptr;
  if (!lo) {
    pthread_attr_t attr;
    void* base = nullptr;
    std::size_t size = 0;
    pthread_getattr_np(pthread_self(), &attr);
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    lo = static_cast<const char*>(base);
    hi = lo + size;
  }
  const char* c = static_cast<const char*>(p);
  return lo <= c && c < hi;
}

inline bool in_array(const void* p) {
  const char* c = static_cast<const char*>(p);
  return !on_stack(p) && !(__executable_start <= c && c < _end);
}

class Counted {
 public:
  constexpr Counted() = default;
  constexpr Counted(double v) : v_(v) {}  // NOLINT: literals and T(0.25) in probe code
  constexpr Counted(const Counted& o) : v_(o.v_) { read(o); }
  // runtime_value() (fma_recurrence.hpp) hands α and β back from a volatile local: a stack
  // value, never counted.
  Counted(const volatile Counted& o) : v_(o.v_) {}
  constexpr Counted& operator=(const Counted& o) {
    read(o);
    v_ = o.v_;
    wrote();
    return *this;
  }
  constexpr operator double() const { return v_; }  // NOLINT: verification code mixes in doubles

  constexpr Counted& operator+=(const Counted& o) {
    read(o), read(*this), flop(1);
    v_ += o.v_;
    wrote();
    return *this;
  }
  friend constexpr Counted operator+(const Counted& a, const Counted& b) {
    return op(a, b, a.v_ + b.v_);
  }
  friend constexpr Counted operator-(const Counted& a, const Counted& b) {
    return op(a, b, a.v_ - b.v_);
  }
  friend constexpr Counted operator*(const Counted& a, const Counted& b) {
    return op(a, b, a.v_ * b.v_);
  }
  friend constexpr Counted operator/(const Counted& a, const Counted& b) {
    return op(a, b, a.v_ / b.v_);
  }

  // Mixed with a built-in number: exact matches, so no conversion is ambiguous.
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  friend constexpr Counted operator*(A a, const Counted& b) {
    return Counted(a) * b;
  }
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  friend constexpr Counted operator*(const Counted& a, A b) {
    return a * Counted(b);
  }
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  friend constexpr bool operator<=(A a, const Counted& b) {
    return a <= b.v_;
  }
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  friend constexpr bool operator<=(const Counted& a, A b) {
    return a.v_ <= b;
  }
  friend constexpr bool operator<=(const Counted& a, const Counted& b) { return a.v_ <= b.v_; }
  friend constexpr bool operator!=(const Counted& a, const Counted& b) { return a.v_ != b.v_; }

  friend Counted fused(Counted a, Counted b, Counted c) {  // the arguments' copies count the reads
    flop(2);
    return Counted(std::fma(a.v_, b.v_, c.v_));
  }

 private:
  static constexpr Counted op(const Counted& a, const Counted& b, double v) {
    read(a), read(b), flop(1);
    return Counted(v);
  }
  static constexpr void flop(int n) {
    if (!__builtin_is_constant_evaluated()) g_counts.flops += n;
  }
  static constexpr void read(const Counted& from) {
    if (!__builtin_is_constant_evaluated() && in_array(&from)) ++g_counts.loads;
  }
  constexpr void wrote() const {
    if (!__builtin_is_constant_evaluated() && in_array(this)) ++g_counts.stores;
  }
  double v_ = 0;
};

}  // namespace ridgeline::test

namespace ridgeline {
template <>
constexpr const char* dtype_name<test::Counted>() {
  return "counted";
}
namespace compat {
template <>
inline test::Counted fma<test::Counted>(test::Counted a, test::Counted b, test::Counted c) {
  return fused(a, b, c);
}
}  // namespace compat
}  // namespace ridgeline
