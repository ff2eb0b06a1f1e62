// The memory a run may use honours the memory cgroup (v1 and v2, every level up to the root).
#include "harness/context/memory_limit.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

class CgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ridgeline-cgroup-" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void put(const std::string& file, const std::string& text) {
    fs::create_directories((root_ / file).parent_path());
    std::ofstream(root_ / file) << text << "\n";
  }
  std::optional<CgroupMemory> read(const std::string& self) {
    return cgroup_memory(self, root_.string());
  }
  fs::path root_;
};

TEST_F(CgroupTree, V2LimitMinusUsage) {
  put("box/memory.max", "268435456");
  put("box/memory.current", "67108864");
  put("memory.max", "max");
  const auto m = read("0::/box\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->limit_bytes, 268435456u);
  EXPECT_EQ(m->available_bytes, 268435456u - 67108864u);
}

TEST_F(CgroupTree, TightestAncestorWins) {
  put("outer/memory.max", "1073741824");
  put("outer/memory.current", "1000000000");
  put("outer/inner/memory.max", "536870912");
  put("outer/inner/memory.current", "1000");
  const auto m = read("0::/outer/inner\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->limit_bytes, 536870912u);
  EXPECT_EQ(m->available_bytes, 1073741824u - 1000000000u);  // the parent is nearly full
}

TEST_F(CgroupTree, V1MemoryControllerAndItsNoLimitValue) {
  put("memory/docker/abc/memory.limit_in_bytes", "268435456");
  put("memory/docker/abc/memory.usage_in_bytes", "1048576");
  put("memory/memory.limit_in_bytes", "9223372036854771712");  // v1's "unlimited"
  const auto m = read("12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->limit_bytes, 268435456u);
  EXPECT_EQ(m->available_bytes, 268435456u - 1048576u);
}

TEST_F(CgroupTree, HybridLayoutReadsUnified) {
  put("unified/svc/memory.max", "1048576");
  put("unified/svc/memory.current", "0");
  const auto m = read("0::/svc\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->limit_bytes, 1048576u);
}

TEST_F(CgroupTree, NoLimitAnywhereIsNoLimit) {
  put("memory.max", "max");
  put("memory/memory.limit_in_bytes", "9223372036854771712");
  EXPECT_FALSE(read("4:memory:/\n0::/\n"));
  EXPECT_FALSE(read(""));
  EXPECT_FALSE(read("garbage without colons\n"));
}

TEST_F(CgroupTree, UsageAboveLimitLeavesNothing) {
  put("memory.max", "1000");
  put("memory.current", "5000");
  const auto m = read("0::/\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->available_bytes, 0u);
}

}  // namespace
}  // namespace ridgeline
