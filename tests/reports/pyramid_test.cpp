// The report's memory pyramid on the committed H200 run: each level against its sheet's limit.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/machines/machine_profile.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/render/pyramid_table.hpp"
#include "reports/render/summary_tables.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

const std::string kSource = ridgeline::test::paths::kSourceDir;

// The H200 sample, its context given the L1 that files since schema 1.3 record (the run itself
// predates it) and, where asked, another device name.
std::vector<FileAnalysis> h200(double l1_bytes, const std::string& name = "NVIDIA H200") {
  nlohmann::json doc;
  std::ifstream(kSource + "/samples/h200/results.json") >> doc;
  for (auto& s : doc["context"]["spaces"])
    if (s["name"] == "Cuda") {
      if (l1_bytes > 0) s["device"]["l1_per_unit_bytes"] = l1_bytes;
      s["device"]["name"] = name;
    }
  std::vector<FileAnalysis> files;
  files.push_back(analyze(parse_results(doc.dump(), "h200.json"), 200));
  return files;
}

std::string row_of(const std::string& md, const std::string& level) {
  const auto at = md.find("| h200.json | Cuda | " + level + " |");
  if (at == std::string::npos) return {};
  return md.substr(at, md.find('\n', at) - at);
}

TEST(MemoryPyramid, EachLevelAgainstItsSheetLimitWithTheRatio) {
  const auto files = h200(256 * 1024);
  const auto sheets = load_machine_profiles(kSource + "/profiles/machines");
  std::string md;
  memory_pyramid(md, files, sheets);
  ASSERT_NE(md.find("## Memory pyramid"), std::string::npos) << md;
  // L1: its plateau against 128 B/clk × 132 SMs × 1980 MHz, the clock the peak kernels counted
  // (1979.4-1982.8 MHz; the sheet's boost clock is 1980 too).
  double l1 = 0;
  for (const auto& g : files[0].groups)
    for (const auto& sweep : g.levels)
      for (const auto& l : sweep.levels)
        if (l.name == "L1" && !l.transition) l1 = std::max(l1, l.bandwidth);
  ASSERT_GT(l1, 0);
  const std::string l1_row = row_of(md, "L1");
  // One SM's L1: every SM reads the whole set.
  EXPECT_NE(l1_row.find("| 256 KiB per unit |"), std::string::npos) << l1_row;
  EXPECT_NE(l1_row.find("128 B/clk × 132 units × 1980 MHz, measured"), std::string::npos) << l1_row;
  EXPECT_NE(l1_row.find(pct(l1 / (128.0 * 132 * 1980e6))), std::string::npos) << l1_row;
  // The L2 has no published limit; device memory is read like every level above it: B_read
  // (the fp64 dot's 4.427 TB/s, not B's 4.211 from the triad), against memory.bandwidth.
  EXPECT_NE(row_of(md, "L2").find("not on sheet"), std::string::npos) << md;
  const std::string memory = row_of(md, "device memory");
  EXPECT_NE(memory.find("(memory.bandwidth)"), std::string::npos) << memory;
  const GroupFit& fp64 = files[0].find("Cuda", "fp64")->fit;
  ASSERT_TRUE(fp64.read_bandwidth && fp64.fit);
  EXPECT_GT(fp64.read_bandwidth->value, fp64.fit->estimate.roof.bandwidth);
  EXPECT_NE(
      memory.find("| " + format_bytes_with_ci(fp64.read_bandwidth->value, fp64.read_bandwidth->ci) +
                  " | B_read, set by dot fp64 n:268435456 |"),
      std::string::npos)
      << memory;
  EXPECT_NE(memory.find(pct(fp64.read_bandwidth->value / 4.8e12)), std::string::npos) << memory;
  EXPECT_EQ(row_of(md, "SRAM"), "");  // this run had no scratch probe: no row, nothing made up
}

// The vector P graded at the clock its peak kernels counted, beside the sheet as it is; without
// those clocks (a file before they were recorded) the sheet alone.
TEST(MemoryPyramid, ThePeakIsGradedAtTheClockItsKernelsCounted) {
  const auto sheets = load_machine_profiles(kSource + "/profiles/machines");
  std::string md;
  summary_tables(md, h200(0), sheets);
  EXPECT_NE(md.find("| Cuda | fp32 | 95.1 % (95.1 % at the measured 1980 MHz) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("measured in this run (by the peak kernels as they ran): 1980 MHz"),
            std::string::npos)
      << md;

  nlohmann::json doc;
  std::ifstream(kSource + "/samples/h200/results.json") >> doc;
  for (auto& p : doc["points"])
    if (p.contains("observed") && p["observed"].is_object()) p["observed"].erase("sm_clock_mhz");
  std::vector<FileAnalysis> unclocked;
  unclocked.push_back(analyze(parse_results(doc.dump(), "h200.json"), 200));
  std::string plain;
  summary_tables(plain, unclocked, sheets);
  EXPECT_NE(plain.find("| Cuda | fp32 | 95.1 % |"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("at the measured"), std::string::npos) << plain;
}

TEST(MemoryPyramid, ADeviceWithoutASheetHasNoLimits) {
  const auto files = h200(256 * 1024, "Some GPU");
  std::string md;
  memory_pyramid(md, files, load_machine_profiles(kSource + "/profiles/machines"));
  const std::string l1_row = row_of(md, "L1");
  ASSERT_FALSE(l1_row.empty()) << md;
  EXPECT_NE(l1_row.find("| no sheet | – |"), std::string::npos) << l1_row;
}

}  // namespace
}  // namespace ridgeline
