#pragma once
// The plans of an Lt-style vendor GEMM (cuBLASLt, backends/cuda/cublas_gemm.cpp; hipBLASLt,
// backends/hip/hipblaslt_gemm.cpp), written once for both: one plan per type and shape, made on
// first use and kept for the library object's life, and the plan itself, a matmul descriptor,
// three matrix layouts and the algorithm chosen, released as one. Each library gives its own
// handle types and the functions that make, choose and release. Vendor-free, so the cache's
// rules are unit-tested in the CPU build (tests/harness/gemm_plan_cache_test.cpp).
#include <cstddef>
#include <initializer_list>
#include <map>
#include <tuple>
#include <utility>

#include "backends/vendor_gemm.hpp"

namespace ridgeline {

// A matmul descriptor, the layouts of A, B and C (C is also D), the chosen algorithm and what
// the choice recorded. Null handles are not made yet, or released.
template <class Desc, class Layout, class Algo>
struct LtPlan {
  Desc desc = nullptr;
  Layout a = nullptr, b = nullptr, c = nullptr;
  Algo algo{};
  GemmChoice choice;

  // Destroys what was made (a describe() that threw part-way included) and empties the plan.
  template <class DestroyLayout, class DestroyDesc>
  void release(DestroyLayout&& destroy_layout, DestroyDesc&& destroy_desc) {
    for (Layout l : {a, b, c})
      if (l) destroy_layout(l);
    if (desc) destroy_desc(desc);
    *this = LtPlan{};
  }
};

template <class Plan>
class GemmPlanCache {
 public:
  // The plan of (type, shape): the one made before, or `describe()`'s, whose algorithm
  // `choose(plan)` picks; a choice that throws releases the plan (`release(plan)`) and caches
  // nothing, so the next call tries again.
  template <class Describe, class Choose, class Release>
  Plan& get(GemmType type, const GemmShape& s, Describe&& describe, Choose&& choose,
            Release&& release) {
    const Key key{type, s.m, s.n, s.k};
    if (auto it = plans_.find(key); it != plans_.end()) return it->second;
    Plan plan = describe();
    try {
      choose(plan);
    } catch (...) {
      release(plan);
      throw;
    }
    return plans_.emplace(key, std::move(plan)).first->second;
  }

  // Every plan released, as the library object goes (before its handle is destroyed).
  template <class Release>
  void release_all(Release&& release) {
    for (auto& [key, plan] : plans_) release(plan);
    plans_.clear();
  }

  std::size_t size() const { return plans_.size(); }

 private:
  using Key = std::tuple<GemmType, std::size_t, std::size_t, std::size_t>;
  std::map<Key, Plan> plans_;
};

}  // namespace ridgeline
