// Issue 43: the card decides the names. `ridgeline slug` names scripts/gpu-run's output folder
// from the device (a borrowed machine's hostname is "vm"), and reports label a GPU run by its GPU.
#include "reports/machines/device_slug.hpp"

#include <gtest/gtest.h>

#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

const std::string kSamples = std::string(paths::kSourceDir) + "/samples";
const std::string kSheets = std::string(paths::kSourceDir) + "/profiles/machines";

// A run on one GPU of this name, on a host called "vm" with an unknown Xeon.
Results gpu_run(const std::string& gpu) {
  Results r;
  r.hostname = "vm";
  r.cpu_model = "Intel(R) Xeon(R) Processor";
  r.spaces.push_back({"Serial", "host", 1, std::nullopt, std::nullopt});
  r.spaces.push_back({"Cuda", "device", 1, DeviceInfo{gpu}, std::nullopt});
  return r;
}

TEST(DeviceSlug, NamesAreLowerCaseLettersDigitsAndDashes) {
  EXPECT_EQ(name_slug("NVIDIA H100 PCIe"), "nvidia-h100-pcie");
  EXPECT_EQ(name_slug("Intel(R) Xeon(R) Gold 6430"), "intel-xeon-gold-6430");
  EXPECT_EQ(name_slug("  AMD Instinct MI250X / MI250 "), "amd-instinct-mi250x-mi250");
  EXPECT_EQ(name_slug("Intel(TM) Core(tm)_i7"), "intel-core-i7");
  EXPECT_EQ(name_slug("(R)"), "");
}

TEST(DeviceSlug, TheMatchedSheetElseTheDeviceNameElseTheHost) {
  const auto sheets = load_machine_profiles(kSheets);
  EXPECT_EQ(device_slug(gpu_run("NVIDIA H100 80GB HBM3"), sheets), "h100-sxm");
  EXPECT_EQ(device_slug(gpu_run("NVIDIA H200"), sheets), "h200-sxm");
  EXPECT_EQ(device_slug(gpu_run("NVIDIA GeForce RTX 4090"), sheets), "rtx-4090");
  EXPECT_EQ(device_slug(gpu_run("NVIDIA H100 PCIe"), sheets), "nvidia-h100-pcie");
  EXPECT_EQ(device_slug(gpu_run("NVIDIA GH200 480GB"), sheets), "nvidia-gh200-480gb");
  // A GPU build whose points all ran on the host: the host's name, not the idle GPU's.
  Results host_only = gpu_run("NVIDIA H200");
  Point p;
  p.space = "Serial";
  host_only.points.push_back(p);
  EXPECT_EQ(device_slug(host_only, sheets), "intel-xeon-processor");
  host_only.cpu_model.clear();
  EXPECT_EQ(device_slug(host_only, sheets), "vm");
}

// The command gpu-run calls, on the H200 session's own files and the development VM's sample.
TEST(DeviceSlug, CommandPrintsOneLineForInfoAndResultsFiles) {
  for (const char* file : {"/h200/info.json", "/h200/results.json"}) {
    const auto r = run_command(kBin + " slug " + kSamples + file);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_EQ(r.out, "h200-sxm\n") << file;
    EXPECT_EQ(r.err, "") << file;
  }
  // AMD EPYC, AVX-512, 2 cores, 2 threads: the Zen 5 VM's sheet.
  const auto cpu = run_command(kBin + " slug " + kSamples + "/dev-vm/results.json");
  EXPECT_EQ(cpu.exit_code, 0) << cpu.err;
  EXPECT_EQ(cpu.out, "epyc-zen5-2vcpu\n");
}

TEST(DeviceSlug, BadInputIsOneLineNamingFileAndField) {
  TempDir dir;
  json info = json::parse(slurp(kSamples + "/h200/info.json"));
  info["spaces"][0]["device"]["name"] = 5;
  write_json(dir.path + "/info.json", info);
  auto r = run_command(kBin + " slug " + dir.path + "/info.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(dir.path + "/info.json: spaces[0].device.name"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  write_file(dir.path + "/broken.json", "[1, 2");
  r = run_command(kBin + " slug " + dir.path + "/broken.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = run_command(kBin + " slug " + dir.path + "/missing.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

}  // namespace
}  // namespace ridgeline
