#pragma once
// What every test of the harness CLI starts from: the ridgeline binary, the tiny sweep profile
// and a fresh directory for the test's files (removed afterwards).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline::test {

inline const std::string kBin = ridgeline::test::paths::kRunBin;
inline const std::string kTiny =
    std::string(ridgeline::test::paths::kTestData) + "/tiny-sweep.json";

class CliTest : public ::testing::Test {
 protected:
  std::string path(const std::string& file) const { return (dir_ / file).string(); }
  TempDir tmp_;
  std::filesystem::path dir_{tmp_.path};
};

}  // namespace ridgeline::test
