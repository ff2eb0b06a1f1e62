#pragma once
// What differs between the Google Benchmark versions ridgeline builds with (1.7.1 through 1.9):
// 1.8 replaced Run::error_occurred/error_message by Run::skipped/skip_message, and takes
// --benchmark_min_time with a unit suffix ("0.01s"; a bare number warns on every run).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>
#include <type_traits>
#include <utility>

namespace ridgeline::compat {

template <class R, class = void>
struct HasSkipped : std::false_type {};
template <class R>
struct HasSkipped<R, std::void_t<decltype(std::declval<const R&>().skip_message)>>
    : std::true_type {};

// Why a run produced no samples (SkipWithError), or empty.
template <class R = benchmark::BenchmarkReporter::Run>
std::string run_error(const R& run) {
  if constexpr (HasSkipped<R>::value) {
    return run.skipped ? (run.skip_message.empty() ? "skipped" : run.skip_message) : "";
  } else {
    return run.error_occurred ? (run.error_message.empty() ? "error" : run.error_message) : "";
  }
}

// The --benchmark_min_time flag for `seconds` in this version's syntax.
inline std::string min_time_flag(double seconds) {
#if RIDGELINE_BENCHMARK_VERSION_MAJOR > 1 || RIDGELINE_BENCHMARK_VERSION_MINOR >= 8
  return fmt::format("--benchmark_min_time={}s", seconds);
#else
  return fmt::format("--benchmark_min_time={}", seconds);
#endif
}

}  // namespace ridgeline::compat
