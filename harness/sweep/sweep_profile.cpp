#include "harness/sweep/sweep_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/input_error.hpp"
#include "core/profiles_root.hpp"
#include "results/probe_catalog.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

// The names each family's section accepts: the catalog's (results/probe_catalog.hpp).
const std::vector<std::string> kBandwidthProbes = profile_names_in("bandwidth");
const std::vector<std::string> kFmaProbes = profile_names_in("fma");
const std::vector<std::string> kCacheProbes = profile_names_in("cache");
const std::vector<std::string> kSramProbes = profile_names_in("sram");
const std::vector<std::string> kLibraryProbes = profile_names_in("library");
const std::vector<std::string> kDtypes = {"fp64", "fp32", "fp16", "bf16"};

// Upper bounds: generous for any machine, small enough that sizes, counts and times stay far
// from overflow (1 PiB, 10^12 FLOPs or bytes per call: minutes per call on a CPU).
constexpr std::uint64_t kMaxRepetitions = 1000;
constexpr double kMaxSeconds = 60;
constexpr std::uint64_t kMaxBytes = 1ull << 50;
constexpr double kMaxWorkPerCall = 1e12;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Walks a JSON object, remembering the path for error messages and rejecting unknown keys
// (a typo in a profile must not silently drop a probe).
class Fields {
 public:
  Fields(const json& j, std::string file, std::string path, std::set<std::string> known)
      : j_(j), file_(std::move(file)), path_(std::move(path)) {
    if (!j_.is_object()) throw InputError(file_, path_.empty() ? "" : path_, "must be an object");
    for (const auto& [k, v] : j_.items())
      if (!known.count(k))
        throw InputError(file_, at(k),
                         "unknown field (known: " + join({known.begin(), known.end()}) + ")");
  }
  std::string at(const std::string& k) const { return path_.empty() ? k : path_ + "." + k; }
  bool has(const std::string& k) const { return j_.contains(k); }
  const json& raw(const std::string& k) const { return j_.at(k); }

  // A number in [low, high] ((low, high] when `low_open`): every number a profile sets has a
  // range, so no value can overflow the planner's arithmetic or make a sweep that never ends.
  double number(const std::string& k, double fallback, double low, double high,
                bool low_open = false) const {
    if (!has(k)) return fallback;
    const json& v = j_.at(k);
    const double d = v.is_number() ? v.get<double>() : 0;
    if (!v.is_number() || (low_open ? !(d > low) : !(d >= low)) || !(d <= high))
      throw InputError(file_, at(k),
                       "must be a number in " + std::string(low_open ? "(" : "[") + fmt(low) +
                           ", " + fmt(high) + "]");
    return d;
  }
  // An integer in [low, high]; 2^32 + 16 is out of range, not 16.
  std::uint64_t integer(const std::string& k, std::uint64_t fallback, std::uint64_t low,
                        std::uint64_t high) const {
    if (!has(k)) return fallback;
    const json& v = j_.at(k);
    const bool in_range = v.is_number_unsigned()
                              ? v.get<std::uint64_t>() >= low && v.get<std::uint64_t>() <= high
                              : v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                                    std::uint64_t(v.get<std::int64_t>()) >= low &&
                                    std::uint64_t(v.get<std::int64_t>()) <= high;
    if (!in_range)
      throw InputError(
          file_, at(k),
          "must be an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
    return v.get<std::uint64_t>();
  }
  // A non-empty array of distinct integers, each in [low, high].
  std::vector<std::uint64_t> integers(const std::string& k, std::uint64_t low,
                                      std::uint64_t high) const {
    if (!has(k)) return {};
    const json& v = j_.at(k);
    if (!v.is_array() || v.empty())
      throw InputError(file_, at(k), "must be a non-empty array of integers");
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string here = at(k) + "[" + std::to_string(i) + "]";
      const bool in_range = v[i].is_number_integer() && v[i].get<std::int64_t>() >= 0 &&
                            v[i].get<std::uint64_t>() >= low && v[i].get<std::uint64_t>() <= high;
      if (!in_range)
        throw InputError(
            file_, here,
            "must be an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
      if (std::find(out.begin(), out.end(), v[i].get<std::uint64_t>()) != out.end())
        throw InputError(file_, here, "is listed twice");
      out.push_back(v[i].get<std::uint64_t>());
    }
    return out;
  }
  std::string text(const std::string& k, const std::string& fallback) const {
    if (!has(k)) return fallback;
    if (!j_.at(k).is_string()) throw InputError(file_, at(k), "must be a string");
    return j_.at(k).get<std::string>();
  }
  std::vector<std::string> names(const std::string& k, const std::vector<std::string>& allowed,
                                 const std::string& what) const {
    if (!has(k)) return {};
    const json& v = j_.at(k);
    if (!v.is_array()) throw InputError(file_, at(k), "must be an array of " + what + " names");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string here = at(k) + "[" + std::to_string(i) + "]";
      if (!v[i].is_string()) throw InputError(file_, here, "must be a string");
      const std::string s = v[i].get<std::string>();
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end())
        throw InputError(file_, here,
                         "unknown " + what + " '" + s + "' (known: " + join(allowed) + ")");
      // Twice the same entry would plan two points of one name.
      if (std::find(out.begin(), out.end(), s) != out.end())
        throw InputError(file_, here, "'" + s + "' is listed twice");
      out.push_back(s);
    }
    return out;
  }

 private:
  static std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  const json& j_;
  std::string file_, path_;
};

}  // namespace

std::string sweep_profiles_dir() { return profiles_subdir("sweeps"); }

SweepProfile parse_sweep_profile(const json& j, const std::string& file) {
  const Fields top(
      j, file, "",
      {"name", "description", "repetitions", "rounds", "min_time_s", "warmup_s", "spaces", "dtypes",
       "dram_llc_multiple", "dram_min_bytes", "working_set_bytes", "device_work_scale",
       "device_dram_min_bytes", "bandwidth", "fma", "peak", "cache", "sram", "library"});
  SweepProfile p;
  p.source = file;
  p.name = top.text("name", "");
  if (p.name.empty()) throw InputError(file, "name", "missing required field");
  p.description = top.text("description", "");
  p.repetitions = static_cast<int>(top.integer("repetitions", 5, 1, kMaxRepetitions));
  p.rounds = static_cast<int>(top.integer("rounds", 1, 1, kMaxRepetitions));
  if (p.repetitions % p.rounds)
    throw InputError(file, "rounds",
                     "must divide repetitions (" + std::to_string(p.repetitions) +
                         "): each round takes the same number of samples of every point");
  p.min_time_s = top.number("min_time_s", 0.01, 0, kMaxSeconds, true);
  p.warmup_s = top.number("warmup_s", 0.05, 0, kMaxSeconds);
  // Any space ridgeline has a backend for, built here or not: a profile travels between builds.
  p.spaces = top.names("spaces", kProfileSpaces, "space");
  p.dtypes = top.names("dtypes", kDtypes, "dtype");
  if (p.dtypes.empty()) p.dtypes = {"fp64", "fp32"};
  p.dram_llc_multiple = top.number("dram_llc_multiple", kDramLlcMultiple, 1, 1024);
  p.dram_min_bytes = top.integer("dram_min_bytes", 64ull << 20, 1, kMaxBytes);
  p.working_set_bytes = top.integer("working_set_bytes", 0, 1, kMaxBytes);
  p.device_work_scale = top.number("device_work_scale", 50, 0, 1e4, true);
  p.device_dram_min_bytes = top.integer("device_dram_min_bytes", 0, 1, kMaxBytes);
  if (top.has("bandwidth")) {
    const Fields f(top.raw("bandwidth"), file, "bandwidth", {"probes"});
    p.bandwidth_probes = f.names("probes", kBandwidthProbes, "bandwidth probe");
  }
  if (top.has("fma")) {
    const Fields f(top.raw("fma"), file, "fma", {"probes", "k_max", "flops_per_call"});
    p.fma = true;
    p.fma_probes = f.names("probes", kFmaProbes, "fma probe");
    if (p.fma_probes.empty()) p.fma_probes = {"fma"};
    p.fma_k_max = static_cast<int>(f.integer("k_max", 8192, 1, 8192));  // the compiled ladder
    p.fma_flops_per_call = f.number("flops_per_call", 1e9, 0, kMaxWorkPerCall, true);
  }
  if (top.has("peak")) {
    const Fields f(top.raw("peak"), file, "peak", {"k", "flops_per_call"});
    p.peak = true;
    p.peak_k = static_cast<int>(f.integer("k", 1024, 1, 65536));
    p.peak_flops_per_call = f.number("flops_per_call", 2e9, 0, kMaxWorkPerCall, true);
  }
  if (top.has("cache")) {
    const Fields f(top.raw("cache"), file, "cache",
                   {"probes", "dtypes", "min_bytes", "steps_per_octave", "bytes_per_call"});
    p.cache_probes = f.names("probes", kCacheProbes, "cache probe");
    p.cache_dtypes = f.names("dtypes", kDtypes, "dtype");
    if (p.cache_dtypes.empty()) p.cache_dtypes = {"fp64"};
    p.cache_min_bytes = f.integer("min_bytes", 4096, 1, kMaxBytes);
    p.cache_steps_per_octave = static_cast<int>(f.integer("steps_per_octave", 1, 1, 64));
    p.cache_bytes_per_call = f.number("bytes_per_call", 2e8, 0, kMaxWorkPerCall, true);
  }
  if (top.has("sram")) {
    const Fields f(top.raw("sram"), file, "sram", {"probes", "dtypes", "bytes", "passes"});
    p.sram_probes = f.names("probes", kSramProbes, "sram probe");
    if (p.sram_probes.empty()) p.sram_probes = kSramProbes;
    p.sram_dtypes = f.names("dtypes", {"fp64", "fp32"}, "sram dtype");
    if (p.sram_dtypes.empty()) p.sram_dtypes = {"fp64"};
    // 1 MiB: above any GPU's shared memory per block and any L1d.
    p.sram_bytes = f.integers("bytes", 16, 1ull << 20);
    if (p.sram_bytes.empty()) p.sram_bytes = {16384};
    p.sram_passes = static_cast<int>(f.integer("passes", 256, 1, 1000000));
  }
  if (top.has("library")) {
    const Fields f(top.raw("library"), file, "library",
                   {"probes", "gemm_n", "vendor_gemm_n", "vendor_gemm_m"});
    p.library_probes = f.names("probes", kLibraryProbes, "library probe");
    p.gemm_n = f.integer("gemm_n", 1024, 1, 65536);  // 3·n²·8 bytes: 100 GB at the top
    p.vendor_gemm_n = f.integer("vendor_gemm_n", 8192, 1, 65536);  // 3·n²·8 bytes
    p.vendor_gemm_m = f.integers("vendor_gemm_m", 1, 65536);       // as vendor_gemm_n
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> list_sweep_profiles() {
  std::vector<std::pair<std::string, std::string>> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(sweep_profiles_dir(), ec)) {
    if (e.path().extension() != ".json") continue;
    std::string description;
    try {
      description = read_json_file(e.path().string(), "sweep profile").value("description", "");
    } catch (const std::exception& err) {
      description = std::string("(unreadable: ") + err.what() + ")";
    }
    out.emplace_back(e.path().stem().string(), description);
  }
  std::sort(out.begin(), out.end());
  return out;
}

SweepProfile load_sweep_profile(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  std::string path = name_or_path;
  if (name_or_path.find('/') == std::string::npos &&
      name_or_path.find(".json") == std::string::npos) {
    path = sweep_profiles_dir() + "/" + name_or_path + ".json";
    if (!fs::exists(path)) {
      std::vector<std::string> known;
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(sweep_profiles_dir(), ec))
        if (e.path().extension() == ".json") known.push_back(e.path().stem().string());
      std::sort(known.begin(), known.end());
      if (known.empty())
        throw InputError("", "--profile",
                         "unknown profile '" + name_or_path + "': no profiles folder found (set " +
                             "RIDGELINE_PROFILES, or give a path to a JSON file; searched " +
                             join(profiles_root_candidates()) + ")");
      throw InputError("", "--profile",
                       "unknown profile '" + name_or_path + "' (known: " + join(known) +
                           ", or a path to a JSON file)");
    }
  }
  const json j = read_json_file(path, "sweep profile");
  return parse_sweep_profile(j, path);
}

nlohmann::json SweepProfile::to_json() const {
  json j = {{"name", name},
            {"source", source},
            {"description", description},
            {"repetitions", repetitions},
            {"rounds", rounds},
            {"min_time_s", min_time_s},
            {"warmup_s", warmup_s},
            {"dtypes", dtypes},
            {"dram_llc_multiple", dram_llc_multiple},
            {"dram_min_bytes", dram_min_bytes},
            {"device_work_scale", device_work_scale},
            {"device_dram_min_bytes", device_dram_min_bytes}};
  if (working_set_bytes) j["working_set_bytes"] = working_set_bytes;
  if (!spaces.empty()) j["spaces"] = spaces;
  if (!bandwidth_probes.empty()) j["bandwidth"] = {{"probes", bandwidth_probes}};
  if (fma)
    j["fma"] = {
        {"probes", fma_probes}, {"k_max", fma_k_max}, {"flops_per_call", fma_flops_per_call}};
  if (peak) j["peak"] = {{"k", peak_k}, {"flops_per_call", peak_flops_per_call}};
  if (!cache_probes.empty())
    j["cache"] = {{"probes", cache_probes},
                  {"dtypes", cache_dtypes},
                  {"min_bytes", cache_min_bytes},
                  {"steps_per_octave", cache_steps_per_octave},
                  {"bytes_per_call", cache_bytes_per_call}};
  if (!sram_probes.empty())
    j["sram"] = {{"probes", sram_probes},
                 {"dtypes", sram_dtypes},
                 {"bytes", sram_bytes},
                 {"passes", sram_passes}};
  if (!library_probes.empty()) {
    j["library"] = {
        {"probes", library_probes}, {"gemm_n", gemm_n}, {"vendor_gemm_n", vendor_gemm_n}};
    // Only when set: profiles and results written before the sweep keep matching on --resume.
    if (!vendor_gemm_m.empty()) j["library"]["vendor_gemm_m"] = vendor_gemm_m;
  }
  return j;
}

}  // namespace ridgeline
