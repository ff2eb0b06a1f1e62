// `ridgeline run` end to end on the tiny profile: results file contents, resume after a kill,
// planted errors, bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "results/results_file.hpp"
#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_command;

using test::kBin;
using test::kTiny;

class CliRun : public test::CliTest {
 protected:
  std::string run(const std::string& args) const {
    return kBin + " run --quiet --threads 2 --profile " + kTiny + " " + args;
  }
};

TEST_F(CliRun, TinySweepWritesEveryFieldAndVerifiesEveryPoint) {
  const auto r = run_command(run("--out " + path("r.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = read_results_file(path("r.json"));
  EXPECT_EQ(doc["schema_version"], kSchemaVersion);
  EXPECT_TRUE(doc["complete"].get<bool>());
  for (const char* k : {"ridgeline", "host", "build", "kokkos", "cpu", "spaces", "run"})
    EXPECT_TRUE(doc["context"].contains(k)) << k;
  // Whichever supported Google Benchmark this build uses (scripts/check-benchmark-version).
  EXPECT_TRUE(std::regex_match(doc["context"]["run"]["google_benchmark"].get<std::string>(),
                               std::regex(R"(1\.[789]\.[0-9]+)")))
      << doc["context"]["run"]["google_benchmark"];
  std::set<std::string> families, spaces;
  int measured = 0, skipped = 0;
  // Kokkos 3.x copies host to host on OpenMP whatever space is named: Serial deep_copy is skipped.
  const bool kokkos3 = doc["context"]["kokkos"]["version"].get<std::string>().rfind("3.", 0) == 0;
  for (const auto& p : doc["points"]) {
    for (const char* k : {"name", "probe", "family", "space", "dtype", "working_set_bytes", "flops",
                          "bytes", "intensity", "samples", "median_s", "min_s", "max_s",
                          "flops_per_s", "bytes_per_s", "verified", "skipped_reason"})
      EXPECT_TRUE(p.contains(k)) << p["name"] << " lacks " << k;
    families.insert(p["family"].get<std::string>());
    spaces.insert(p["space"].get<std::string>());
    if (p["skipped_reason"].is_null()) {
      ++measured;
      EXPECT_TRUE(p["verified"].get<bool>()) << p["name"] << ": " << p["verify_error"];
      EXPECT_EQ(p["samples"].size(), 3u) << p["name"];
      EXPECT_LE(p["min_s"].get<double>(), p["median_s"].get<double>());
      EXPECT_LE(p["median_s"].get<double>(), p["max_s"].get<double>());
      // Library points say which BLAS they reach and on how many threads: one on Serial.
      if (p["family"] == "library" && p["probe"] != "deep_copy") {
        EXPECT_TRUE(p["params"]["blas"].is_string()) << p["name"];
        const auto& threads = p["params"]["blas_threads"];
        if (threads.is_number()) {
          EXPECT_EQ(threads, p["space"] == "Serial" ? 1 : 2) << p["name"];
        }
      }
      if (p["flops"].get<double>() > 0) {
        EXPECT_DOUBLE_EQ(p["flops_per_s"].get<double>(),
                         p["flops"].get<double>() / p["median_s"].get<double>());
      }
    } else {
      ++skipped;
      if (p["probe"] == "deep_copy") {
        EXPECT_TRUE(kokkos3) << p["name"];
        EXPECT_EQ(p["space"], "Serial");
        EXPECT_NE(p["skipped_reason"].get<std::string>().find("copies host to host on OpenMP"),
                  std::string::npos);
      } else {
        EXPECT_EQ(p["dtype"], "fp16") << p["name"];  // else only: no half precision on hosts
      }
      EXPECT_TRUE(p["samples"].empty());
      EXPECT_TRUE(p["median_s"].is_null());
    }
  }
  EXPECT_EQ(families, (std::set<std::string>{"bandwidth", "fma", "peak", "cache", "library"}));
  EXPECT_EQ(spaces, (std::set<std::string>{"OpenMP", "Serial"}));
  EXPECT_GT(measured, 50);
  // fma and peak, fp16, on two spaces; Serial deep_copy fp64 and fp32 on Kokkos 3.x.
  EXPECT_EQ(skipped, kokkos3 ? 6 : 4);
}

TEST_F(CliRun, PlantedWrongResultIsCaughtAndFailsTheRun) {
  const auto r = run_command(
      run("--space OpenMP --probe triad --test-plant-error triad --out " + path("r.json")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("failed verification"), std::string::npos) << r.err;
  const json doc = read_results_file(path("r.json"));
  ASSERT_EQ(doc["points"].size(), 2u);  // fp64 and fp32
  for (const auto& p : doc["points"]) {
    EXPECT_FALSE(p["verified"].get<bool>());
    EXPECT_NE(p["verify_error"].get<std::string>().find("triad: element 0"), std::string::npos);
  }
}

// The SRAM probe end to end: its points verify, and a planted wrong sum fails the run.
TEST_F(CliRun, SramPointsVerifyAndAPlantedWrongSumIsCaught) {
  const std::string profile = path("sram.json");
  std::ofstream(profile) << R"({"name": "sram", "repetitions": 2, "min_time_s": 0.001,
    "warmup_s": 0, "dtypes": ["fp64"], "sram": {"bytes": [4096], "passes": 4}})";
  const std::string cmd =
      kBin + " run --quiet --threads 2 --space OpenMP --profile " + profile + " --out ";
  const auto ok = run_command(cmd + path("ok.json"));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  std::set<std::string> probes;
  const json measured = read_results_file(path("ok.json"));
  for (const auto& p : measured["points"]) {
    EXPECT_TRUE(p["verified"].get<bool>()) << p["name"];
    EXPECT_TRUE(p["bytes_per_s"].is_number()) << p["name"];
    probes.insert(p["probe"].get<std::string>());
  }
  EXPECT_EQ(probes, (std::set<std::string>{"sram_read", "sram_update"}));
  const auto bad = run_command(cmd + path("bad.json") + " --test-plant-error sram_read");
  EXPECT_EQ(bad.exit_code, 1);
  const json planted_doc = read_results_file(path("bad.json"));
  ASSERT_EQ(planted_doc["points"].size(), 2u);
  for (const auto& p : planted_doc["points"]) {
    const bool planted = p["probe"] == "sram_read";
    EXPECT_EQ(p["verified"].get<bool>(), !planted) << p["name"];
    if (planted) {
      EXPECT_NE(p["verify_error"].get<std::string>().find("sram_read: team 0 thread 0"),
                std::string::npos)
          << p["verify_error"];
    }
  }
}

TEST_F(CliRun, KilledRunKeepsFinishedPointsAndResumeCompletesIt) {
  const std::string out = path("r.json");
  // Kill the sweep as soon as its file holds a measured point.
  const auto killed = run_command("(" + run("--out " + out) +
                                  " & pid=$!; for i in $(seq 400); do "
                                  "grep -q '\"median_s\": [0-9]' " +
                                  out +
                                  " 2>/dev/null && break; sleep 0.05; done; "
                                  "kill -9 $pid; wait $pid; echo $? )");
  EXPECT_EQ(killed.out, "137\n") << killed.err;
  const json partial = read_results_file(out);  // atomic writes: always parseable
  EXPECT_FALSE(partial["complete"].get<bool>());
  std::map<std::string, json> before;
  for (const auto& p : partial["points"])
    if (p["median_s"].is_number()) before[p["name"]] = p["samples"];
  ASSERT_FALSE(before.empty());

  const auto resumed = run_command(run("--resume --out " + out));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const json full = read_results_file(out);
  EXPECT_TRUE(full["complete"].get<bool>());
  std::set<std::string> names;
  for (const auto& p : full["points"]) {
    EXPECT_TRUE(names.insert(p["name"].get<std::string>()).second) << "duplicate " << p["name"];
    const auto it = before.find(p["name"]);
    if (it != before.end()) {
      EXPECT_EQ(p["samples"], it->second) << "re-measured " << p["name"];
    }
  }
  const auto fresh = run_command(run("--out " + path("fresh.json")));
  ASSERT_EQ(fresh.exit_code, 0);
  EXPECT_EQ(names.size(), read_results_file(path("fresh.json"))["points"].size());
}

// Rounds: every point once per round; its samples accumulate across the rounds, each with its
// round, and the seed of the shuffled orders is recorded. Each visit sets the probe up again:
// axpby, whose α alternates sign from call to call, must verify after every visit.
TEST_F(CliRun, RoundsAccumulateSamplesAndRecordTheSeed) {
  const auto r = run_command(
      run("--space Serial --probe triad,peak,axpby --rounds 3 --seed 42 --out " + path("r.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = read_results_file(path("r.json"));
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["profile"]["rounds"], 3);
  EXPECT_EQ(doc["context"]["run"]["seed"], 42u);
  int measured = 0;
  for (const auto& p : doc["points"]) {
    if (!p["skipped_reason"].is_null()) continue;
    ++measured;
    EXPECT_TRUE(p["verified"].get<bool>()) << p["name"];
    EXPECT_EQ(p["samples"].size(), 3u) << p["name"];  // repetitions 3: one per round
    EXPECT_EQ(p["sample_rounds"], json({0, 1, 2})) << p["name"];
    // The wait for a CPU, one share per sample of every round (Linux: schedstat).
    const json& w = p["cpu_wait"];
    ASSERT_TRUE(w.is_object()) << p["name"] << ": " << p.value("cpu_wait_unavailable", "");
    ASSERT_EQ(w["shares"].size(), 3u) << p["name"];
    for (const auto& s : w["shares"]) EXPECT_TRUE(s >= 0 && s <= 1) << w;
    EXPECT_GE(w["threads"].get<int>(), 1);  // Serial: the main thread at least
    // The host cores' clock after each sample, or why not (another ISA; chains that disagreed
    // on every sample).
    const json& c = p["host_clock"];
    if (c.is_null()) {
      EXPECT_FALSE(p.value("host_clock_unavailable", "").empty()) << p["name"];
      continue;
    }
    ASSERT_EQ(c["readings_mhz"].size(), 3u) << p["name"];
    for (const auto& mhz : c["readings_mhz"])
      EXPECT_TRUE(mhz.is_null() || (mhz > 100 && mhz < 10000)) << c;
    EXPECT_GT(c["median_mhz"].get<double>(), 100) << c;
  }
  EXPECT_GE(measured, 4);
}

// The order of each round's visits, from the progress lines ("round 2/3: NAME: ...").
std::vector<std::vector<std::string>> round_orders(const std::string& err) {
  std::vector<std::vector<std::string>> rounds;
  const std::regex line(R"(\] round ([0-9]+)/[0-9]+: ([^ ]+): )");
  for (std::sregex_iterator it(err.begin(), err.end(), line), end; it != end; ++it) {
    const std::size_t round = std::stoul((*it)[1]);
    if (rounds.size() < round) rounds.resize(round);
    rounds[round - 1].push_back((*it)[2]);
  }
  return rounds;
}

TEST_F(CliRun, RoundOrdersAreShuffledAndReplayedFromTheSeed) {
  const auto sweep = [this](const std::string& seed) {
    const auto r = run_command(kBin + " run --threads 2 --profile " + kTiny +
                               " --space Serial --probe triad,fill,peak --rounds 3 --seed " + seed +
                               " --force --out " + path("r.json"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return round_orders(r.err);
  };
  const auto a = sweep("1"), again = sweep("1"), other = sweep("2");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a, again);
  // Every round visits every point once.
  for (const auto& round : a) {
    EXPECT_EQ(std::set<std::string>(round.begin(), round.end()),
              std::set<std::string>(a[0].begin(), a[0].end()));
    EXPECT_EQ(round.size(), a[0].size());
  }
  EXPECT_GE(a[0].size(), 5u);
  // The rounds' orders differ from each other or from another seed's: the order is shuffled.
  EXPECT_TRUE(a[0] != a[1] || a[1] != a[2] || a != other);
  EXPECT_NE(a, other);
}

// A point killed before its last round has part of its samples in the file; --resume measures it
// again from its first round and keeps the finished points as they are.
TEST_F(CliRun, ResumeMeasuresAgainAPointWithoutAllItsRounds) {
  const std::string out = path("r.json");
  ASSERT_EQ(
      run_command(run("--space Serial --probe triad --rounds 3 --seed 5 --out " + out)).exit_code,
      0);
  json doc = read_results_file(out);
  ASSERT_GE(doc["points"].size(), 2u);
  json& cut = doc["points"][0];
  const std::string cut_name = cut["name"];
  cut["samples"] = json::array({cut["samples"][0]});
  cut["sample_rounds"] = json::array({0});
  cut["median_s"] = cut["min_s"] = cut["max_s"] = cut["samples"][0];
  doc["complete"] = false;
  write_json_atomically(out, doc);

  const auto resumed =
      run_command(run("--space Serial --probe triad --rounds 3 --seed 5 --resume --out " + out));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const json full = read_results_file(out);
  EXPECT_TRUE(full["complete"].get<bool>());
  ASSERT_EQ(full["points"].size(), doc["points"].size());
  for (const auto& p : full["points"]) {
    EXPECT_EQ(p["sample_rounds"], json({0, 1, 2})) << p["name"];
    if (p["name"] != cut_name) {
      // Kept, not measured again.
      for (const auto& q : doc["points"]) {
        if (q["name"] == p["name"]) {
          EXPECT_EQ(p["samples"], q["samples"]) << p["name"];
        }
      }
    }
  }
}

TEST_F(CliRun, ResumeRefusesAnotherProfile) {
  ASSERT_EQ(run_command(run("--probe fill --out " + path("r.json"))).exit_code, 0);
  const auto r =
      run_command(kBin + " run --quiet --profile cache --resume --out " + path("r.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("profile.name"), std::string::npos) << r.err;
}

struct BadRun {
  const char* args;
  const char* needle;
};
void PrintTo(const BadRun& b, std::ostream* os) { *os << b.args; }

class CliRunBadInput : public CliRun, public ::testing::WithParamInterface<BadRun> {};

TEST_P(CliRunBadInput, OneLineAndExitTwo) {
  const auto r = run_command(kBin + " run --quiet --out " + path("r.json") + " " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().needle), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("r.json")));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliRunBadInput,
    ::testing::Values(BadRun{"--profile nosuch", "unknown profile 'nosuch'"},
                      BadRun{"--profile /nonexistent/p.json", "/nonexistent/p.json"},
                      BadRun{"--profile quick --space CUDA", "unknown execution space 'CUDA'"},
                      BadRun{"--profile quick --probe triadd", "unknown probe 'triadd'"},
                      BadRun{"--profile quick --bogus", "--bogus"},
                      BadRun{"--profile quick --benchmark_nonsense=1", "benchmark"},
                      BadRun{"--profile quick --rounds 2", "--rounds: 2 does not divide"}));

}  // namespace
}  // namespace ridgeline
