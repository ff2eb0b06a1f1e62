#pragma once
// Helpers for the reporter's CLI tests: the binary's path, fixtures, a temporary directory.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline::test {

inline const std::string kBin = ridgeline::test::paths::kReportBin;
inline const std::string kData = ridgeline::test::paths::kTestData;

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A fixture from tests/data as JSON, to derive variants from.
inline nlohmann::json fixture(const std::string& name) {
  return nlohmann::json::parse(slurp(kData + "/" + name));
}

inline void write_json(const std::string& path, const nlohmann::json& j) {
  write_file(path, j.dump());
}

// One kernel of a kernels file (results/kernels_schema.md): `calls` 100 of `median` seconds each,
// its quartiles and extremes a little around it, no counts.
inline nlohmann::json kernel_entry(const std::string& label, double median) {
  return {{"label", label},
          {"region", "/step"},
          {"kind", "for"},
          {"space", "OpenMP"},
          {"device_id", 0},
          {"calls", 100},
          {"seconds_total", 100 * median},
          {"seconds_per_call",
           {{"median", median},
            {"p25", 0.99 * median},
            {"p75", 1.01 * median},
            {"min", 0.98 * median},
            {"max", 1.05 * median},
            {"calls_kept", 100}}},
          {"counts", nullptr}};
}

// The fixture's point of this name (nullptr when absent).
inline nlohmann::json* point_named(nlohmann::json& doc, const std::string& name) {
  for (auto& p : doc["points"])
    if (p["name"] == name) return &p;
  return nullptr;
}

// The golden file tests/data/golden/NAME is the reviewed output; RIDGELINE_UPDATE_GOLDEN=1
// rewrites it after a deliberate change (review the diff before committing).
inline void expect_golden(const std::string& got, const std::string& golden) {
  const std::string path = kData + "/golden/" + golden;
  if (std::getenv("RIDGELINE_UPDATE_GOLDEN")) write_file(path, got);
  EXPECT_EQ(got, slurp(path)) << "differs from " << path;
}

}  // namespace ridgeline::test
