#pragma once
// What the connector knows of each kernel: one record per label × region path × devID × kind,
// with its calls, total fenced seconds and a bounded sample of per-call seconds for the median
// and quartiles. Thread-safe: Kokkos may launch from several host threads.
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "connector/annotations.hpp"

namespace ridgeline::kp {

enum class KernelKind : char { parallel_for = 'f', parallel_reduce = 'r', parallel_scan = 's' };
const char* kind_name(KernelKind k);  // "for", "reduce", "scan"

// Per-call seconds kept per kernel: the first kKeptCalls, then a uniform reservoir sample of all
// calls, so a kernel called a billion times costs the same memory as one called 4096 times.
inline constexpr std::size_t kKeptCalls = 4096;

struct KernelRecord {
  std::string label, region;
  std::uint32_t dev_id = 0;
  KernelKind kind = KernelKind::parallel_for;
  long long calls = 0;
  double total_s = 0, min_s = 0, max_s = 0;
  std::vector<double> kept_s;  // per-call seconds: all calls, or a reservoir of kKeptCalls
  // Declared counts (ridgeline/annotate.hpp) summed over the calls that carried them, with
  // those calls' seconds: the rates are sums over sums, right when launches differ in size.
  long long annotated_calls = 0;
  double flop_total = 0, bytes_total = 0, annotated_s = 0;
  double first_flop = 0, first_bytes = 0;  // the first annotated call's counts
  bool counts_varied = false;              // some annotated call had other counts than the first
  // Hardware counter totals (papi_counters.hpp) over the calls they were read for.
  std::vector<long long> counter_totals;
  long long counted_calls = 0;
};

class KernelTable {
 public:
  // The record a kernel about to run belongs to (created on its first call). The pointer stays
  // valid for the table's life.
  KernelRecord* find_or_add(const char* label, std::uint32_t dev_id, KernelKind kind);
  // `counts`: what the application declared for this launch; nullptr when nothing was.
  void add_call(KernelRecord* r, double seconds, const Counts* counts = nullptr);
  // Adds one call's counter deltas (in the counters' order).
  void add_counts(KernelRecord* r, const std::vector<long long>& deltas);

  // Regions nest: push appends "/name" to the current path, pop removes the last part.
  void push_region(const char* name);
  void pop_region();

  std::vector<KernelRecord> snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::deque<KernelRecord> records_;  // a deque: pointers handed out stay valid as it grows
  std::unordered_map<std::string, KernelRecord*> index_;
  std::vector<std::size_t> region_ends_;  // where each open region's part begins in region_
  std::string region_;
  std::uint64_t rng_ = 0x9e3779b97f4a7c15u;  // reservoir draws (xorshift64: same on every libc)
};

}  // namespace ridgeline::kp
