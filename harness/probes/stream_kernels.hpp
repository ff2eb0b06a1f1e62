#pragma once
// The stream kernels (kStreamKernels: operations, with the catalog's counts) and how a
// device-space stream kernel sweeps its array (DeviceSweep), without Kokkos: the probes
// (stream_probe.hpp) run them, and the device outline (harness/sweep/plan_outline.hpp) sizes and
// skips a GPU's points from the same definitions on a build that has no GPU space.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "results/probe_catalog.hpp"

namespace ridgeline {

// kUpdateXy last: the GPU code checks (tools/{cuda,hip}/check_codegen.py) name the device kernels
// by the operation's number.
enum class StreamOp { kCopy, kScale, kAdd, kTriad, kDot, kRead, kFill, kUpdateXy };

// The operation a catalog probe's `kernel` names.
struct StreamOpName {
  StreamOp op;
  std::string_view name;
};
inline constexpr StreamOpName kStreamOps[] = {
    {StreamOp::kCopy, "copy"},   {StreamOp::kScale, "scale"},       {StreamOp::kAdd, "add"},
    {StreamOp::kTriad, "triad"}, {StreamOp::kDot, "dot"},           {StreamOp::kRead, "read"},
    {StreamOp::kFill, "fill"},   {StreamOp::kUpdateXy, "update_xy"}};

// One bandwidth probe's kernel: its operation and the catalog's counts per element
// (results/probe_catalog.hpp, the only place they are written).
struct StreamKernel {
  StreamOp op = StreamOp::kCopy;
  const char* name = "";  // the bandwidth probe's; Kokkos label `ridgeline::<name>`
  int flops = 0;          // per element
  int arrays = 0;    // arrays touched per element (the working set is arrays · n · sizeof(T))
  int accesses = 0;  // array reads and writes per element (bytes = accesses · sizeof(T)); above
                     // `arrays` when the output array is also read (in place)
  bool reduces = false;      // writes nothing: a sum comes back
  bool nontemporal = false;  // streaming stores where the host ISA has them
  // Host spaces combine the array's 32-bit words with XORs and integer adds, 0 FLOPs
  // (word_sum.hpp); `flops` is then the device kernels' count.
  bool host_words = false;
};

namespace stream_detail {
constexpr bool runs_stream_kernel(const ProbeSpec& p) {
  return dram_stream(p.family) && !p.kernel.empty();
}
constexpr std::size_t count() {
  std::size_t n = 0;
  for (const ProbeSpec& p : kProbes) n += runs_stream_kernel(p) ? 1 : 0;
  return n;
}
// A kernel whose operation no StreamOp names has op kCopy and `found` false: the static_assert
// below turns that into a build error.
struct Made {
  StreamKernel kernels[count()];
  bool found = true;
};
constexpr Made make() {
  Made m{};
  std::size_t i = 0;
  for (const ProbeSpec& p : kProbes) {
    if (!runs_stream_kernel(p)) continue;
    StreamKernel& k = m.kernels[i++];
    bool known = false;
    for (const StreamOpName& o : kStreamOps)
      if (o.name == p.kernel) {
        k.op = o.op;
        known = true;
      }
    m.found = m.found && known;
    k.name = p.name.data();  // a literal: NUL-terminated
    k.flops = p.counts.flops;
    k.arrays = p.counts.arrays;
    k.accesses = p.traffic.counted();
    k.reduces = p.traffic.writes == 0;
    k.nontemporal = p.counts.nontemporal;
    k.host_words = p.counts.host_words;
    // StreamProbe's word sum is read's kernel: it sums a, and nothing else.
    m.found = m.found && (!k.host_words || k.op == StreamOp::kRead);
  }
  return m;
}
inline constexpr Made kMade = make();
static_assert(kMade.found,
              "a bandwidth probe of the catalog names a kernel no StreamOp runs, or sums words on "
              "hosts with another kernel than read");
}  // namespace stream_detail

// Every bandwidth probe's kernel, in catalog order.
inline constexpr const auto& kStreamKernels = stream_detail::kMade.kernels;

// A cache probe runs the bandwidth probe its `kernel` names. (Names, not a pointer test: GCC's
// -fsanitize=undefined makes a constexpr pointer test against null non-constant.)
constexpr bool swept_kernels_exist() {
  for (const ProbeSpec& p : kProbes) {
    if (!sweeps_working_set(p.family) || p.kernel.empty()) continue;
    bool exists = false;
    for (const StreamKernel& k : kStreamKernels) exists = exists || p.kernel == k.name;
    if (!exists) return false;
  }
  return true;
}
static_assert(swept_kernels_exist(), "a cache probe of the catalog names no bandwidth kernel");

// nullptr if no stream kernel has that name (a bandwidth probe's).
constexpr const StreamKernel* find_stream_kernel(std::string_view name) {
  for (const StreamKernel& k : kStreamKernels)
    if (name == k.name) return &k;
  return nullptr;
}

// The kernel a catalog probe runs: a bandwidth probe's own (by its name: two probes may run one
// operation, as copy and copy_nt), a cache probe's the bandwidth probe its `kernel` names;
// nullptr for probes of no stream kernel.
constexpr const StreamKernel* stream_kernel_of(const ProbeSpec& p) {
  if (p.kernel.empty()) return nullptr;
  return find_stream_kernel(dram_stream(p.family) ? p.name : p.kernel);
}

// The most 16-byte vectors a device stream array may hold (32 GiB): GridStride counts them in 32
// bits, a counter below the count plus a step below it (layout.hpp).
inline constexpr std::size_t kMaxGridVectors = std::size_t(1) << 31;

// GPU thread blocks of the harness' kernels (layout.hpp's LaunchShape::kBlockSize explains 128).
inline constexpr std::size_t kDeviceBlockSize = 128;

// Device streams' resident threads R from the space's concurrency (LaunchShape::resident_threads
// explains the half).
inline std::size_t device_resident_threads(long long concurrency) {
  const auto c = static_cast<std::size_t>(std::max(concurrency, 1LL));
  return std::max<std::size_t>(kDeviceBlockSize, c / 2 / kDeviceBlockSize * kDeviceBlockSize);
}

// How a device-space stream kernel sweeps (GridStride in layout.hpp): one launch per call on the
// resident grid, every pass inside it, so no launch overhead sits in a cache point's time (one
// launch per pass above the L2 added ~10.6 µs per pass: a fake plateau at 64-128 MiB on the H200).
// Bandwidth points: one pass, span = every vector once. Cache points:
//   - the start moves by `rotation` vectors per pass, ~0.618 of the array (golden ratio), so a
//     thread's next pass reads other lines than its last: a re-read comes from the level the whole
//     set fits in, not from the thread's own L1 lines. A multiple of 8 vectors (128 bytes): each
//     block's run of vectors stays whole cache lines, no line shared by two blocks' stores.
//   - above the last-level cache no rotation: every vector is then read by one thread, a whole
//     pass after its last read (rotated in-kernel passes let other threads re-read a chunk still
//     in L2: a 4 GiB read showed 6.8 TB/s on the H200, above HBM's 4.8);
//   - reading kernels of sets smaller than a round of the grid (U vectors per thread) read every
//     vector span/vectors times per pass, so the grid is full; writing kernels never replicate
//     (thousands of threads storing to one line measure the contention, not the cache): each
//     vector has one writer per pass, so they need a vector per resident thread.
struct DeviceSweep {
  std::size_t threads = 0;   // resident threads R
  std::size_t span = 0;      // slots per pass: vectors × (reads of each vector per pass)
  std::size_t rotation = 0;  // vectors the pass start moves by (< vectors)
  std::size_t step = 0;      // threads mod vectors: the vectors between a thread's slots
  int passes = 1;            // passes per launch
  std::string unfit;         // why the point cannot be measured this way; empty if it can

  std::size_t reads_per_pass(std::size_t vectors) const { return vectors ? span / vectors : 0; }

  // `passes`: the planner's sweeps per call; `round`: vectors per thread and round.
  static DeviceSweep make(std::size_t vectors, std::size_t round, std::size_t threads,
                          std::size_t working_set, bool cache, bool writes, int passes,
                          std::uint64_t llc_bytes) {
    DeviceSweep s;
    s.threads = threads;
    s.span = vectors;
    s.passes = passes;
    if (vectors > kMaxGridVectors) {
      s.unfit = "a device stream array holds at most " + std::to_string(kMaxGridVectors) +
                " 16-byte vectors (32-bit slot counters); this one has " + std::to_string(vectors);
      return s;
    }
    if (vectors) s.step = threads % vectors;
    if (!cache || vectors == 0) return s;
    if (writes && vectors < threads) {
      s.unfit = "a writing cache kernel needs a 16-byte vector per resident thread (" +
                std::to_string(threads) + ") so that no two threads store to one element; this " +
                "working set has " + std::to_string(vectors);
      return s;
    }
    if (!writes && vectors < round * threads) {
      const std::size_t reads = (round * threads + vectors - 1) / vectors;
      s.span = vectors * reads;
      s.passes = static_cast<int>(std::max<std::size_t>(1, std::size_t(passes) / reads));
    }
    if (!(llc_bytes && working_set > llc_bytes))
      s.rotation = static_cast<std::size_t>(0.6180339887 * double(vectors)) / 8 * 8 % vectors;
    return s;
  }
};

}  // namespace ridgeline
