#include "reports/compare/night_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <system_error>

#include "core/file_io.hpp"
#include "core/input_error.hpp"

namespace ridgeline {
namespace night_store_detail {

namespace fs = std::filesystem;

// The store's own files, sorted by name (their names start with a UTC stamp: oldest first).
std::vector<std::string> history_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return names;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::error_code type_ec;
    if (e.path().extension() == ".json" && e.is_regular_file(type_ec))
      names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());  // byte order, as LC_ALL=C sort
  return names;
}

void copy_atomically(const fs::path& from, const fs::path& to) {
  write_text_atomically(to.string(), read_text_file(from.string(), "results file"));
}

void make_folder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string(), "cannot create the folder", ec.value());
}

// The night's own lines for the CI log.
void say(std::ostream& log, const std::string& line) { log << "gate: " << line << "\n"; }

// `reason`: tonight's results become the baseline, if they verified.
void promote(const NightStore& store, const NightRequest& r, const std::string& reason,
             NightOutcome& out, std::ostream& log) {
  if (!r.run_verified) {
    out.details.push_back("baseline not updated: tonight's run did not verify");
    return;
  }
  store.promote(r.results);
  out.details.push_back(reason + ": tonight's results are now the baseline `" +
                        night_text(store.baseline().string()) + "`");
  say(log, reason + ": baseline " + store.baseline().string() + " written");
}

// Compares tonight with the store's window; history nights that cannot be read are kept aside
// and the comparison runs again without them (an older night takes their place). Returns the
// baseline's error when the baseline itself cannot be read, else nullopt (the comparison's
// outcome then in `out`, and `compare_error` set when it could not be made).
std::optional<std::string> compare_tonight(const NightStore& store, const NightRequest& r,
                                           NightOutcome& out, std::string& compare_error,
                                           std::ostream& log) {
  for (;;) {
    GateRequest g;
    g.files = store.window(r.nights);
    const std::size_t nights = g.files.size();
    g.files.push_back(r.results);
    g.options = r.options;
    // The re-measures given, and one more that a pending night would still get: the minimum
    // detectable changes are those caught in all the runs.
    g.options.remeasured = int(r.confirm.size()) + (r.confirm_pending ? 1 : 0);
    g.confirm = r.confirm;
    g.skip_unreadable_history = true;
    say(log, fmt::format("ridgeline compare: {} history night(s), {} (baseline) first, against {}",
                         nights, store.baseline().string(), r.results));
    try {
      GateResult run = run_gate(g);
      bool skipped = false;
      for (const UnreadableFile& u : run.file.unreadable) {
        const fs::path aside = store.quarantine(u.file, r.date);
        skipped = true;
        say(log, "the history night " + u.file + " is unreadable; kept aside as " + aside.string() +
                     " (" + u.error + ")");
        out.details.push_back("the history night `" + night_text(u.file) +
                              "` could not be read; kept aside");
      }
      if (skipped) continue;
      out.file = run.file;
      out.run = std::move(run);
      return std::nullopt;
    } catch (const BaselineUnreadable& e) {
      out.file = unreadable_baseline_file(e.unreadable);
      return e.unreadable.error;
    } catch (const InputError& e) {
      // Bad input to compare (another host's baseline, nothing in common): the night says so
      // and how to go on; the store is left as it is.
      log << "ridgeline: error: " << e.what() << "\n";
      compare_error = e.what();
      return std::nullopt;
    }
  }
}

}  // namespace night_store_detail

namespace fs = std::filesystem;

NightStore::NightStore(fs::path dir, std::string key) : dir_(std::move(dir)), key_(std::move(key)) {
  if (key_.empty() || key_.find('/') != std::string::npos || key_ == "." || key_ == "..")
    throw InputError("", "--key",
                     "'" + key_ +
                         "' is not a file name (a baseline key, as "
                         "'ridgeline info --json' gives it)");
}

fs::path NightStore::baseline() const { return dir_ / (key_ + ".json"); }
fs::path NightStore::history_dir() const { return dir_ / (key_ + ".history"); }

bool NightStore::has_baseline() const {
  std::error_code ec;
  const fs::file_status s = fs::status(baseline(), ec);
  if (!fs::exists(s)) return false;
  if (!fs::is_regular_file(s))
    throw InputError(baseline().string(), "", "the baseline exists but is not a regular file");
  return true;
}

std::vector<std::string> NightStore::window(int nights) const {
  std::vector<std::string> files{baseline().string()};
  const std::vector<std::string> names = night_store_detail::history_names(history_dir());
  const std::size_t keep = std::min(names.size(), std::size_t(std::max(nights - 1, 0)));
  for (std::size_t i = names.size() - keep; i < names.size(); ++i)
    files.push_back((history_dir() / names[i]).string());
  return files;
}

std::vector<std::string> NightStore::plateau_sources() const {
  if (!has_baseline()) return {};
  std::vector<std::string> files{baseline().string()};
  const std::vector<std::string> names = night_store_detail::history_names(history_dir());
  for (auto it = names.rbegin(); it != names.rend(); ++it)
    files.push_back((history_dir() / *it).string());
  return files;
}

fs::path NightStore::quarantine(const fs::path& file, const std::string& date) const {
  fs::path aside = file.string() + ".corrupt-" + date;
  for (int n = 2; fs::exists(fs::symlink_status(aside)); ++n)
    aside = file.string() + ".corrupt-" + date + "." + std::to_string(n);
  std::error_code ec;
  fs::rename(file, aside, ec);
  if (ec) throw IoError(file.string(), "cannot keep aside as " + aside.string(), ec.value());
  return aside;
}

void NightStore::promote(const fs::path& results) const {
  night_store_detail::make_folder(dir_);
  night_store_detail::copy_atomically(results, baseline());
  // The history holds the nights since the baseline: a new baseline starts it again.
  std::error_code ec;
  fs::remove_all(history_dir(), ec);
  if (ec) throw IoError(history_dir().string(), "cannot remove the old history", ec.value());
}

fs::path NightStore::add_night(const fs::path& results, const std::string& name, int nights) const {
  night_store_detail::make_folder(history_dir());
  const fs::path night = history_dir() / (name + ".json");
  night_store_detail::copy_atomically(results, night);
  const std::vector<std::string> names = night_store_detail::history_names(history_dir());
  const std::size_t keep = std::size_t(std::max(nights - 1, 0));
  for (std::size_t i = 0; i + keep < names.size(); ++i) {
    std::error_code ec;  // one that cannot go stays, as the window takes the newest only
    fs::remove(history_dir() / names[i], ec);
  }
  return night;
}

std::string night_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '\n':
      case '\r':
        out += ' ';
        break;
      case '`':
        out += '\'';
        break;
      case '<':
        out += '(';
        break;
      case '>':
        out += ')';
        break;
      default:
        out += c;
    }
  }
  return out;
}

// What the re-measures read of a slowdown that stands: "; the re-measure: -6.1 % (SLOWER)", or
// with several "; the re-measures: -6.1 % (SLOWER), -5.8 % (SLOWER)"; empty where none.
std::string remeasure_text(const CompareMetric& m) {
  if (m.remeasures.size() > 1) {
    std::string readings;
    for (const RemeasureRecord& r : m.remeasures)
      readings += fmt::format("{}{:.1f} % ({})", readings.empty() ? "" : ", ",
                              100 * r.change.value_or(NAN), r.verdict);
    return "; the re-measures: " + readings;
  }
  if (!m.remeasure_verdict) return {};
  return fmt::format("; the re-measure: {:.1f} % ({})", 100 * m.remeasure_change.value_or(NAN),
                     *m.remeasure_verdict);
}

// Whether a night's regressions are all slowdowns (SLOWER metrics, none FAILED or MISSING): what a
// re-measure can still clear.
bool only_slowdowns(const CompareFile& f) {
  const auto count = [&f](const char* v) {
    const auto it = f.counts.find(v);
    return it == f.counts.end() ? 0 : it->second;
  };
  return f.regressions > 0 && count("FAILED") == 0 && count("MISSING") == 0;
}

void judge_compared_night(const CompareFile& f, NightOutcome& out) {
  if (f.regressions > 0) {
    out.verdict = "REGRESSION";
    // What got slower and by how much, what failed or went missing: one line each.
    for (const CompareMetric& m : f.metrics) {
      if (m.verdict == "SLOWER" && f.gates_speed)
        out.details.push_back(fmt::format(
            "SLOWER: `{}` {:.1f} % (tolerance {:.1f} %, p = {:.3g}){}", night_text(m.metric),
            100 * m.change.value_or(NAN), 100 * m.tolerance.value_or(NAN), m.q_value.value_or(NAN),
            remeasure_text(m)));
      else if (m.verdict == "FAILED" || m.verdict == "MISSING")
        out.details.push_back(m.verdict + ": `" + night_text(m.metric) + "` (" +
                              night_text(m.note) + ")");
    }
    out.status = kExitFailed;
    return;
  }
  out.verdict = "no regression";
  if (!f.gates_speed) out.verdict += " (history too short to gate on speed)";
  // Slowdowns explained by a busy machine are AMBIGUOUS: say so, a green night judged less.
  if (const int busy = busy_slowdowns(f); busy > 0)
    out.verdict += fmt::format("; {} slowdown(s) not judged: machine busy", busy);
  // Slowdowns its re-measure did not find: a transient (a neighbour), reported and not gated.
  if (f.not_reproduced > 0)
    out.verdict += fmt::format("; {} slowdown(s) not reproduced by the re-measure{}",
                               f.not_reproduced, f.remeasures.size() > 1 ? "s" : "");
  // A shared cache level is judged less: say how many points, and how many fell below their
  // history (compare's report names them and says what it can still catch there).
  const auto count = [&f](const std::string& k) {
    const auto it = f.shared_levels.find(k);
    return it == f.shared_levels.end() ? 0 : it->second;
  };
  if (const int shared = count("points"); shared > 0) {
    out.verdict += fmt::format(
        "; {} point(s) in a shared cache level judged against their history's range", shared);
    if (const int below = count(range_outcome_name(RangeOutcome::kBelowHistory)); below > 0)
      out.verdict += fmt::format(" ({} below it, not below DRAM: not gated)", below);
  }
}

NightOutcome run_night(const NightStore& store, const NightRequest& r, std::ostream& log) {
  NightOutcome out;
  bool compared = false;  // compare ran (to a verdict or to bad input): --update-baseline applies
  if (!store.has_baseline()) {
    if (r.run_verified) {
      night_store_detail::say(
          log, "no baseline for " + store.key() + " yet: tonight's results start it");
      out.verdict = "NEW BASELINE (first night for this host/device)";
    } else {
      night_store_detail::say(
          log, "no baseline for " + store.key() + " yet, and tonight's results cannot start it");
      out.verdict = "no baseline yet";
    }
    night_store_detail::promote(store, r, "first night", out, log);
  } else {
    std::string compare_error;
    const std::optional<std::string> baseline_error =
        night_store_detail::compare_tonight(store, r, out, compare_error, log);
    if (baseline_error) {
      // The baseline itself cannot be read: keep it aside, start a new one, don't fail the night.
      const fs::path aside = store.quarantine(store.baseline(), r.date);
      night_store_detail::say(log, "the baseline " + store.baseline().string() +
                                       " is unreadable (" + *baseline_error + ");");
      night_store_detail::say(log, "kept aside as " + aside.string() +
                                       "; tonight's results start a new one if they verified");
      out.verdict = r.run_verified ? "NEW BASELINE (the old one was unreadable)"
                                   : "the baseline was unreadable, no new one yet";
      out.details.push_back("the baseline could not be read: `" + night_text(*baseline_error) +
                            "`; kept aside as `" + night_text(aside.string()) + "`");
      night_store_detail::promote(store, r, "new baseline", out, log);
    } else if (!compare_error.empty()) {
      compared = true;
      out.verdict = "BAD INPUT (ridgeline compare exit 2)";
      out.details.push_back("compare: `" + night_text(compare_error) + "`");
      out.details.push_back(
          "if this machine's build changed on purpose, promote tonight's results: "
          "scripts/nightly --update-baseline");
      out.status = kExitBadInput;
    } else if (r.confirm_pending && r.run_verified && !r.update_baseline &&
               only_slowdowns(*out.file)) {
      // Slower, nothing lost or failing (and every re-measure given reproduced what is left):
      // undecided until the caller's next re-measure is held to it.
      NightOutcome slower;
      judge_compared_night(*out.file, slower);
      out.verdict = fmt::format("RE-MEASURE: {} slowdown(s) to confirm", out.file->regressions);
      if (!r.confirm.empty())
        out.verdict += fmt::format(" (reproduced by {} re-measure{})", r.confirm.size(),
                                   r.confirm.size() == 1 ? "" : "s");
      out.details = slower.details;
      out.status = kExitRemeasure;
      night_store_detail::say(log, "slower: the store is left as it is until the re-measure");
      return out;
    } else {
      compared = true;
      judge_compared_night(*out.file, out);
      // compare decides whether tonight may join the history (history_decision): not when it
      // regressed, nor when it was measured on a busy machine while the history holds enough
      // quiet nights (it would raise the history's CPU wait and widen its spreads). On a runner
      // that is always busy, busy nights join (there is no other history to be had).
      const std::string decision = out.file->history_decision.value_or("");
      if (decision == "busy_kept_out")
        out.details.push_back(
            "tonight was measured on a busy machine: kept out of the history (enough quiet "
            "nights there)");
      if (decision == "transient_kept_out")
        out.details.push_back(
            "tonight's slowdowns were not reproduced by its re-measure: kept out of the history "
            "(a transient would widen its spreads)");
      // A verified night without a regression joins the history; the oldest beyond N leave.
      if (decision == "joins" && r.run_verified && !r.update_baseline) {
        store.add_night(r.results, r.night_name, r.nights);
        out.details.push_back("tonight joins the history: `" +
                              night_text(store.history_dir().string()) + "`");
      }
    }
  }
  if (r.update_baseline && compared) {
    night_store_detail::promote(store, r, "--update-baseline", out, log);
    if (r.run_verified) {
      if (out.status == kExitFailed)
        out.details.push_back("the SLOWER metrics above were accepted into the new baseline");
      out.verdict += "; BASELINE UPDATED";
      out.status = kExitOk;
    }
  }
  if (!r.run_verified) {
    out.verdict = "VERIFICATION FAILED" + (out.verdict.empty() ? "" : "; " + out.verdict);
    if (out.status != kExitBadInput) out.status = kExitFailed;
  }
  return out;
}

}  // namespace ridgeline
