// `ridgeline run` under mpirun: 2 and 4 host ranks on this machine (oversubscribed), each on its
// own CPU share; rank 0 gathers every rank's points into one file that the reporter splits.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline::test {
namespace {

const std::string kBin = ridgeline::test::paths::kRunBin;
const std::string kSweep =
    std::string(ridgeline::test::paths::kSourceDir) + "/tests/mpi/mpi-test-sweep.json";

// Open MPI refuses root without these (CI runs as root); --oversubscribe: more ranks than cores.
std::string mpirun(int ranks, const std::string& args) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_btl_vader_single_copy_mechanism=none " +
         std::string(RIDGELINE_MPIEXEC) + " --oversubscribe -n " + std::to_string(ranks) + " " +
         kBin + " " + args;
}

std::string run_args(const std::string& out, const std::string& more = "") {
  return "run --profile " + kSweep + " --out " + out + " --quiet " + more;
}

nlohmann::json load(const std::string& path) { return nlohmann::json::parse(slurp(path)); }

// name → ranks that measured and verified it.
std::map<std::string, std::set<int>> verified_ranks(const nlohmann::json& doc) {
  std::map<std::string, std::set<int>> out;
  for (const auto& p : doc["points"])
    if (p["verified"] == true) out[p["name"]].insert(p["rank"].get<int>());
  return out;
}

TEST(MpiJob, TwoRanksWriteOneFileWithEveryRanksPoints) {
  TempDir dir;
  const std::string out = dir.path + "/job.json";
  const auto r = run_command(mpirun(2, run_args(out)));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json doc = load(out);
  EXPECT_EQ(doc["complete"], true);
  EXPECT_EQ(doc["mpi"]["size"], 2);
  EXPECT_EQ(doc["mpi"]["mode"], "concurrent");
  ASSERT_EQ(doc["mpi"]["ranks"].size(), 2u);
  // Each rank ran on its own CPUs (the launcher's binding or ridgeline's share).
  EXPECT_NE(doc["mpi"]["ranks"][0]["cpu_set"], doc["mpi"]["ranks"][1]["cpu_set"]);
  const auto ranks = verified_ranks(doc);
  ASSERT_FALSE(ranks.empty());
  for (const auto& [name, got] : ranks) EXPECT_EQ(got, (std::set<int>{0, 1})) << name;
  for (const auto& p : doc["points"]) {
    EXPECT_EQ(p["placement"]["rank"], p["rank"]);
    EXPECT_FALSE(p["placement"]["host"].get<std::string>().empty());
    EXPECT_TRUE(p["placement"]["cpu_set"].is_string());
    EXPECT_TRUE(p["mpi_wall_s"].get<double>() > 0);
  }
  const auto rep = run_command(kBin + " report " + out + " --out " + dir.path);
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("2 ranks on 1 node, concurrent mode"), std::string::npos);
  EXPECT_NE(md.find("| whole job | OpenMP fp64 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("not checked (needs 3 or more devices"), std::string::npos);
}

// --test-slow-rank plants the slowdown on one rank only, and the file says which points carry
// it. Not a timing test: with 4 ranks on 2 cores and other work beside them, ranks fitted no
// roof now and then, so which rank the report names is tested on planted files
// (tests/reports/mpi_job_test.cpp, ReportNamesTheSlowRankAndAddsUpNodes).
TEST(MpiJob, FourRanksPlantTheSlowdownOnTheSlowRankOnly) {
  TempDir dir;
  const std::string out = dir.path + "/job.json";
  const auto r = run_command(mpirun(
      4, run_args(out, "--test-slowdown fma:10 --test-slowdown peak:10 --test-slow-rank 2")));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json doc = load(out);
  EXPECT_EQ(doc["mpi"]["size"], 4);
  std::map<int, int> planted, points;
  for (const auto& p : doc["points"]) {
    const int rank = p["rank"];
    ++points[rank];
    const bool slowed = p["probe"] == "fma" || p["probe"] == "peak";
    if (p["params"].contains("test_slowdown")) {
      ++planted[rank];
      EXPECT_EQ(p["params"]["test_slowdown"], 10) << p["name"];
    }
    EXPECT_EQ(p["params"].contains("test_slowdown"), slowed && rank == 2)
        << p["name"] << " rank " << rank;
  }
  EXPECT_EQ(points.size(), 4u);
  EXPECT_GT(planted[2], 0);
  EXPECT_EQ(planted.size(), 1u) << "only rank 2 carries the plant";
  const auto rep = run_command(kBin + " report " + out + " --out " + dir.path);
  EXPECT_EQ(rep.exit_code, 0) << rep.err;
}

TEST(MpiJob, RanksVisitTheSamePointsInEveryRound) {
  TempDir dir;
  const std::string out = dir.path + "/job.json";
  const auto r = run_command(mpirun(2, run_args(out, "--rounds 3 --probe bandwidth,fma")));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json doc = load(out);
  EXPECT_EQ(doc["complete"], true);
  std::map<std::string, int> entries;
  for (const auto& p : doc["points"]) {
    ++entries[p["name"]];
    const std::set<int> rounds(p["sample_rounds"].begin(), p["sample_rounds"].end());
    EXPECT_EQ(rounds, (std::set<int>{0, 1, 2})) << p["name"] << " rank " << p["rank"];
  }
  for (const auto& [name, n] : entries) EXPECT_EQ(n, 2) << name << ": one entry per rank";
}

TEST(MpiJob, IsolatedRanksTakeTurnsAndSayWhatTheSumMeans) {
  TempDir dir;
  const std::string out = dir.path + "/job.json";
  const auto r = run_command(mpirun(2, run_args(out, "--mpi-mode isolated --probe bandwidth")));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json doc = load(out);
  EXPECT_EQ(doc["mpi"]["mode"], "isolated");
  for (const auto& [name, got] : verified_ranks(doc)) EXPECT_EQ(got.size(), 2u) << name;
}

TEST(MpiJob, ResumeMeasuresAgainOnlyWhatSomeRankLacks) {
  TempDir dir;
  const std::string out = dir.path + "/job.json";
  ASSERT_EQ(run_command(mpirun(2, run_args(out, "--probe bandwidth"))).exit_code, 0);
  nlohmann::json doc = load(out);
  // Rank 1 lost its copy point (as if killed before rank 0 wrote it).
  const std::string lost = doc["points"][0]["name"];
  nlohmann::json kept = nlohmann::json::array();
  std::map<std::string, nlohmann::json> before;
  for (const auto& p : doc["points"]) {
    if (p["name"] == lost && p["rank"] == 1) continue;
    kept.push_back(p);
    before[p["name"].get<std::string>() + "/" + p["rank"].dump()] = p["samples"];
  }
  doc["points"] = kept;
  doc["complete"] = false;
  std::ofstream(out) << doc.dump();
  const auto r = run_command(mpirun(2, run_args(out, "--probe bandwidth --resume")));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json after = load(out);
  EXPECT_EQ(after["complete"], true);
  EXPECT_EQ(after["points"].size(), kept.size() + 1);
  for (const auto& p : after["points"]) {
    const std::string key = p["name"].get<std::string>() + "/" + p["rank"].dump();
    if (p["name"] == lost)
      EXPECT_NE(p["samples"], before[key]) << key << " was not measured again";
    else
      EXPECT_EQ(p["samples"], before[key]) << key << " was measured again";
  }
  // Resuming a 2-rank file with 3 ranks is refused on rank 0, and the whole job ends.
  const auto wrong = run_command(mpirun(3, run_args(out, "--probe bandwidth --resume")));
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.err.find("mpi.size"), std::string::npos) << wrong.err;
}

// scripts/nightly under mpirun: the first night becomes the baseline, the second compares each
// device (rank) with its own history and reports per device.
TEST(MpiJob, NightlyRunsUnderALauncherAndGatesEachDevice) {
  TempDir dir;
  const std::string launcher =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "OMPI_MCA_btl_vader_single_copy_mechanism=none " +
      std::string(ridgeline::test::paths::kSourceDir) + "/scripts/nightly --bin " + kBin +
      " --profile " + kSweep + " --results-dir " + dir.path + "/results --baseline-dir " +
      dir.path + "/baselines --launcher '" + RIDGELINE_MPIEXEC +
      " --oversubscribe -n 2' -- --probe fma,peak";
  const auto first = run_command(launcher);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const auto second = run_command(launcher);
  EXPECT_EQ(second.exit_code, 0) << second.out << second.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(second.err, m, std::regex("nightly: results in (\\S+)")))
      << second.err;
  const std::string folder = m[1].str();
  EXPECT_EQ(load(folder + "/results.json")["mpi"]["size"], 2);
  const std::string compare = slurp(folder + "/compare.md");
  for (const char* rank : {"rank 0 · ", "rank 1 · "})
    EXPECT_NE(compare.find(rank), std::string::npos) << rank << " missing:\n" << compare;
}

}  // namespace
}  // namespace ridgeline::test
