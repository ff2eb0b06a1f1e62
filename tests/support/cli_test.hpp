#pragma once
// What every test of the harness CLI starts from: the ridgeline binary, the tiny sweep profile
// and a fresh directory for the test's files (removed afterwards).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.hpp"

namespace ridgeline::test {

inline const std::string kBin = RIDGELINE_BIN;
inline const std::string kTiny = std::string(RIDGELINE_TEST_DATA) + "/tiny-sweep.json";

class CliTest : public ::testing::Test {
 protected:
  std::string path(const std::string& file) const { return (dir_ / file).string(); }
  TempDir tmp_;
  std::filesystem::path dir_{tmp_.path};
};

}  // namespace ridgeline::test
