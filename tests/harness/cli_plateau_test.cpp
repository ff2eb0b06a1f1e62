// `ridgeline run` with a memory plateau search (harness/sweep/memory_plateau_search.hpp), at toy
// sizes: what it records and how the plan uses it, whatever the sets measured. Where the plateau
// lies on this machine is the search's job, not a test's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "results/memory_plateau.hpp"
#include "results/results_file.hpp"
#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"

namespace ridgeline::plateau_cli_test {

using nlohmann::json;
using test::kBin;
using test::run_command;

constexpr double kMiB = 1 << 20;
constexpr long long kMiBInt = 1 << 20;  // profiles want integers

class CliPlateau : public test::CliTest {
 protected:
  std::string profile(const json& plateau) const {
    const json p = {{"name", "plateau-toy"},     {"repetitions", 3},
                    {"min_time_s", 0.0005},      {"warmup_s", 0.0},
                    {"dtypes", {"fp64"}},        {"dram_min_bytes", kMiBInt},
                    {"memory_plateau", plateau}, {"bandwidth", {{"probes", {"triad"}}}}};
    std::ofstream(path("profile.json")) << p.dump(2);
    return path("profile.json");
  }
  // A search from dram_min_bytes (1 MiB) up to 8 MiB, the context's LLC ignored: whatever the
  // sets measure, it ends within the toy sizes.
  std::string searching_profile() const {
    return profile({{"budget_s", 30},
                    {"max_bytes", 8 * kMiBInt},
                    {"calls", 3},
                    {"bytes_per_call", 1e6},
                    {"use_llc", false}});
  }
  std::string run(const std::string& profile_path, const std::string& args) const {
    return kBin + " run --quiet --threads 2 --profile " + profile_path + " " + args;
  }
};

TEST_F(CliPlateau, TheSearchIsRecordedAndTheDramPointsRunWhereItSays) {
  const std::string prof = searching_profile();
  const auto r = run_command(run(prof, "--out " + path("r.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = read_results_file(path("r.json"));
  int searched = 0;
  std::string measured_in;
  for (const json& s : doc["context"]["spaces"]) {
    ASSERT_TRUE(s.contains("memory_plateau")) << s["name"];
    const MemoryPlateau p = memory_plateau_from_json(s["memory_plateau"], "r.json", "plateau");
    // Host spaces share one search: every host space names the same one.
    if (measured_in.empty()) measured_in = p.measured_in;
    EXPECT_EQ(p.measured_in, measured_in);
    ++searched;
    // Octaves from dram_min_bytes (the LLC ignored), at most max_bytes, both mixes each.
    ASSERT_FALSE(p.sets.empty());
    for (const char* mix : kPlateauMixes) {
      const std::vector<PlateauSet> sets = sets_of_mix(p.sets, mix);
      ASSERT_FALSE(sets.empty()) << mix;
      EXPECT_EQ(sets.front().bytes, 1 * kMiB) << mix;
      for (const PlateauSet& set : sets) {
        EXPECT_LE(set.bytes, 8 * kMiB) << mix;
        EXPECT_GT(set.bytes_per_s, 0) << mix;
        EXPECT_EQ(set.calls, 3) << mix;
      }
    }
    if (p.reached) {
      // The rule, applied to what the file recorded, gives what the file says.
      for (const char* mix : kPlateauMixes) {
        std::vector<PlateauSet> octaves;
        for (const PlateauSet& set : sets_of_mix(p.sets, mix))
          if (std::fmod(std::log2(set.bytes / kMiB), 1.0) == 0) octaves.push_back(set);
        const auto start = plateau_start(octaves, p.tolerance, 2);
        ASSERT_TRUE(start) << mix;
        EXPECT_LE(*start, p.planned_bytes) << mix;
      }
      // The DRAM points sit one doubling inside the plateau, on a set every mix measured there.
      EXPECT_LT(p.start_bytes, p.planned_bytes);
      for (const char* mix : kPlateauMixes) {
        const std::vector<PlateauSet> sets = sets_of_mix(p.sets, mix);
        EXPECT_TRUE(std::any_of(sets.begin(), sets.end(), [&p](const PlateauSet& s) {
          return s.bytes == p.planned_bytes;
        })) << mix;
        EXPECT_TRUE(std::any_of(sets.begin(), sets.end(),
                                [&p](const PlateauSet& s) {
                                  return s.bytes == p.planned_bytes / 2 && s.bytes >= p.start_bytes;
                                }))
            << mix << ": the octave below the DRAM size is on the plateau";
      }
      EXPECT_TRUE(p.stopped.empty()) << p.stopped;
    } else {
      EXPECT_FALSE(p.stopped.empty());
      EXPECT_EQ(p.planned_bytes, p.largest_bytes);
    }
    // The stream ran at the search's DRAM size (triad: 3 arrays of n doubles, n rounded down to
    // whole launch chunks).
    for (const json& point : doc["points"])
      if (point["space"] == s["name"] && point["probe"] == "triad") {
        EXPECT_LE(point["working_set_bytes"].get<double>(), p.planned_bytes) << point["name"];
        EXPECT_GE(point["working_set_bytes"].get<double>(), 0.99 * p.planned_bytes)
            << point["name"];
      }
  }
  EXPECT_GE(searched, 1);

  // A resumed run keeps the recorded plateau, so its points keep their names: nothing to redo.
  const auto again = run_command(run(prof, "--resume --out " + path("r.json")));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_results_file(path("r.json"))["context"]["spaces"], doc["context"]["spaces"]);

  // The report names where DRAM begins, or that it was not reached.
  const auto report = run_command(kBin + " report " + path("r.json") + " --out " + path("rep"));
  ASSERT_EQ(report.exit_code, 0) << report.err;
  std::ifstream md(path("rep/report.md"));
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("## Where DRAM begins"), std::string::npos);
}

// A nightly confirms its baseline's plateau: where it holds, the DRAM points keep their size and
// names; where not, the run searched anew and says so. A broken baseline is said, never fatal.
TEST_F(CliPlateau, ARecordedPlateauIsConfirmedOrSearchedAnew) {
  const std::string prof = searching_profile();
  const auto first = run_command(run(prof, "--out " + path("base.json")));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto r = run_command(
      run(prof, "--plateau-from " + path("base.json") + " --out " + path("night.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json base = read_results_file(path("base.json"));
  const json night = read_results_file(path("night.json"));
  for (std::size_t i = 0; i < base["context"]["spaces"].size(); ++i) {
    const MemoryPlateau before =
        memory_plateau_from_json(base["context"]["spaces"][i]["memory_plateau"], "b", "p");
    const MemoryPlateau now =
        memory_plateau_from_json(night["context"]["spaces"][i]["memory_plateau"], "n", "p");
    if (!before.reached) {
      EXPECT_NE(now.basis.find("recorded no plateau, so it was searched anew"), std::string::npos)
          << now.basis;
    } else if (now.basis.rfind("confirmed the plateau", 0) == 0) {
      EXPECT_EQ(now.planned_bytes, before.planned_bytes);
      EXPECT_EQ(now.start_bytes, before.start_bytes);
      ASSERT_EQ(sets_of_mix(now.sets, "read").size(), 2u) << "its DRAM size and one doubling";
      EXPECT_EQ(sets_of_mix(now.sets, "read")[1].bytes, 2 * before.planned_bytes);
    } else {
      EXPECT_NE(now.basis.find("did not hold, so it was searched anew"), std::string::npos)
          << now.basis;
      // Tonight's plateau from at or below the recorded DRAM size: the size stands.
      if (now.reached && now.start_bytes <= before.planned_bytes) {
        EXPECT_EQ(now.planned_bytes, before.planned_bytes) << now.basis;
      }
    }
  }
  std::ofstream(path("broken.json")) << "{ not json";
  const auto broken = run_command(kBin + " run --threads 2 --profile " + prof + " --plateau-from " +
                                  path("broken.json") + " --out " + path("again.json"));
  EXPECT_EQ(broken.exit_code, 0) << broken.err;
  EXPECT_NE(broken.err.find("--plateau-from"), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("searching anew"), std::string::npos) << broken.err;
}

// A nightly passes its baseline, then its history, newest first: per space the first file that
// reached a plateau is confirmed, so a baseline whose search ran out of budget does not make every
// later night search anew. Constructed records (a baseline that reached none, a history night that
// reached one at 1 MiB), whatever tonight measures: the basis names the night it confirmed or
// searched past, never the baseline; a file recording nothing reached leaves the search to say so.
TEST_F(CliPlateau, ANightThatFoundThePlateauStandsInForABaselineThatDidNot) {
  const std::string prof = searching_profile();
  const auto first = run_command(run(prof, "--out " + path("base.json")));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  json none = read_results_file(path("base.json"));
  json found = none;
  for (json& s : none["context"]["spaces"])
    if (s.contains("memory_plateau")) {
      s["memory_plateau"]["reached"] = false;
      s["memory_plateau"]["start_bytes"] = nullptr;
      s["memory_plateau"]["planned_bytes"] = 8 * kMiB;
      s["memory_plateau"]["stopped"] = "the time budget ran out";
    }
  for (json& s : found["context"]["spaces"])
    if (s.contains("memory_plateau")) {
      s["memory_plateau"]["reached"] = true;
      s["memory_plateau"]["start_bytes"] = kMiB;
      s["memory_plateau"]["planned_bytes"] = 2 * kMiB;
    }
  std::ofstream(path("none.json")) << none.dump();
  std::ofstream(path("found.json")) << found.dump();
  std::ofstream(path("broken.json")) << "{ not json";
  // Not --quiet: the broken file is said in a note.
  const auto r =
      run_command(kBin + " run --threads 2 --profile " + prof + " --plateau-from " +
                  path("none.json") + " --plateau-from " + path("broken.json") +
                  " --plateau-from " + path("found.json") + " --out " + path("night.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json night = read_results_file(path("night.json"));
  int spaces = 0;
  for (const json& s : night["context"]["spaces"]) {
    if (!s.contains("memory_plateau")) continue;
    ++spaces;
    const MemoryPlateau now = memory_plateau_from_json(s["memory_plateau"], "n", "p");
    EXPECT_NE(now.basis.find(path("found.json")), std::string::npos) << now.basis;
    EXPECT_EQ(now.basis.find(path("none.json")), std::string::npos) << now.basis;
    if (now.basis.rfind("confirmed the plateau", 0) == 0) {
      EXPECT_EQ(now.planned_bytes, 2 * kMiB);
      ASSERT_EQ(sets_of_mix(now.sets, "read").size(), 2u);
      EXPECT_EQ(sets_of_mix(now.sets, "read")[1].bytes, 4 * kMiB);
    }
  }
  EXPECT_GT(spaces, 0);
  EXPECT_NE(r.err.find("--plateau-from"), std::string::npos) << r.err;  // the broken one, said
  // Only files that reached none: the first of them is named.
  const auto again = run_command(
      run(prof, "--plateau-from " + path("none.json") + " --out " + path("again.json")));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const json& s : read_results_file(path("again.json"))["context"]["spaces"])
    if (s.contains("memory_plateau")) {
      const std::string basis = s["memory_plateau"]["basis"];
      EXPECT_NE(basis.find(path("none.json") + " recorded no plateau, so it was searched anew"),
                std::string::npos)
          << basis;
    }
}

TEST_F(CliPlateau, ABadSettingIsOneLineNamingIt) {
  const auto r = run_command(run(profile({{"tolerance", 2}}), "--out " + path("r.json")));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("memory_plateau.tolerance"), std::string::npos) << r.err;
  const auto typo = run_command(run(profile({{"budget", 5}}), "--out " + path("r.json")));
  EXPECT_EQ(typo.exit_code, 2) << typo.err;
  EXPECT_NE(typo.err.find("budget"), std::string::npos) << typo.err;
}

}  // namespace ridgeline::plateau_cli_test
