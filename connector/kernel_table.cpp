#include "connector/kernel_table.hpp"

#include <algorithm>

namespace ridgeline::kp {

const char* kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::parallel_for:
      return "for";
    case KernelKind::parallel_reduce:
      return "reduce";
    case KernelKind::parallel_scan:
      return "scan";
  }
  return "for";
}

KernelRecord* KernelTable::find_or_add(const char* label, std::uint32_t dev_id, KernelKind kind) {
  // One reused buffer per thread: building the key allocates nothing after the first calls.
  thread_local std::string key;
  std::lock_guard<std::mutex> lock(mutex_);
  key.clear();
  key += static_cast<char>(kind);
  key.append(reinterpret_cast<const char*>(&dev_id), sizeof dev_id);
  key += region_;
  key += '\x1f';  // a unit separator: neither labels nor region names hold it in practice
  key += label;
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  KernelRecord& r = records_.emplace_back();
  r.label = label;
  r.region = region_;
  r.dev_id = dev_id;
  r.kind = kind;
  index_.emplace(key, &r);
  return &r;
}

void KernelTable::add_call(KernelRecord* r, double seconds, const Counts* counts) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (r->calls == 0 || seconds < r->min_s) r->min_s = seconds;
  if (r->calls == 0 || seconds > r->max_s) r->max_s = seconds;
  ++r->calls;
  r->total_s += seconds;
  if (counts) {
    if (r->annotated_calls == 0) {
      r->first_flop = counts->flop;
      r->first_bytes = counts->bytes;
    } else if (counts->flop != r->first_flop || counts->bytes != r->first_bytes) {
      r->counts_varied = true;
    }
    ++r->annotated_calls;
    r->flop_total += counts->flop;
    r->bytes_total += counts->bytes;
    r->annotated_s += seconds;
  }
  if (r->kept_s.size() < kKeptCalls) {
    r->kept_s.push_back(seconds);
    return;
  }
  // Reservoir sampling (Algorithm R): call n replaces a kept one with probability kKeptCalls/n.
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  const std::uint64_t j = rng_ % static_cast<std::uint64_t>(r->calls);
  if (j < kKeptCalls) r->kept_s[j] = seconds;
}

void KernelTable::add_counts(KernelRecord* r, const std::vector<long long>& deltas) {
  std::lock_guard<std::mutex> lock(mutex_);
  r->counter_totals.resize(deltas.size(), 0);
  for (std::size_t i = 0; i < deltas.size(); ++i) r->counter_totals[i] += deltas[i];
  ++r->counted_calls;
}

void KernelTable::push_region(const char* name) {
  std::lock_guard<std::mutex> lock(mutex_);
  region_ends_.push_back(region_.size());
  region_ += '/';
  region_ += name;
}

void KernelTable::pop_region() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (region_ends_.empty()) return;  // a pop without a push: the application's bug, not ours
  region_.resize(region_ends_.back());
  region_ends_.pop_back();
}

std::vector<KernelRecord> KernelTable::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {records_.begin(), records_.end()};
}

}  // namespace ridgeline::kp
