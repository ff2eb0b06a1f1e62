// The host clock from the two dependent chains: the faster chain per thread, the median thread,
// and no clock where the chains disagree (a latency that is not what the chains assume).
#include "backends/host/host_clock.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/mpi/cpu_binding.hpp"

namespace ridgeline::host {
namespace {

using ridgeline::thread_cpus;

TEST(HostClock, TheMedianThreadsFasterChain) {
  std::string why;
  // A neighbour on the second core delays its 1-clock add chain more than the imul chain.
  const auto m = clock_from({{3600, 3590}, {3420, 3610}, {3500, 3480}}, why);
  ASSERT_TRUE(m) << why;
  EXPECT_DOUBLE_EQ(m->mhz, 3600);
  EXPECT_DOUBLE_EQ(m->low_mhz, 3500);
  EXPECT_DOUBLE_EQ(m->high_mhz, 3610);
  EXPECT_EQ(m->threads, 3);
}

TEST(HostClock, ChainsThatDisagreeGiveNoClockAndSayWhy) {
  std::string why;
  // An imul of 4 clocks read as 3: the imul chain's rate is 3/4 of the add chain's.
  EXPECT_FALSE(clock_from({{3600, 3600}, {3600, 2700}}, why));
  EXPECT_NE(why.find("3600 and 2700 MHz"), std::string::npos) << why;
  why.clear();
  // Adds folded two at a time: the add chain reads twice the clock.
  EXPECT_FALSE(clock_from({{7200, 3600}}, why));
  EXPECT_FALSE(why.empty());
  why.clear();
  EXPECT_FALSE(clock_from({}, why));
  EXPECT_EQ(why, "no thread measured");
  EXPECT_TRUE(clock_from({{3600, 3600 / (1 + kClockChainsAgree) + 1}}, why)) << why;
}

// The context records the clock or why it has none (a CPU whose latencies differ, another ISA;
// a machine busy enough to slow one chain's every repetition and not the other's).
TEST(HostClock, TheContextRecordsTheClockOrWhyNot) {
  nlohmann::json cpu = nlohmann::json::object();
  const std::vector<int> cpus = thread_cpus();
  record_measured_clock(cpu, cpus);
  ASSERT_TRUE(cpu.contains("measured_clock"));
  if (cpu["measured_clock"].is_null()) {
    ASSERT_TRUE(cpu["measured_clock_unavailable"].is_string());
    EXPECT_FALSE(cpu["measured_clock_unavailable"].get<std::string>().empty());
    return;
  }
  const auto& m = cpu["measured_clock"];
  EXPECT_GT(m["mhz"].get<double>(), 100);
  EXPECT_LT(m["mhz"].get<double>(), 10000);
  EXPECT_LE(m["low_mhz"].get<double>(), m["mhz"].get<double>());
  EXPECT_GE(m["high_mhz"].get<double>(), m["mhz"].get<double>());
  EXPECT_EQ(m["threads"], std::max<std::size_t>(cpus.size(), 1)) << "one per CPU of the mask";
  EXPECT_FALSE(cpu.contains("measured_clock_unavailable"));
}

// A repetition's reading: the calling thread's clock, or why there is none (no chains for this
// ISA; the two chains disagreed, as a preempted one may).
TEST(HostClock, AReadingIsAClockOrWhyNot) {
  for (int i = 0; i < 3; ++i) {
    std::string why;
    const std::optional<double> mhz = read_clock_mhz(why);
    if (!mhz) {
      EXPECT_FALSE(why.empty());
      continue;
    }
    EXPECT_GT(*mhz, 100);
    EXPECT_LT(*mhz, 10000);
  }
}

}  // namespace
}  // namespace ridgeline::host
