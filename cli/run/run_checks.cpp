#include "cli/run/run_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "core/input_error.hpp"
#include "harness/sweep/benchmark_compat.hpp"

namespace ridgeline {
namespace {

bool parse_integer(const std::string& s, long long low, long long high, long long& out) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || v < low || v > high)
    return false;
  out = v;
  return true;
}

// Seconds: a number with an optional "s" (the syntax of Google Benchmark 1.8 and later).
bool parse_seconds(std::string s, double low, double high, bool low_open, double& out) {
  if (!s.empty() && s.back() == 's') s.pop_back();
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) return false;
  if (low_open ? !(v > low) : !(v >= low)) return false;
  if (!(v <= high)) return false;
  out = v;
  return true;
}

bool one_of(const std::string& v, std::initializer_list<const char*> allowed) {
  return std::any_of(allowed.begin(), allowed.end(), [&v](const char* a) { return v == a; });
}

}  // namespace

int host_thread_limit() {
  // The online CPUs, not this process's affinity: with OMP_PROC_BIND set, the OpenMP runtime has
  // already bound the main thread to one place when the options are checked.
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

CLI::Validator thread_count_validator() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        long long v = 0;
        const int limit = host_thread_limit();
        if (!parse_integer(s, 1, limit, v))
          return fmt::format(
              "must be an integer in [1, {}] (this machine's hardware threads), "
              "got '{}'",
              limit, s);
        return {};
      },
      "THREADS", "thread count");
}

BenchmarkArgs check_benchmark_args(const std::vector<std::string>& flags) {
  BenchmarkArgs out;
  for (const auto& flag : flags) {
    const auto eq = flag.find('=');
    const std::string name = flag.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? flag.substr(eq + 1) : "";
    auto bad = [&](const std::string& why) {
      return InputError("", name, why + ", got '" + flag + "'");
    };
    if (name == "--benchmark_list_tests") {
      if (has_value && !one_of(value, {"true", "false", "1", "0"}))
        throw bad("must be true or false");
      out.list_only = !has_value || value == "true" || value == "1";
      out.args.push_back(flag);
      continue;
    }
    if (name == "--benchmark_display_aggregates_only") {
      if (has_value && !one_of(value, {"true", "false", "1", "0"}))
        throw bad("must be true or false");
      out.display_aggregates_only = !has_value || value == "true" || value == "1";
      continue;
    }
    if (!has_value || value.empty()) throw bad("needs a value (--flag=value)");
    if (name == "--benchmark_repetitions") {
      long long n = 0;
      if (!parse_integer(value, 1, 1000, n)) throw bad("must be an integer in [1, 1000]");
      out.args.push_back(flag);
    } else if (name == "--benchmark_min_time") {
      double s = 0;
      if (!parse_seconds(value, 0, 60, true, s)) throw bad("must be seconds in (0, 60]");
      out.args.push_back(compat::min_time_flag(s));
    } else if (name == "--benchmark_min_warmup_time") {
      double s = 0;
      if (!parse_seconds(value, 0, 60, false, s)) throw bad("must be seconds in [0, 60]");
      out.args.push_back(fmt::format("--benchmark_min_warmup_time={}", s));
    } else if (name == "--benchmark_format" || name == "--benchmark_out_format") {
      if (!one_of(value, {"console", "json", "csv"})) throw bad("must be console, json or csv");
      out.args.push_back(flag);
    } else if (name == "--benchmark_color") {
      if (!one_of(value, {"auto", "true", "false", "yes", "no", "1", "0"}))
        throw bad("must be auto, true or false");
      out.args.push_back(flag);
    } else if (name == "--benchmark_counters_tabular") {
      if (!one_of(value, {"true", "false", "1", "0"})) throw bad("must be true or false");
      out.args.push_back(flag);
    } else if (name == "--benchmark_time_unit") {
      if (!one_of(value, {"ns", "us", "ms", "s"})) throw bad("must be ns, us, ms or s");
      out.args.push_back(flag);
    } else if (name == "--benchmark_context") {
      if (value.find('=') == std::string::npos) throw bad("must be key=value");
      out.args.push_back(flag);
    } else if (name == "--benchmark_filter" || name == "--benchmark_out") {
      out.args.push_back(flag);
    } else {
      throw InputError("", name,
                       "not supported by ridgeline run (supported: filter, list_tests, "
                       "display_aggregates_only, repetitions, min_time, min_warmup_time, format, "
                       "out, out_format, color, "
                       "counters_tabular, time_unit, context)");
    }
  }
  return out;
}

std::pair<std::string, int> parse_slowdown(const std::string& text) {
  const auto colon = text.find(':');
  long long n = 0;
  if (colon == std::string::npos || colon == 0 ||
      !parse_integer(text.substr(colon + 1), 1, 1000, n))
    throw InputError("", "--test-slowdown",
                     "expected PROBE:N with N in [1, 1000], got '" + text + "'");
  return {text.substr(0, colon), static_cast<int>(n)};
}

}  // namespace ridgeline
