#pragma once
// The host memory a stream-holding kernel spins on (backends/cuda/cuda_backend.cpp,
// backends/hip/hip_backend.cpp): the host releases the held stream once a whole sample is
// enqueued, and reads back whether the hold ran out. Plain C++, so both device compilers see one
// layout and one way of publishing a flag.
#include <atomic>

namespace ridgeline {

struct HoldFlags {
  int release;
  int timed_out;
};

// Fenced on both sides: the spinning device sees the store after everything the host did before.
inline void store_hold_flag(int& flag, int v) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<volatile int*>(&flag) = v;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline int load_hold_flag(int& flag) { return *static_cast<volatile int*>(&flag); }

}  // namespace ridgeline
