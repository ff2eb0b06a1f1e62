// `ridgeline run` against what used to crash it or lose data: sizes that round to one point name,
// a probe whose setup fails, partial runs marked complete, resumes onto another build or onto
// mistyped files, two runs on one --out, memory limits of a container, out-of-range options.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/file_lock.hpp"
#include "results/results_file.hpp"
#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_command;
using test::slurp;

using test::kBin;
using test::kTiny;

class RunGuard : public test::CliTest {
 protected:
  std::string profile(const json& j, const std::string& name = "p.json") const {
    std::ofstream(path(name)) << j.dump();
    return path(name);
  }
  test::CommandResult run(const std::string& args) const {
    return run_command(kBin + " run --quiet " + args);
  }
};

std::set<std::string> names_in(const json& doc) {
  std::set<std::string> names;
  for (const auto& p : doc["points"]) names.insert(p["name"].get<std::string>());
  return names;
}

// 64 steps per octave from 64 bytes: many sizes round to one launch shape. This crashed with
// SIGSEGV (a probe verified without setup) before neighbouring duplicates were left out.
TEST_F(RunGuard, FineCacheSweepRunsEachSizeOnce) {
  const std::string p = profile({{"name", "fine"},
                                 {"repetitions", 2},
                                 {"min_time_s", 0.0001},
                                 {"warmup_s", 0},
                                 {"spaces", {"Serial"}},
                                 {"working_set_bytes", 16384},
                                 {"cache",
                                  {{"probes", {"triad"}},
                                   {"min_bytes", 64},
                                   {"steps_per_octave", 64},
                                   {"bytes_per_call", 1e5}}}});
  const auto r = run("--profile " + p + " --out " + path("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = read_results_file(path("r.json"));
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(names_in(doc).size(), doc["points"].size());
  for (const auto& pt : doc["points"])
    if (pt["skipped_reason"].is_null()) {
      EXPECT_TRUE(pt["verified"].get<bool>()) << pt["name"];
    }
}

// The shipped profiles list every point once for each thread count this machine has.
TEST_F(RunGuard, ShippedProfilesListUniqueNames) {
  for (const char* name : {"cache", "full"})
    for (const char* threads : {"1", "2"}) {
      const auto r = run(std::string("--profile ") + name + " --threads " + threads + " --out " +
                         path("r.json") + " --benchmark_list_tests");
      ASSERT_EQ(r.exit_code, 0) << name << " " << threads << ": " << r.err;
      std::set<std::string> seen;
      std::istringstream lines(r.out);
      std::string line;
      int n = 0;
      while (std::getline(lines, line)) {
        if (line.empty()) continue;
        ++n;
        EXPECT_TRUE(seen.insert(line).second) << name << " " << threads << ": " << line;
      }
      EXPECT_GT(n, 10);
      EXPECT_FALSE(fs::exists(path("r.json"))) << "listing must not write the results file";
    }
}

TEST_F(RunGuard, ListingLeavesAnExistingResultsFileAlone) {
  std::ofstream(path("r.json")) << "keep me";
  const auto r =
      run("--profile " + kTiny + " --out " + path("r.json") + " --benchmark_list_tests=true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(path("r.json")), "keep me");
  EXPECT_NE(r.out.find("triad/Serial/fp64/n:"), std::string::npos) << r.out;
}

// Google Benchmark runs every repetition of a point whose setup failed; the second one called
// setup() on the released probe (SIGSEGV).
TEST_F(RunGuard, FailedSetupIsRecordedAndFailsTheRun) {
  const auto r = run("--threads 2 --profile " + kTiny +
                     " --probe bandwidth --test-fail-setup triad --out " + path("r.json"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("point(s) could not be set up"), std::string::npos) << r.err;
  const json doc = read_results_file(path("r.json"));
  EXPECT_TRUE(doc["complete"].get<bool>());
  int failed = 0, verified = 0;
  for (const auto& p : doc["points"]) {
    if (p["probe"] == "triad") {
      ++failed;
      EXPECT_EQ(p["skipped_reason"], "setup failed: planted by --test-fail-setup") << p["name"];
      EXPECT_TRUE(p["samples"].empty());
    } else if (p["skipped_reason"].is_null()) {
      ++verified;
      EXPECT_TRUE(p["verified"].get<bool>());
    }
  }
  EXPECT_EQ(failed, 4);  // fp64 and fp32 on OpenMP and Serial
  EXPECT_GT(verified, 20);
}

// A filter ran one point of many, and the file said complete: true.
TEST_F(RunGuard, FilteredRunIsIncompleteAndResumeFinishesIt) {
  const std::string out = path("r.json");
  const auto r = run("--profile " + kTiny + " --probe bandwidth --out " + out +
                     " --benchmark_filter=^triad/Serial/fp64");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.err.find("point(s) were not run (--benchmark_filter?); the file is marked incomplete"),
      std::string::npos)
      << r.err;
  const json partial = read_results_file(out);
  EXPECT_FALSE(partial["complete"].get<bool>());
  EXPECT_EQ(partial["context"]["run"]["benchmark_args"],
            json::array({"--benchmark_filter=^triad/Serial/fp64"}));
  const auto resumed = run("--profile " + kTiny + " --probe bandwidth --resume --out " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_TRUE(read_results_file(out)["complete"].get<bool>());
}

class ResumeRefuses : public RunGuard {
 protected:
  void SetUp() override {
    RunGuard::SetUp();
    const auto r = run("--threads 2 --profile " + kTiny + " --probe fill --out " + path("r.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    doc_ = read_results_file(path("r.json"));
  }
  test::CommandResult resume_after(const std::function<void(json&)>& edit,
                                   const std::string& args = "") {
    json d = doc_;
    edit(d);
    std::ofstream(path("r.json")) << d.dump();
    return run("--threads 2 --profile " + kTiny + " --probe fill --resume --out " + path("r.json") +
               " " + args);
  }
  void expect_refused(const test::CommandResult& r, const std::string& needle) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(test::line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(path("r.json") + ": " + needle), std::string::npos) << r.err;
  }
  json doc_;
};

TEST_F(ResumeRefuses, AnotherBuildCompilerOrKokkos) {
  expect_refused(resume_after([](json& d) { d["context"]["build"]["compiler"] = "Clang 18.1.0"; }),
                 "context.build.compiler: is \"Clang 18.1.0\", this run's is \"");
  expect_refused(
      resume_after([](json& d) { d["context"]["ridgeline"]["git_revision"] = "0123abc"; }),
      "context.ridgeline.git_revision");
  expect_refused(resume_after([](json& d) { d["context"]["kokkos"]["version"] = "4.7.1"; }),
                 "context.kokkos.version");
  expect_refused(resume_after([](json& d) { d["context"]["run"]["google_benchmark"] = "1.9.1"; }),
                 "context.run.google_benchmark");
}

TEST_F(ResumeRefuses, AnEditedProfileOrOtherThreadCount) {
  expect_refused(resume_after([](json& d) { d["profile"]["repetitions"] = 7; }),
                 "profile.repetitions: is 7, this run's is 3");
  const auto r =
      run("--threads 1 --profile " + kTiny + " --probe fill --resume --out " + path("r.json"));
  expect_refused(r, "context.spaces[0].concurrency: is 2, this run's is 1");
}

// Wrongly typed fields aborted the resume (an uncaught type error).
TEST_F(ResumeRefuses, WronglyTypedFields) {
  expect_refused(resume_after([](json& d) { d["points"][0]["verified"] = "yes"; }),
                 "points[0].verified: must be true or false");
  expect_refused(resume_after([](json& d) { d["context"]["host"] = 5; }),
                 "context.host.hostname: is null, this run's is");
  expect_refused(resume_after([](json& d) { d["points"][0]["name"] = 17; }),
                 "points[0].name: must be a string");
  expect_refused(resume_after([](json& d) { d["profile"] = "quick"; }), "profile.name: is null");
}

// Two runs on one --out both exited 0 and one run's points vanished.
TEST_F(RunGuard, SecondRunOnTheSameOutIsRefused) {
  const std::string out = path("r.json");
  {
    const FileLock held(out);  // what a running sweep holds
    const auto r = run("--profile " + kTiny + " --probe fill --out " + out);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(test::line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(out + ": another ridgeline run (pid " + std::to_string(::getpid()) +
                         ") is writing this file"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
  // A lock file left by a killed run holds no lock.
  std::ofstream(out + ".lock") << "12345\n";
  const auto r = run("--profile " + kTiny + " --probe fill --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

// A 1 GiB working set in a 256 MiB memory cgroup was OOM-killed: the planner read only
// /proc/meminfo.
TEST_F(RunGuard, MemoryCgroupLimitIsHonoured) {
  fs::create_directories(path("cgroup"));
  std::ofstream(path("cgroup/memory.max")) << "268435456\n";
  std::ofstream(path("cgroup/memory.current")) << "0\n";
  const std::string p = profile({{"name", "big"},
                                 {"spaces", {"Serial"}},
                                 {"dtypes", {"fp64"}},
                                 {"working_set_bytes", 1ull << 30},
                                 {"bandwidth", {{"probes", {"triad"}}}}});
  const std::string env = "RIDGELINE_TEST_CGROUP_ROOT=" + path("cgroup") + " ";
  const auto r =
      run_command(env + kBin + " run --quiet --profile " + p + " --out " + path("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = read_results_file(path("r.json"));
  ASSERT_EQ(doc["points"].size(), 1u);
  EXPECT_EQ(doc["points"][0]["skipped_reason"].get<std::string>().rfind("out of memory: needs ", 0),
            0u)
      << doc["points"][0];
  EXPECT_EQ(doc["context"]["memory"]["cgroup_limit_bytes"], 268435456);
  const auto info = run_command(env + kBin + " info");
  EXPECT_NE(info.out.find("(cgroup limit 256 MiB)"), std::string::npos) << info.out;
}

// A profile whose `spaces` named a space this build lacks (or a misspelt one) was blamed on
// --probe ("no point of the profile matches the filters").
TEST_F(RunGuard, ProfileSpacesAreBlamedOnTheProfile) {
  const json base = {{"name", "s"}, {"dtypes", {"fp64"}}, {"bandwidth", {{"probes", {"triad"}}}}};
  json misspelt = base;
  misspelt["spaces"] = {"OpenMp"};
  const std::string p1 = profile(misspelt, "misspelt.json");
  const auto r1 = run("--profile " + p1 + " --out " + path("r.json"));
  EXPECT_EQ(r1.exit_code, 2) << r1.out;
  EXPECT_EQ(test::line_count(r1.err), 1) << r1.err;
  EXPECT_NE(r1.err.find(p1 + ": spaces[0]: unknown space 'OpenMp'"), std::string::npos) << r1.err;

  json elsewhere = base;
  elsewhere["spaces"] = {"Cuda", "HIP"};  // a GPU profile on this host-only build
  const std::string p2 = profile(elsewhere, "gpu.json");
  const auto r2 = run("--profile " + p2 + " --out " + path("r.json"));
  EXPECT_EQ(r2.exit_code, 2) << r2.out;
  EXPECT_EQ(test::line_count(r2.err), 1) << r2.err;
  EXPECT_NE(r2.err.find(p2 + ": spaces: names only spaces this build lacks (Cuda, HIP)"),
            std::string::npos)
      << r2.err;

  json host = base;
  host["spaces"] = {"Serial"};
  const auto r3 =
      run("--profile " + profile(host, "host.json") + " --space OpenMP --out " + path("r.json"));
  EXPECT_EQ(r3.exit_code, 2) << r3.out;
  EXPECT_NE(r3.err.find("--space: none of the profile's spaces (Serial)"), std::string::npos)
      << r3.err;
  EXPECT_FALSE(fs::exists(path("r.json")));
}

struct BadOption {
  const char* args;
  const char* needle;
};
void PrintTo(const BadOption& b, std::ostream* os) { *os << b.args; }

class RunBadOption : public RunGuard, public ::testing::WithParamInterface<BadOption> {};

// Values that crashed Google Benchmark or Kokkos, or were accepted and then meant something else.
TEST_P(RunBadOption, OneLineAndExitTwo) {
  const auto r = run("--profile " + kTiny + " --out " + path("r.json") + " " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().needle), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("r.json")));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RunBadOption,
    ::testing::Values(
        BadOption{"--threads 2000", "--threads: must be an integer in [1, "},
        BadOption{"--threads -3", "--threads: must be an integer in [1, "},
        BadOption{"--threads 0", "--threads"}, BadOption{"--threads two", "--threads"},
        BadOption{"--benchmark_repetitions=-1",
                  "--benchmark_repetitions: must be an integer in [1, 1000]"},
        BadOption{"--benchmark_repetitions=1000000000", "must be an integer in [1, 1000]"},
        BadOption{"--benchmark_repetitions=4294967297", "must be an integer in [1, 1000]"},
        BadOption{"--benchmark_min_time=1e9", "--benchmark_min_time: must be seconds in (0, 60]"},
        BadOption{"--benchmark_min_time=0", "must be seconds in (0, 60]"},
        BadOption{"--benchmark_min_time=10x", "must be seconds in (0, 60]"},
        BadOption{"--benchmark_min_warmup_time=nan", "must be seconds in [0, 60]"},
        BadOption{"--benchmark_enable_random_interleaving=true", "not supported by ridgeline run"},
        BadOption{"--benchmark_report_aggregates_only=true", "not supported by ridgeline run"},
        BadOption{"--benchmark_format=xml", "must be console, json or csv"},
        BadOption{"--benchmark_filter", "needs a value"},
        BadOption{"--test-slowdown triad:0", "expected PROBE:N with N in [1, 1000]"},
        BadOption{"--test-slowdown triad:99999999999999999999", "N in [1, 1000]"}));

TEST_F(RunGuard, BenchmarkOutMayNotBeTheResultsFile) {
  const auto r =
      run("--profile " + kTiny + " --out " + path("r.json") + " --benchmark_out=" + path("r.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--benchmark_out: is the results file --out"), std::string::npos) << r.err;
}

TEST_F(RunGuard, InfoChecksThreadsToo) {
  const auto r = run_command(kBin + " info --threads 2000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
}

}  // namespace
}  // namespace ridgeline
