// The pieces the CUDA and HIP backends share, on the CPU build: the Lt plan cache
// (backends/gemm_plan_cache.hpp) and the GPU error check (backends/gpu_check.hpp), with stand-in
// handles and a stand-in runtime.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "backends/gemm_plan_cache.hpp"
#include "backends/gpu_check.hpp"

namespace ridgeline {
namespace plan_cache_test {

struct Handle {
  int id;
};
using Plan = LtPlan<Handle*, Handle*, int>;

// Makes plans from a pool of handles and records what was destroyed.
struct FakeLibrary {
  std::vector<Handle> pool = std::vector<Handle>(64);
  int made = 0, described = 0, chosen = 0;
  std::vector<int> destroyed;
  Handle* make() {
    pool[made].id = made;
    return &pool[made++];
  }
  Plan describe() {
    ++described;
    Plan p;
    p.desc = make();
    p.a = make();
    p.b = make();
    p.c = make();
    return p;
  }
  void release(Plan& p) {
    p.release([this](Handle* h) { destroyed.push_back(h->id); },
              [this](Handle* h) { destroyed.push_back(h->id); });
  }
};

TEST(GemmPlanCache, OnePlanPerTypeAndShapeMadeOnFirstUse) {
  FakeLibrary lib;
  GemmPlanCache<Plan> cache;
  const auto get = [&](GemmType t, GemmShape s) -> Plan& {
    return cache.get(
        t, s, [&] { return lib.describe(); },
        [&](Plan& p) {
          ++lib.chosen;
          p.algo = 7;
          p.choice.algorithm = "id 7";
        },
        [&](Plan& p) { lib.release(p); });
  };
  Plan& first = get(GemmType::kBf16, {64, 8192, 8192});
  EXPECT_EQ(first.algo, 7);
  EXPECT_EQ(&get(GemmType::kBf16, {64, 8192, 8192}), &first);  // kept, not made again
  get(GemmType::kFp16, {64, 8192, 8192});                      // another type
  get(GemmType::kBf16, {128, 8192, 8192});                     // another shape
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(lib.described, 3);
  EXPECT_EQ(lib.chosen, 3);
  cache.release_all([&](Plan& p) { lib.release(p); });
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(lib.destroyed.size(), 12u);  // a descriptor and three layouts each
}

TEST(GemmPlanCache, AChoiceThatThrowsReleasesThePlanAndCachesNothing) {
  FakeLibrary lib;
  GemmPlanCache<Plan> cache;
  const GemmShape s{2048, 2048, 2048};
  const auto fails = [&] {
    cache.get(
        GemmType::kFp8E4m3, s, [&] { return lib.describe(); },
        [](Plan&) { throw std::runtime_error("the heuristic offered no algorithm"); },
        [&](Plan& p) { lib.release(p); });
  };
  EXPECT_THROW(fails(), std::runtime_error);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(lib.destroyed, (std::vector<int>{1, 2, 3, 0}));  // layouts, then the descriptor
  EXPECT_THROW(fails(), std::runtime_error);                 // tried again, not a cached failure
  EXPECT_EQ(lib.described, 2);
}

TEST(GemmPlanCache, APartlyMadePlanReleasesWhatItHas) {
  FakeLibrary lib;
  Plan p;
  p.desc = lib.make();
  p.a = lib.make();
  lib.release(p);
  EXPECT_EQ(lib.destroyed, (std::vector<int>{1, 0}));
  EXPECT_EQ(p.desc, nullptr);
  EXPECT_EQ(p.a, nullptr);
}

// A stand-in runtime: its error type, success value and the two texts.
enum FakeError { kFakeSuccess = 0, kFakeOutOfMemory = 2 };
const char* fake_name(FakeError e) { return e == kFakeOutOfMemory ? "fakeErrorMemory" : "?"; }
const char* fake_text(FakeError e) { return e == kFakeOutOfMemory ? "out of memory" : "?"; }
FakeError fake_malloc(bool fail) { return fail ? kFakeOutOfMemory : kFakeSuccess; }

TEST(GpuCheck, AFailedCallThrowsWithFileLineCallAndTheRuntimesTexts) {
  EXPECT_NO_THROW(
      RIDGELINE_GPU_CHECK(fake_malloc(false), FakeError, kFakeSuccess, fake_name, fake_text));
  try {
    RIDGELINE_GPU_CHECK(fake_malloc(true), FakeError, kFakeSuccess, fake_name, fake_text);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gemm_plan_cache_test.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find(": fake_malloc(true): fakeErrorMemory: out of memory"), std::string::npos)
        << what;
  }
}

}  // namespace plan_cache_test
}  // namespace ridgeline
