// An MPI job's results file (schema 1.2): every rank's points with their placement. Built here
// from a one-process fixture copied onto 4 ranks, one of them slowed down.
#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "reports/fit/device_outliers.hpp"
#include "results/device_split.hpp"
#include "results/results_model.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline::test {
namespace {

// `slow[r]` multiplies rank r's times; `uuids[r]` names rank r's device.
nlohmann::json job_file(const std::vector<double>& slow, const std::vector<std::string>& uuids,
                        const std::string& mode = "concurrent") {
  nlohmann::json d = fixture("cpu_run_a.json");
  d["schema_version"] = "1.2.0";
  nlohmann::json points = nlohmann::json::array();
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t r = 0; r < slow.size(); ++r) {
    const std::string host = r < 2 ? "node-a" : "node-b";
    ranks.push_back({{"rank", r}, {"host", host}, {"local_rank", r % 2}, {"cpu_set", "0"}});
    for (nlohmann::json p : d["points"]) {
      p["rank"] = r;
      p["placement"] = {{"rank", r},        {"host", host},
                        {"device", "Box"},  {"pci_bus_id", "0000:0" + std::to_string(r) + ":00.0"},
                        {"uuid", uuids[r]}, {"key", uuids[r]}};
      for (auto& s : p["samples"])
        if (s.is_number()) s = s.get<double>() * slow[r];
      if (p["median_s"].is_number()) p["median_s"] = p["median_s"].get<double>() * slow[r];
      points.push_back(p);
    }
  }
  d["points"] = points;
  d["mpi"] = {{"size", slow.size()}, {"mode", mode}, {"library", "test"}, {"ranks", ranks}};
  return d;
}

const std::vector<std::string> kUuids = {"GPU-a", "GPU-b", "GPU-c", "GPU-d"};

TEST(MpiJob, ReadsRanksAndSplitsByDevice) {
  const Results r = parse_results(job_file({1, 1, 1, 1}, kUuids).dump(), "job.json");
  EXPECT_EQ(r.mpi_size, 4);
  EXPECT_EQ(r.mpi_mode, "concurrent");
  const auto parts = split_by_device(r);
  ASSERT_EQ(parts.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(parts[i].rank, i);
    EXPECT_EQ(parts[i].points.size(), r.points.size() / 4);
    EXPECT_EQ(parts[i].device_key, kUuids[i]);
  }
  EXPECT_EQ(parts[2].hostname, "node-b");
  EXPECT_NE(parts[1].device_label.find("GPU 0000:01:00.0"), std::string::npos)
      << parts[1].device_label;
  EXPECT_EQ(one_rank(r, 3).points.size(), r.points.size() / 4);
  EXPECT_THROW(one_rank(r, 4), InputError);
  // A file that is not a job's has rank 0 only (the default), never another rank's numbers.
  const Results single = parse_results(slurp(kData + "/cpu_run_a.json"), "plain.json");
  EXPECT_EQ(one_rank(single, 0).points.size(), single.points.size());
  try {
    one_rank(single, 1);
    ADD_FAILURE() << "--rank 1 of a file without ranks was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "plain.json: mpi: missing: not an MPI job's file, so it has no rank 1 (--rank is "
              "for a job's file)");
  }
}

TEST(MpiJob, RefusesRanksOutsideTheJobAndRanksWithoutAJob) {
  nlohmann::json d = job_file({1, 1}, kUuids);
  d["points"][0]["rank"] = 2;
  const auto out_of_job = [&] { parse_results(d.dump(), "job.json"); };
  EXPECT_THROW(out_of_job(), InputError);
  nlohmann::json plain = job_file({1, 1}, kUuids);
  plain.erase("mpi");
  try {
    parse_results(plain.dump(), "plain.json");
    FAIL() << "a point with a rank in a file without an mpi block was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("points[0].rank"), std::string::npos) << e.what();
  }
}

TEST(MpiJob, OutlierIsTheSlowDeviceOnly) {
  const std::vector<DeviceValue> v = {
      {"r0", 100, {99, 101}}, {"r1", 97, {96, 98}}, {"r2", 60, {59, 61}}, {"r3", 103, {102, 104}}};
  const OutlierCheck c = find_low_outliers(v);
  ASSERT_EQ(c.outliers.size(), 1u);
  EXPECT_EQ(c.outliers[0].label, "r2");
  EXPECT_DOUBLE_EQ(c.outliers[0].peers, 100);  // the others' median: r2 cannot lower it
  EXPECT_NEAR(c.outliers[0].below, 0.4, 1e-12);
  // Noisy peers widen what is allowed: 55 among 70 to 140 is not named.
  EXPECT_TRUE(find_low_outliers(
                  {{"a", 140, {}}, {"b", 55, {}}, {"c", 90, {}}, {"d", 100, {}}, {"e", 70, {}}})
                  .outliers.empty());
  // Its own interval must lie below the others, too: 88 [40, 130] against two at 100 is not
  // named, 88 [86, 90] is.
  EXPECT_TRUE(
      find_low_outliers({{"a", 100, {}}, {"b", 100, {}}, {"c", 88, {40, 130}}}).outliers.empty());
  EXPECT_EQ(
      find_low_outliers({{"a", 100, {}}, {"b", 100, {}}, {"c", 88, {86, 90}}}).outliers.size(), 1u);
  EXPECT_FALSE(find_low_outliers({{"a", 100, {}}, {"b", 60, {}}}).not_checked.empty());
}

TEST(MpiJob, ReportNamesTheSlowRankAndAddsUpNodes) {
  TempDir dir;
  write_json(dir.path + "/job.json", job_file({1, 1, 3, 1}, kUuids));
  const auto r = run_command(kBin + " report " + dir.path + "/job.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("## MPI job"), std::string::npos);
  EXPECT_NE(md.find("4 ranks on 2 nodes, concurrent mode"), std::string::npos);
  EXPECT_NE(md.find("| node node-a |"), std::string::npos);
  EXPECT_NE(md.find("| whole job |"), std::string::npos);
  // Rank 2 is three times slower: named for B and for P, and no other rank is.
  const auto slow = md.find("- **rank 2 · node-b · GPU 0000:02:00.0**");
  EXPECT_NE(slow, std::string::npos) << md.substr(md.find("### Slow devices"), 1500);
  for (const char* other : {"- **rank 0", "- **rank 1", "- **rank 3"})
    EXPECT_EQ(md.find(other), std::string::npos) << other;
}

TEST(MpiJob, EqualRanksNameNoOutlier) {
  TempDir dir;
  write_json(dir.path + "/job.json", job_file({1, 1.01, 0.99, 1}, kUuids));
  const auto r = run_command(kBin + " report " + dir.path + "/job.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(dir.path + "/report.md").find("No device falls below its peers"),
            std::string::npos);
}

TEST(MpiJob, CompareMatchesDevicesByUuidNotRank) {
  TempDir dir;
  // Tonight the devices sit on other ranks (reversed); the one behind GPU-c is slower.
  const std::vector<std::string> swapped = {"GPU-d", "GPU-c", "GPU-b", "GPU-a"};
  write_json(dir.path + "/base.json", job_file({1, 1, 1, 1}, kUuids));
  write_json(dir.path + "/same.json", job_file({1, 1, 1, 1}, swapped));
  write_json(dir.path + "/slow.json", job_file({1, 2, 1, 1}, swapped));
  const auto same =
      run_command(kBin + " compare " + dir.path + "/base.json " + dir.path + "/same.json");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const auto slow = run_command(kBin + " compare --min-history 1 " + dir.path + "/base.json " +
                                dir.path + "/slow.json");
  EXPECT_EQ(slow.exit_code, 1) << slow.out << slow.err;
  EXPECT_NE(slow.out.find("rank 1 · node-a · GPU 0000:01:00.0: B"), std::string::npos) << slow.out;
  // A device gone from the job is MISSING; a job against a one-process file is refused.
  write_json(dir.path + "/three.json", job_file({1, 1, 1}, kUuids));
  const auto gone =
      run_command(kBin + " compare " + dir.path + "/base.json " + dir.path + "/three.json");
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_NE(gone.out.find("GPU-d"), std::string::npos) << gone.out;
  const auto mixed =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + dir.path + "/base.json");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("MPI job"), std::string::npos) << mixed.err;
}

}  // namespace
}  // namespace ridgeline::test
