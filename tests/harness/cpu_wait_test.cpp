// The run-queue wait the harness records per sample (sweep/cpu_wait.hpp): arithmetic on made-up
// readings, then a real contention: two threads pinned to one CPU must each wait about half the
// time, and the recorded share must say so.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "harness/sweep/cpu_wait.hpp"

namespace ridgeline {
namespace {

TEST(CpuWait, ShareIsTheWaitOverWallTimesTheThreadsThatRan) {
  ThreadTimes before, after;
  before.by_tid = {{1, {0, 0}}, {2, {0, 0}}, {3, {5, 5}}};
  // Thread 1 ran 6 ms and waited 4 ms, thread 2 ran 10 ms, thread 3 slept; thread 4 is new.
  after.by_tid = {
      {1, {6'000'000, 4'000'000}}, {2, {10'000'000, 0}}, {3, {5, 5}}, {4, {1, 2'000'000}}};
  const CpuWait w = cpu_wait_between(before, after, 0.010);
  EXPECT_EQ(w.threads, 3);
  EXPECT_NEAR(w.share, 0.006 / (0.010 * 3), 1e-12);
  // Capped at 1; nobody ran: 0.
  EXPECT_EQ(cpu_wait_between(before, after, 1e-6).share, 1);
  EXPECT_EQ(cpu_wait_between(before, before, 0.01).threads, 0);
}

TEST(CpuWait, SummaryHasOneShareASampleTheirMedianAndTheBusyOnes) {
  const nlohmann::json j = summarize_cpu_wait({{0.01, 2}, {0.4, 2}, {0.02, 1}, {0.06, 2}});
  EXPECT_EQ(j["shares"], nlohmann::json({0.01, 0.4, 0.02, 0.06}));
  EXPECT_DOUBLE_EQ(j["median_share"].get<double>(), 0.04);
  EXPECT_EQ(j["busy_samples"], 2);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_TRUE(summarize_cpu_wait({}).is_null());
}

void spin_on_cpu0(std::atomic<bool>& stop) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
  while (!stop.load(std::memory_order_relaxed)) {
  }
}

TEST(CpuWait, TwoThreadsOnOneCpuEachWaitAboutHalfTheTime) {
  std::string why;
  const auto before = read_thread_times(&why);
  if (!before) GTEST_SKIP() << why;
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<bool> stop{false};
  std::thread a(spin_on_cpu0, std::ref(stop)), b(spin_on_cpu0, std::ref(stop));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto after = read_thread_times();  // while both still spin: both are counted
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stop = true;
  a.join();
  b.join();
  ASSERT_TRUE(after);
  const CpuWait w = cpu_wait_between(*before, *after, wall);
  // The two spinners wait ~50 % each; the main thread (asleep, then briefly running) dilutes
  // the share to a third at most. Other load on the machine only adds waiting.
  EXPECT_GE(w.threads, 2);
  EXPECT_GT(w.share, 0.2) << "threads " << w.threads;
}

}  // namespace
}  // namespace ridgeline
