// scripts/nightly end to end with the built binary (--bin) and a one-space, one-dtype profile:
// the first night starts the baseline, the history of verified nights grows, an A/A night passes
// at the defaults once the history gates, a planted slowdown fails and is named,
// an unreadable baseline is kept aside and replaced, baselines are per host/device.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <thread>

#include "results/results_file.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_command;
using test::slurp;

const std::string kBin = ridgeline::test::paths::kRunBin;
const std::string kScript = std::string(ridgeline::test::paths::kSourceDir) + "/scripts/nightly";
const std::string kProfile =
    std::string(ridgeline::test::paths::kSourceDir) + "/tests/nightly/nightly-test-sweep.json";

struct Night {
  test::CommandResult r;
  fs::path folder;       // tonight's results folder, from the script's "results in" line
  double cpu_share = 1;  // CPU time of the script and its children over wall time
  double others = 0;     // mean count of other runnable threads on the machine meanwhile
  std::string summary() const { return slurp((folder / "summary.md").string()); }
};

double children_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Everything a night runs is single-threaded and CPU-bound (the Serial probes, the bootstrap of
// the fit), so on a machine of its own a night gets ~100 % of a CPU and nothing else is runnable.
// Other work (a shared build host) stretches or shifts the timings of whole points, so that two
// nights no longer measure the same machine: seen as a smaller CPU share, or as other runnable
// threads (sampled from /proc/stat; contention for the other core's caches and memory
// bandwidth shows only there).
constexpr double kQuietShare = 0.8, kQuietOthers = 0.5;
bool contended(const Night& a, const Night& b) {
  for (const Night* n : {&a, &b})
    if (n->cpu_share < kQuietShare || n->others > kQuietOthers) return true;
  return false;
}
int procs_running() {
  std::ifstream in("/proc/stat");
  std::string key;
  long v = 0;
  while (in >> key) {
    if (key == "procs_running" && in >> v) return int(v);
    in.ignore(1 << 20, '\n');
  }
  return -1;
}
std::string shares(const Night& a, const Night& b) {
  return "the nights got " + std::to_string(int(100 * a.cpu_share)) + " % and " +
         std::to_string(int(100 * b.cpu_share)) + " % of a CPU, beside " +
         std::to_string(a.others).substr(0, 4) + " and " + std::to_string(b.others).substr(0, 4) +
         " other runnable threads";
}

std::string today_utc() {
  char buf[16];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

class NightlyScript : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ridgeline-nightly-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);  // kept for a look when something failed
  }
  fs::path baselines() const { return dir_ / "baselines"; }
  std::string step_summary() const { return (dir_ / "step_summary.md").string(); }

  Night night(const std::string& args = "", const std::string& bin = kBin) const {
    Night n;
    const double cpu0 = children_cpu_s();
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<bool> done{false};
    double sum = 0;
    int samples = 0;
    std::thread sampler([&] {
      while (!done) {
        const int r = procs_running();  // counts the night and this sampler
        if (r > 0) sum += r - 2, ++samples;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
    n.r = run_command("GITHUB_STEP_SUMMARY=" + step_summary() + " " + kScript + " --bin " + bin +
                      " --profile " + kProfile + " --results-dir " + (dir_ / "results").string() +
                      " --baseline-dir " + baselines().string() + " " + args);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    done = true;
    sampler.join();
    n.cpu_share = (children_cpu_s() - cpu0) / wall;
    n.others = samples ? std::max(0.0, sum / samples) : 0;
    std::smatch m;
    if (std::regex_search(n.r.err, m, std::regex("nightly: results in (\\S+)")))
      n.folder = m[1].str();
    return n;
  }
  // What replaying_binary() carries in each night's results.
  enum class Replay {
    // A night recorded on a quiet 2-vCPU VM (tests/data/gate-history/night-01.json, the nightly
    // test profile's points): tonight's sweep is cut to one point (its run, log and exit code
    // stay real) and the verdicts depend on nothing this machine measures or how busy it is.
    kRecordedNight,
    // The first night's own measured points (the planted-slowdown test, whose tonight is
    // measured here and must meet a history measured here too).
    kFirstNight,
  };
  // A stand-in for the binary for the tests whose subject is not the measurement: it runs the
  // binary, and `run` then carries the replayed points instead of tonight's, each time x a
  // fixed factor within +-1 % (a different one per night and point) and with the CPU wait that
  // set_cpu_wait() gave (0.001 until then, a quiet machine). Between two processes the
  // cache-resident points of this VM move by up to 13 % on a quiet machine, and under load the
  // fit of a night can fail or flip (seen: P -11 % between replays of one loaded night): neither
  // then decides a test about history files, baselines or the gate's wording.
  std::string replaying_binary(Replay replay = Replay::kRecordedNight) const {
    const bool recorded = replay == Replay::kRecordedNight;
    const std::string wrapper = (dir_ / "ridgeline-replaying").string();
    const std::string source =
        recorded ? std::string(ridgeline::test::paths::kTestData) + "/gate-history/night-01.json"
                 : "";
    std::ofstream(wrapper)
        << "#!/bin/bash\n"
           "[ \"$1\" = run ] || exec '" +
               kBin + "' \"$@\"\n'" + kBin + "' \"$@\"" +
               (recorded ? " --benchmark_filter='^read/'" : "") +
               "; rc=$?\n"
               "prev=''; for a in \"$@\"; do [ \"$prev\" = --out ] && out=$a; prev=$a; done\n"
               "python3 - \"$out\" '" +
               dir_.string() + "' '" + source +
               "' <<'PY'\n"
               "import json, os, sys\n"
               "out, tmp, source = sys.argv[1:]\n"
               "counter, recorded = tmp + '/nights', tmp + '/recorded-points.json'\n"
               "wait = float(open(tmp + '/cpu-wait').read()) if os.path.exists(tmp + '/cpu-wait') "
               "else 0.001\n"
               "night = int(open(counter).read()) + 1 if os.path.exists(counter) else 0\n"
               "open(counter, 'w').write(str(night))\n"
               "transient = tmp + '/transient.json'\n"
               "runs = json.load(open(transient)) if os.path.exists(transient) else []\n"
               "slow = runs.pop(0) if runs else {}\n"
               "if runs: json.dump(runs, open(transient, 'w'))\n"
               "elif os.path.exists(transient): os.remove(transient)\n"
               "d = json.load(open(out))\n"
               "if source:\n"
               "    d['points'] = json.load(open(source))['points']\n"
               "    d['complete'] = True\n"
               "else:\n"
               "    if night == 0:\n"
               "        json.dump(d['points'], open(recorded, 'w'))\n"
               "    d['points'] = json.load(open(recorded))\n"
               "for j, p in enumerate(d['points']):\n"
               "    f = (1 + 0.005 * ((3 * night + 7 * j) % 5 - 2)) * slow.get(p['name'], 1)\n"
               "    p['samples'] = [s * f for s in p['samples']]\n"
               "    for t in ('median_s', 'min_s', 'max_s'):\n"
               "        if p.get(t) is not None: p[t] *= f\n"
               "    for r in ('flops_per_s', 'bytes_per_s'):\n"
               "        if p.get(r) is not None: p[r] /= f\n"
               "    if source: p['cpu_wait'] = {'median_share': wait, 'threads': 1}\n"
               "    if p.get('cpu_wait'): p['cpu_wait']['median_share'] = wait\n"
               "json.dump(d, open(out, 'w'))\n"
               "PY\n"
               "exit $rc\n";
    fs::permissions(wrapper, fs::perms::owner_all);
    return wrapper;
  }
  // One point of the next `runs` runs only (a night's run, then its re-measures) times `factor`:
  // a neighbour's burst.
  void set_transient(const std::string& point, double factor, int runs = 1) const {
    json slow = json::array();
    for (int i = 0; i < runs; ++i) slow.push_back(json{{point, factor}});
    std::ofstream((dir_ / "transient.json").string()) << slow.dump();
  }
  // The median CPU-wait share replaying_binary() writes into the nights from now on.
  void set_cpu_wait(const char* share) const {
    std::ofstream((dir_ / "cpu-wait").string()) << share;
  }
  // The one baseline file of this host/device (the key is the script's business).
  fs::path only_baseline() const {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(baselines()))
      if (e.path().extension() == ".json") found.push_back(e.path());
    EXPECT_EQ(found.size(), 1u);
    return found.empty() ? fs::path() : found.front();
  }
  // The nights the store keeps as this baseline's history.
  std::size_t nights_in_history() const {
    std::size_t n = 0;
    for (const auto& e :
         fs::directory_iterator(baselines() / (only_baseline().stem().string() + ".history")))
      n += e.path().extension() == ".json";
    return n;
  }
  fs::path dir_;
};

TEST_F(NightlyScript, FirstNightStartsTheBaselineAndWritesTheFolder) {
  std::ofstream(step_summary()) << "earlier step\n";
  const Night n = night();
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_NE(n.r.err.find("no baseline for"), std::string::npos) << n.r.err;
  EXPECT_NE(n.summary().find("NEW BASELINE"), std::string::npos) << n.summary();

  // results/<host>-<device-or-cpu>/<YYYY-MM-DD>/, named after the baseline key.
  const fs::path baseline = only_baseline();
  EXPECT_EQ(n.folder.filename(), today_utc());
  EXPECT_EQ(n.folder.parent_path().filename(), baseline.stem());
  EXPECT_EQ(n.folder.parent_path().parent_path(), dir_ / "results");
  for (const char* f : {"results.json", "report.md", "summary.md", "info.json"})
    EXPECT_TRUE(fs::exists(n.folder / f)) << f;
  bool svg = false;
  for (const auto& e : fs::directory_iterator(n.folder)) svg |= e.path().extension() == ".svg";
  EXPECT_TRUE(svg);
  EXPECT_EQ(slurp(baseline.string()), slurp((n.folder / "results.json").string()));

  // The key: the host name and (no GPU here) the CPU model, slugged.
  const json info = json::parse(slurp((n.folder / "info.json").string()));
  const std::string host = info["host"]["hostname"];
  EXPECT_EQ(baseline.stem().string().rfind(host, 0), 0u) << baseline;
  EXPECT_TRUE(std::regex_match(baseline.stem().string(), std::regex("[a-z0-9]+(-[a-z0-9]+)+")))
      << baseline;

  // Appended to the CI step summary, after what was there.
  const std::string ss = slurp(step_summary());
  EXPECT_EQ(ss.rfind("earlier step\n", 0), 0u) << ss;
  EXPECT_NE(ss.find("## ridgeline nightly: `" + baseline.stem().string() + "`"), std::string::npos)
      << ss;
  EXPECT_NE(ss.find("### Fitted roofs"), std::string::npos) << ss;
  // CI logs: one line per point, no carriage-return spinners.
  EXPECT_EQ(n.r.err.find('\r'), std::string::npos);
  EXPECT_NE(n.r.err.find("verified ("), std::string::npos) << n.r.err;
}

// The nightly gate judges speed only once the history holds kMinHistory verified nights.
constexpr int kMinHistory = 3;

// A/A at the defaults: same binary, same profile, nothing changed. Not a timing test (seen in CI
// on a quiet machine: read/n:131072 -12.8 % between two processes, beyond the 6.9 % its three
// history nights allowed); how often real A/A nights fail the gate is what `scripts/gate-aa`
// measures on recorded nights. Here the nights differ by the replay's +-1 % only, well inside
// every tolerance: the gate must call that no regression once the history gates, and say so;
// nights before the history is long enough report but never fail on speed.
TEST_F(NightlyScript, SameMeasurementsAreNoRegressionOnceTheHistoryGates) {
  const std::string wrapper = replaying_binary();
  std::vector<Night> nights;
  for (int i = 0; i <= kMinHistory; ++i) {
    nights.push_back(night("", wrapper));
    if (i < kMinHistory) {
      ASSERT_EQ(nights.back().r.exit_code, 0) << nights.back().r.err;
    }
  }
  const Night& first = nights.front();
  const Night& n = nights.back();
  const fs::path baseline = only_baseline();
  EXPECT_EQ(slurp(baseline.string()), slurp((first.folder / "results.json").string()))
      << "a normal night leaves the baseline alone";
  EXPECT_NE(nights[1].summary().find("history too short to gate on speed"), std::string::npos)
      << nights[1].summary();
  EXPECT_EQ(nights[1].folder.filename(), today_utc() + ".2");  // a second night on one day
  // Tonight's run confirms the plateau of the stored nights: the baseline, then the history,
  // newest first (every history night but tonight's, which joined after its run).
  std::vector<std::string> sources;
  const std::string say_run = n.r.err.substr(n.r.err.find("ridgeline run --profile"));
  const std::regex from("--plateau-from (\\S+)");
  for (std::sregex_iterator it(say_run.begin(), say_run.begin() + say_run.find('\n'), from), end;
       it != end; ++it)
    sources.push_back((*it)[1]);
  std::vector<std::string> history;
  for (const auto& e :
       fs::directory_iterator(baselines() / (baseline.stem().string() + ".history")))
    history.push_back(e.path().string());
  std::sort(history.rbegin(), history.rend());
  ASSERT_EQ(history.size(), std::size_t(kMinHistory));
  history.front() = baseline.string();  // in tonight's place (the newest), the baseline
  EXPECT_EQ(sources, history) << say_run.substr(0, say_run.find('\n'));
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err << "\n" << slurp((n.folder / "compare.md").string());
  EXPECT_NE(n.summary().find("— no regression"), std::string::npos) << n.summary();
  EXPECT_EQ(n.summary().find("too short"), std::string::npos) << n.summary();
  EXPECT_NE(n.summary().find("0 slower"), std::string::npos) << n.summary();
  // The summary says what a green night means: the smallest change each roof would show.
  EXPECT_TRUE(std::regex_search(n.summary(), std::regex("`P Serial/fp64`: [0-9.]+ %")))
      << n.summary();
  // compare's JSON: every metric with its tolerance and verdict.
  const json c = json::parse(slurp((n.folder / "compare.json").string()));
  EXPECT_EQ(c["history"].size(), std::size_t(kMinHistory));
  EXPECT_TRUE(c["gates_speed"].get<bool>());
  for (const auto& m : c["metrics"]) {
    // --threshold floors every tolerance, --machine-threshold the machine-wide factor's.
    EXPECT_GE(m["tolerance"].get<double>(), (m["kind"] == "machine" ? 0.01 : 0.05) - 1e-12) << m;
    // Moves of at most 2 % between nights stay inside every tolerance: SAME, every one.
    EXPECT_EQ(m["verdict"], "SAME") << m;
  }
  const std::string ss = slurp(step_summary());
  EXPECT_NE(ss.find("NEW BASELINE"), std::string::npos);
  EXPECT_NE(ss.find("### Against the baseline"), std::string::npos) << ss;
  EXPECT_EQ(ss.find("<details>"), std::string::npos) << "the headline only";
}

// triad runs its kernel 10 times per timed iteration: -90 % throughput on one point, beyond any
// tolerance the history of this VM gives (k x spread stays well below that).
TEST_F(NightlyScript, PlantedSlowdownFailsTheNightAndNamesTheMetric) {
  // The history replayed from this machine's first night, tonight measured with the plant.
  const std::string replaying = replaying_binary(Replay::kFirstNight);
  std::vector<Night> nights;
  for (int i = 0; i < kMinHistory; ++i) {
    nights.push_back(night("", replaying));
    ASSERT_EQ(nights.back().r.exit_code, 0) << nights.back().r.err;
  }
  const std::string before = slurp(only_baseline().string());
  const Night n = night("--remeasure-wait 0 -- --test-slowdown triad:10");
  std::cout << "slowdown: " << shares(nights.back(), n) << "\n";
  if (n.r.exit_code == 0 && contended(nights.back(), n))
    GTEST_SKIP() << "slowdown drowned by a busy machine: " << shares(nights.back(), n) << "\n"
                 << slurp((n.folder / "compare.md").string());
  ASSERT_EQ(n.r.exit_code, 1) << shares(nights.back(), n) << "\n"
                              << n.r.err << "\n"
                              << slurp((n.folder / "compare.md").string());
  const std::string s = n.summary();
  EXPECT_NE(s.find("REGRESSION"), std::string::npos) << s;
  // Held to both re-measures (--remeasures' default), which ran the plant again and found it too.
  EXPECT_TRUE(fs::exists(n.folder / "remeasure" / "results.json"));
  EXPECT_TRUE(fs::exists(n.folder / "remeasure-2" / "results.json"));
  EXPECT_FALSE(fs::exists(n.folder / "remeasure-3"));
  EXPECT_NE(s.find("; the re-measures: -"), std::string::npos) << s;
  EXPECT_NE(s.find("/remeasure-2/results.json` (re-measure 2 of at most 2; run exit 0)"),
            std::string::npos)
      << s;
  const json c = json::parse(slurp((n.folder / "compare.json").string()));
  EXPECT_EQ(c["options"]["remeasured"], 2);
  EXPECT_EQ(c["remeasures"].size(), 2u);
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(s, m, std::regex("SLOWER: `triad/Serial/fp64/n:[0-9]+` (-[0-9.]+) %")))
      << s;
  // 10x the time: about -90 %. On a busy machine the nights get different shares of a CPU and
  // the size of the change is theirs, not the plant's: the size is checked on a quiet machine.
  if (!contended(nights.back(), n)) {
    EXPECT_LT(std::stod(m[1].str()), -40) << s;
  }
  // The regressions come first in compare's markdown.
  const std::string md = slurp((n.folder / "compare.md").string());
  EXPECT_LT(md.find("**SLOWER**"), md.find("<details>")) << md;
  EXPECT_EQ(slurp(only_baseline().string()), before);
  EXPECT_NE(slurp(step_summary()).find("SLOWER: `triad/Serial/fp64"), std::string::npos);
  // A night with a regression does not join the history.
  EXPECT_EQ(nights_in_history(), std::size_t(kMinHistory - 1));
}

// A slowdown in one run and not in its re-measure (a neighbour's burst on a shared host, issue 49)
// is re-measured, reported as not reproduced, and does not fail the night or join the history.
TEST_F(NightlyScript, ATransientSlowdownIsReMeasuredAndNotGated) {
  const std::string wrapper = replaying_binary();
  for (int i = 0; i <= kMinHistory; ++i) ASSERT_EQ(night("", wrapper).r.exit_code, 0);
  const auto before = nights_in_history();
  set_transient("triad/Serial/fp64/n:10880", 3);
  const Night n = night("", wrapper);
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err << "\n" << slurp((n.folder / "compare.md").string());
  EXPECT_TRUE(fs::exists(n.folder / "remeasure" / "results.json"));
  EXPECT_NE(n.r.err.find("re-measuring to confirm"), std::string::npos) << n.r.err;
  const std::string s = n.summary();
  // triad, and the roof it set.
  EXPECT_TRUE(
      std::regex_search(s, std::regex("[0-9]+ slowdown\\(s\\) not reproduced by the re-measure")))
      << s;
  EXPECT_NE(s.find("re-measured: `"), std::string::npos) << s;
  const std::string md = slurp((n.folder / "compare.md").string());
  const auto cleared = md.find("Not reproduced: ");
  ASSERT_NE(cleared, std::string::npos) << md;
  EXPECT_NE(md.find("`triad/Serial/fp64/n:10880` (-", cleared), std::string::npos) << md;
  EXPECT_EQ(nights_in_history(), before);
  // The first re-measure contradicted it: nothing left to confirm, no second one.
  EXPECT_FALSE(fs::exists(n.folder / "remeasure-2"));
  // The next quiet night is decided at once: no re-measure.
  const Night quiet = night("", wrapper);
  ASSERT_EQ(quiet.r.exit_code, 0) << quiet.r.err;
  EXPECT_FALSE(fs::exists(quiet.folder / "remeasure"));
}

// A burst that outlasts the first re-measure (issue 49: fma fp64 k:8 at 41.6 GB/s in a night,
// 40.8 in its re-measure 24 s later, 120.8 36 s after): the night and the first re-measure slow,
// the second normal. With one re-measure it fails the night; with two (the default, here without
// the wait) the second re-measure separates it: not gated, the night out of the history.
TEST_F(NightlyScript, ABurstLongerThanTheFirstRemeasureIsSeparatedByTheSecond) {
  const std::string wrapper = replaying_binary();
  for (int i = 0; i <= kMinHistory; ++i) ASSERT_EQ(night("", wrapper).r.exit_code, 0);
  const auto before = nights_in_history();
  const std::string point = "triad/Serial/fp64/n:10880";
  set_transient(point, 3, 2);
  const Night once = night("--remeasures 1", wrapper);
  EXPECT_EQ(once.r.exit_code, 1) << once.r.err;
  EXPECT_TRUE(fs::exists(once.folder / "remeasure" / "results.json"));
  EXPECT_FALSE(fs::exists(once.folder / "remeasure-2"));
  EXPECT_EQ(nights_in_history(), before);

  set_transient(point, 3, 2);
  const Night n = night("--remeasure-wait 0", wrapper);
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err << "\n" << slurp((n.folder / "compare.md").string());
  EXPECT_NE(n.r.err.find("re-measuring to confirm, 1 of 2"), std::string::npos) << n.r.err;
  EXPECT_NE(n.r.err.find("re-measuring to confirm, 2 of 2"), std::string::npos) << n.r.err;
  const std::string s = n.summary();
  // Every re-measure's file and run exit.
  for (const char* again : {"remeasure", "remeasure-2"}) {
    const fs::path file = n.folder / again / "results.json";
    EXPECT_TRUE(fs::exists(file)) << again;
    EXPECT_NE(s.find("re-measured: `" + file.string() + "` (re-measure "), std::string::npos) << s;
  }
  EXPECT_NE(s.find("(re-measure 2 of at most 2; run exit 0)"), std::string::npos) << s;
  EXPECT_TRUE(
      std::regex_search(s, std::regex("[0-9]+ slowdown\\(s\\) not reproduced by the re-measures")))
      << s;
  const json c = json::parse(slurp((n.folder / "compare.json").string()));
  EXPECT_EQ(c["history_decision"], "transient_kept_out");
  EXPECT_EQ(c["options"]["remeasured"], 2);
  ASSERT_EQ(c["remeasures"].size(), 2u);
  EXPECT_EQ(c["remeasures"][1], (n.folder / "remeasure-2" / "results.json").string());
  for (const auto& m : c["metrics"])
    if (m["metric"] == point) {
      EXPECT_EQ(m["verdict"], "AMBIGUOUS") << m;
      EXPECT_EQ(m["remeasures"][0]["verdict"], "SLOWER") << m;  // the burst outlasted it
      EXPECT_NE(m["note"].get<std::string>().find("not reproduced: re-measure 2 of 2"),
                std::string::npos)
          << m;
    }
  const std::string md = slurp((n.folder / "compare.md").string());
  const auto cleared = md.find("Not reproduced: ");
  ASSERT_NE(cleared, std::string::npos) << md;
  EXPECT_NE(md.find("`" + point + "` (-", cleared), std::string::npos) << md;
  EXPECT_NE(md.find("; not by re-measure 2)", cleared), std::string::npos) << md;
  EXPECT_EQ(nights_in_history(), before);
}

// The history keeps the last N verified nights, the baseline counted; a promotion starts it again.
TEST_F(NightlyScript, HistoryKeepsTheLastNightsAndStartsAgainOnPromotion) {
  const std::string replaying = replaying_binary();
  for (int i = 0; i < 3; ++i) {
    const Night n = night("--history 2", replaying);
    ASSERT_EQ(n.r.exit_code, 0) << n.r.err << "\n" << slurp((n.folder / "compare.md").string());
  }
  const fs::path dir = baselines() / (only_baseline().stem().string() + ".history");
  std::vector<fs::path> kept;
  for (const auto& e : fs::directory_iterator(dir)) kept.push_back(e.path());
  ASSERT_EQ(kept.size(), 1u);  // N = 2: the baseline and the newest night
  const Night n = night("--history 2", replaying);
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_EQ(json::parse(slurp((n.folder / "compare.json").string()))["history"].size(), 2u);
  ASSERT_EQ(night("--update-baseline", replaying).r.exit_code, 0);
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(night("--history 0").r.exit_code, 2);
}

// A night measured on a busy machine stays out of the history while it holds enough quiet
// nights (its spread would widen every tolerance). The wrapper writes each night's CPU wait into
// its results as `ridgeline run` records it (set_cpu_wait), so which night is busy does not depend
// on what else this machine runs.
TEST_F(NightlyScript, ABusyNightStaysOutOfAQuietHistory) {
  const std::string wrapper = replaying_binary();
  const auto history_files = [this] {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(baselines()))
      if (e.is_directory())
        for (const auto& f : fs::directory_iterator(e.path())) n += f.path().extension() == ".json";
    return n;
  };
  for (int i = 0; i <= kMinHistory - 1; ++i) ASSERT_EQ(night("", wrapper).r.exit_code, 0);
  ASSERT_EQ(history_files(), std::size_t(kMinHistory - 1));  // and the baseline: 3 quiet nights
  set_cpu_wait("0.5");
  const Night busy = night("", wrapper);
  ASSERT_EQ(busy.r.exit_code, 0) << busy.r.err;
  EXPECT_NE(busy.summary().find("kept out of the history"), std::string::npos) << busy.summary();
  EXPECT_NE(busy.summary().find("Tonight was measured on a busy machine"), std::string::npos);
  EXPECT_EQ(history_files(), std::size_t(kMinHistory - 1));
  set_cpu_wait("0.001");
  ASSERT_EQ(night("", wrapper).r.exit_code, 0);
  EXPECT_EQ(history_files(), std::size_t(kMinHistory));  // a quiet night joins again
}

TEST_F(NightlyScript, UpdateBaselinePromotesTonightsResults) {
  ASSERT_EQ(night().r.exit_code, 0);
  const Night n = night("--update-baseline -- --test-slowdown triad:3");
  EXPECT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_NE(n.summary().find("BASELINE UPDATED"), std::string::npos) << n.summary();
  EXPECT_EQ(slurp(only_baseline().string()), slurp((n.folder / "results.json").string()));
}

TEST_F(NightlyScript, UnreadableBaselineIsKeptAsideAndANewOneStarts) {
  ASSERT_EQ(night().r.exit_code, 0);
  const fs::path baseline = only_baseline();
  std::ofstream(baseline) << "{\"schema_version\": \"1.0.0\", \"points\": [";  // truncated
  const Night n = night();
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_NE(n.r.err.find("is unreadable"), std::string::npos) << n.r.err;
  EXPECT_NE(n.summary().find("NEW BASELINE (the old one was unreadable)"), std::string::npos)
      << n.summary();
  const fs::path aside = baseline.string() + ".corrupt-" + today_utc();
  ASSERT_TRUE(fs::exists(aside));
  EXPECT_EQ(slurp(aside.string()), "{\"schema_version\": \"1.0.0\", \"points\": [");
  EXPECT_EQ(slurp(baseline.string()), slurp((n.folder / "results.json").string()));
}

TEST_F(NightlyScript, UnreadableHistoryNightIsKeptAsideAndLeftOut) {
  const std::string replaying = replaying_binary();
  for (int i = 0; i < 2; ++i) ASSERT_EQ(night("", replaying).r.exit_code, 0);
  const fs::path dir = baselines() / (only_baseline().stem().string() + ".history");
  std::vector<fs::path> kept;
  for (const auto& e : fs::directory_iterator(dir)) kept.push_back(e.path());
  ASSERT_EQ(kept.size(), 1u);
  std::ofstream(kept.front()) << "{\"points\": [";  // truncated
  const Night n = night("", replaying);
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_NE(n.r.err.find("is unreadable; kept aside"), std::string::npos) << n.r.err;
  EXPECT_TRUE(fs::exists(kept.front().string() + ".corrupt-" + today_utc()));
  EXPECT_EQ(json::parse(slurp((n.folder / "compare.json").string()))["history"].size(), 1u);
}

TEST_F(NightlyScript, AnotherHostsBaselineIsNeverUsed) {
  fs::create_directories(baselines());
  std::ofstream(baselines() / "otherhost-nvidia-geforce-rtx-4090.json") << "not even JSON";
  const Night n = night();
  ASSERT_EQ(n.r.exit_code, 0) << n.r.err;
  EXPECT_NE(n.summary().find("NEW BASELINE (first night"), std::string::npos) << n.summary();
  EXPECT_EQ(slurp((baselines() / "otherhost-nvidia-geforce-rtx-4090.json").string()),
            "not even JSON");
}

TEST_F(NightlyScript, FailedVerificationFailsTheNightAndNeverBecomesTheBaseline) {
  const Night n = night("--update-baseline -- --test-plant-error triad");
  EXPECT_EQ(n.r.exit_code, 1) << n.r.err;
  EXPECT_NE(n.summary().find("FAILED VERIFICATION"), std::string::npos) << n.summary();
  EXPECT_NE(n.summary().find("baseline not updated"), std::string::npos) << n.summary();
  EXPECT_EQ(n.summary().find("NEW BASELINE"), std::string::npos) << n.summary();
  EXPECT_FALSE(fs::exists(baselines()) && !fs::is_empty(baselines()));
}

// A night whose probe cannot be set up loses points: the gate names them and fails.
TEST_F(NightlyScript, PointsLostTonightFailTheNightAndAreNamed) {
  ASSERT_EQ(night().r.exit_code, 0);
  const Night n = night("-- --test-fail-setup triad");
  EXPECT_EQ(n.r.exit_code, 1) << n.r.err;
  const std::string s = n.summary();
  EXPECT_NE(s.find("could not be set up"), std::string::npos) << s;
  EXPECT_NE(s.find("REGRESSION"), std::string::npos) << s;
  EXPECT_TRUE(std::regex_search(
      s, std::regex("MISSING: `triad/Serial/fp64/n:[0-9]+` \\(skipped in the current file: setup "
                    "failed: planted by --test-fail-setup\\)")))
      << s;
}

// A directory at the baseline's path read as "no baseline": NEW BASELINE, exit 0, every night.
TEST_F(NightlyScript, BaselinePathThatIsNotAFileIsBadInput) {
  ASSERT_EQ(night().r.exit_code, 0);
  const fs::path baseline = only_baseline();
  fs::remove(baseline);
  fs::create_directory(baseline);
  const Night n = night();
  EXPECT_EQ(n.r.exit_code, 2) << n.r.err;
  EXPECT_NE(n.r.err.find("exists but is not a regular file"), std::string::npos) << n.r.err;
  EXPECT_TRUE(fs::is_directory(baseline));
  EXPECT_TRUE(fs::is_empty(baseline));
}

// Two nights at once shared one dated folder (and one results.json).
TEST_F(NightlyScript, TwoNightsAtOnceGetTheirOwnFolders) {
  Night a, b;
  std::thread other([&] { b = night(); });
  a = night();
  other.join();
  EXPECT_EQ(a.r.exit_code, 0) << a.r.err;
  EXPECT_EQ(b.r.exit_code, 0) << b.r.err;
  EXPECT_NE(a.folder, b.folder);
  for (const Night* n : {&a, &b}) {
    EXPECT_TRUE(fs::exists(n->folder / "results.json")) << n->folder;
    EXPECT_NE(slurp((n->folder / "run.log").string()), "") << n->folder;
  }
}

// Error text in the summary cannot carry markup into the CI job summary.
TEST_F(NightlyScript, SummaryQuotesHostileErrorsSafely) {
  const Night n = night("-- --space '<img src=x onerror=alert(1)>`x`'");
  EXPECT_EQ(n.r.exit_code, 2) << n.r.err;
  const std::string s = n.summary();
  EXPECT_NE(s.find("unknown execution space"), std::string::npos) << s;
  EXPECT_EQ(s.find("<img"), std::string::npos) << s;
  EXPECT_EQ(slurp(step_summary()).find("<img"), std::string::npos);
}

TEST_F(NightlyScript, BadInputExitsTwo) {
  for (const char* args : {"--profile /nonexistent/p.json", "--bogus", "-- --space CUDA",
                           "--threshold", "--remeasures 0", "--remeasure-wait soon"}) {
    const auto r = night(args).r;
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  }
  const Night n = night("-- --space CUDA");
  EXPECT_NE(n.summary().find("unknown execution space 'CUDA'"), std::string::npos) << n.summary();
  const auto r = run_command(kScript + " --bin /nonexistent/ridgeline");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/ridgeline"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ridgeline
