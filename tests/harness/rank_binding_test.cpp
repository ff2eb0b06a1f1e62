// Where an MPI rank runs: the launcher's environment and each rank's share of a node's CPUs.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "harness/mpi/cpu_binding.hpp"
#include "harness/mpi/launch.hpp"

namespace ridgeline {
namespace {

TEST(RankBinding, SharesSplitTheCpusWithoutOverlapOrGaps) {
  const std::vector<int> cpus = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<int> seen;
  for (int r = 0; r < 3; ++r) {
    const auto share = cpu_share(cpus, r, 3);
    EXPECT_EQ(share.size(), r == 0 ? 4u : 3u) << r;  // the remainder goes to the first ranks
    seen.insert(seen.end(), share.begin(), share.end());
  }
  EXPECT_EQ(seen, cpus);
  // More ranks than CPUs (an oversubscribed test job): one CPU each, round robin.
  EXPECT_EQ(cpu_share({4, 5}, 3, 4), (std::vector<int>{5}));
  EXPECT_EQ(cpu_share({4, 5}, 0, 1), (std::vector<int>{4, 5}));
}

TEST(RankBinding, CpuListsRoundTrip) {
  EXPECT_EQ(cpu_list_text({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_TRUE(parse_cpu_list("").empty());
  EXPECT_THROW(parse_cpu_list("3-1"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("1;2"), std::invalid_argument);
  EXPECT_FALSE(allowed_cpus().empty());
}

class LaunchEnv : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVars) unsetenv(v);
  }
  void TearDown() override { SetUp(); }
  static constexpr const char* kVars[] = {"OMPI_COMM_WORLD_RANK",
                                          "OMPI_COMM_WORLD_SIZE",
                                          "OMPI_COMM_WORLD_LOCAL_RANK",
                                          "OMPI_COMM_WORLD_LOCAL_SIZE",
                                          "SLURM_PROCID",
                                          "SLURM_NTASKS",
                                          "SLURM_LOCALID",
                                          "SLURM_STEP_ID",
                                          "SLURM_STEPID",
                                          "SLURM_NTASKS_PER_NODE",
                                          "PMIX_RANK",
                                          "PMI_RANK",
                                          "PMI_SIZE"};
};

TEST_F(LaunchEnv, PlainRunIsOneRank) {
  const Launch l = detect_launch();
  EXPECT_FALSE(l.under_launcher);
  EXPECT_EQ(l.size, 1);
}

TEST_F(LaunchEnv, OpenMpiRanks) {
  setenv("OMPI_COMM_WORLD_RANK", "5", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  const Launch l = detect_launch();
  EXPECT_TRUE(l.under_launcher);
  EXPECT_EQ(l.launcher, "Open MPI");
  EXPECT_EQ(l.rank, 5);
  EXPECT_EQ(l.size, 8);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_size, 4);
}

TEST_F(LaunchEnv, SlurmCountsOnlyInsideAJobStep) {
  setenv("SLURM_PROCID", "0", 1);
  setenv("SLURM_NTASKS", "4", 1);
  EXPECT_FALSE(detect_launch().under_launcher) << "a batch script's own shell is no rank";
  setenv("SLURM_STEP_ID", "0", 1);
  setenv("SLURM_LOCALID", "0", 1);
  setenv("SLURM_NTASKS_PER_NODE", "4(x2)", 1);  // Slurm's compressed form: not a count
  const Launch l = detect_launch();
  EXPECT_TRUE(l.under_launcher);
  EXPECT_EQ(l.size, 4);
  EXPECT_EQ(l.local_size, 4);  // unknown per node: the job's size bounds it
}

}  // namespace
}  // namespace ridgeline
