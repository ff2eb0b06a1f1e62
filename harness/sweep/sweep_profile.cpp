#include "harness/sweep/sweep_profile.hpp"

#include <algorithm>
#include <filesystem>

#include "core/field_reader.hpp"
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
constexpr long long kMaxRepetitions = 1000;
constexpr double kMaxSeconds = 60;
constexpr long long kMaxBytes = 1ll << 50;
constexpr double kMaxWorkPerCall = 1e12;

std::vector<std::uint64_t> sizes(const std::vector<long long>& integers) {
  return {integers.begin(), integers.end()};
}

// A section's `probes`: a list of the catalog's names for the section, or "all": every one of
// them in catalog order, so a profile that says "all" also runs what a later catalog adds.
std::vector<std::string> probes_field(const FieldReader& f, const std::string& file,
                                      const std::vector<std::string>& known,
                                      const std::string& what) {
  if (f.present("probes") && f.require("probes").is_string()) {
    if (f.text("probes") == "all") return known;
    throw InputError(file, f.where("probes"), "must be an array of " + what + " names, or \"all\"");
  }
  return f.distinct_names("probes", known, what);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

std::string sweep_profiles_dir() { return profiles_subdir("sweeps"); }

SweepProfile parse_sweep_profile(const json& j, const std::string& file) {
  const FieldReader top(file, j, "");
  top.only({"name",
            "description",
            "repetitions",
            "rounds",
            "min_time_s",
            "warmup_s",
            "spaces",
            "dtypes",
            "dram_llc_multiple",
            "dram_min_bytes",
            "working_set_bytes",
            "device_work_scale",
            "device_dram_min_bytes",
            "memory_plateau",
            "bandwidth",
            "fma",
            "peak",
            "cache",
            "sram",
            "library"});
  SweepProfile p;
  p.source = file;
  p.name = top.text_or("name", "");
  if (p.name.empty()) throw InputError(file, "name", "missing required field");
  p.description = top.text_or("description", "");
  p.repetitions = static_cast<int>(top.integer_or("repetitions", 5, 1, kMaxRepetitions));
  p.rounds = static_cast<int>(top.integer_or("rounds", 1, 1, kMaxRepetitions));
  if (p.repetitions % p.rounds)
    throw InputError(file, "rounds",
                     "must divide repetitions (" + std::to_string(p.repetitions) +
                         "): each round takes the same number of samples of every point");
  p.min_time_s = top.number_or("min_time_s", 0.01, 0, kMaxSeconds, true);
  p.warmup_s = top.number_or("warmup_s", 0.05, 0, kMaxSeconds);
  // Any space ridgeline has a backend for, built here or not: a profile travels between builds.
  p.spaces = top.distinct_names("spaces", kProfileSpaces, "space");
  p.dtypes = top.distinct_names("dtypes", kDtypes, "dtype");
  if (p.dtypes.empty()) p.dtypes = {"fp64", "fp32"};
  p.dram_llc_multiple = top.number_or("dram_llc_multiple", kDramLlcMultiple, 1, 1024);
  p.dram_min_bytes = top.integer_or("dram_min_bytes", 64ll << 20, 1, kMaxBytes);
  p.working_set_bytes = top.integer_or("working_set_bytes", 0, 1, kMaxBytes);
  p.device_work_scale = top.number_or("device_work_scale", 50, 0, 1e4, true);
  p.device_dram_min_bytes = top.integer_or("device_dram_min_bytes", 0, 1, kMaxBytes);
  if (top.present("memory_plateau")) {
    const FieldReader f(file, top.require("memory_plateau"), "memory_plateau");
    f.only({"tolerance", "budget_s", "calls", "bytes_per_call", "max_bytes", "use_llc"});
    p.plateau_search = true;
    p.plateau_tolerance = f.number_or("tolerance", 0.05, 0, 0.5, true);
    p.plateau_budget_s = f.number_or("budget_s", 30, 0, 3600, true);
    p.plateau_calls = static_cast<int>(f.integer_or("calls", 5, 3, 1000));
    p.plateau_bytes_per_call = f.number_or("bytes_per_call", 4e8, 0, kMaxWorkPerCall, true);
    p.plateau_max_bytes = f.integer_or("max_bytes", 64ll << 30, 1, kMaxBytes);
    p.plateau_use_llc = f.present("use_llc") ? f.boolean("use_llc") : true;
  }
  if (top.present("bandwidth")) {
    const FieldReader f(file, top.require("bandwidth"), "bandwidth");
    f.only({"probes"});
    p.bandwidth_probes = probes_field(f, file, kBandwidthProbes, "bandwidth probe");
  }
  if (top.present("fma")) {
    const FieldReader f(file, top.require("fma"), "fma");
    f.only({"probes", "k_max", "flops_per_call"});
    p.fma = true;
    p.fma_probes = probes_field(f, file, kFmaProbes, "fma probe");
    if (p.fma_probes.empty()) p.fma_probes = {"fma"};
    p.fma_k_max = static_cast<int>(f.integer_or("k_max", 8192, 1, 8192));  // the compiled ladder
    p.fma_flops_per_call = f.number_or("flops_per_call", 1e9, 0, kMaxWorkPerCall, true);
  }
  if (top.present("peak")) {
    const FieldReader f(file, top.require("peak"), "peak");
    f.only({"k", "flops_per_call"});
    p.peak = true;
    p.peak_k = static_cast<int>(f.integer_or("k", 1024, 1, 65536));
    p.peak_flops_per_call = f.number_or("flops_per_call", 2e9, 0, kMaxWorkPerCall, true);
  }
  if (top.present("cache")) {
    const FieldReader f(file, top.require("cache"), "cache");
    f.only(
        {"probes", "dtypes", "device_dtypes", "min_bytes", "steps_per_octave", "bytes_per_call"});
    p.cache_probes = probes_field(f, file, kCacheProbes, "cache probe");
    p.cache_dtypes = f.distinct_names("dtypes", kDtypes, "dtype");
    if (p.cache_dtypes.empty()) p.cache_dtypes = {"fp64"};
    p.cache_device_dtypes = f.distinct_names("device_dtypes", kDtypes, "dtype");
    p.cache_min_bytes = f.integer_or("min_bytes", 4096, 1, kMaxBytes);
    p.cache_steps_per_octave = static_cast<int>(f.integer_or("steps_per_octave", 1, 1, 64));
    p.cache_bytes_per_call = f.number_or("bytes_per_call", 2e8, 0, kMaxWorkPerCall, true);
  }
  if (top.present("sram")) {
    const FieldReader f(file, top.require("sram"), "sram");
    f.only({"probes", "dtypes", "device_dtypes", "bytes", "passes"});
    p.sram_probes = probes_field(f, file, kSramProbes, "sram probe");
    if (p.sram_probes.empty()) p.sram_probes = kSramProbes;
    p.sram_dtypes = f.distinct_names("dtypes", {"fp64", "fp32"}, "sram dtype");
    if (p.sram_dtypes.empty()) p.sram_dtypes = {"fp64"};
    p.sram_device_dtypes = f.distinct_names("device_dtypes", {"fp64", "fp32"}, "sram dtype");
    // 1 MiB: above any GPU's shared memory per block and any L1d.
    p.sram_bytes = sizes(f.distinct_integers("bytes", 16, 1ll << 20));
    if (p.sram_bytes.empty()) p.sram_bytes = {16384};
    p.sram_passes = static_cast<int>(f.integer_or("passes", 256, 1, 1000000));
  }
  if (top.present("library")) {
    const FieldReader f(file, top.require("library"), "library");
    f.only({"probes", "gemm_n", "vendor_gemm_n", "vendor_gemm_m"});
    p.library_probes = probes_field(f, file, kLibraryProbes, "library probe");
    p.gemm_n = f.integer_or("gemm_n", 1024, 1, 65536);  // 3·n²·8 bytes: 100 GB at the top
    p.vendor_gemm_n = f.integer_or("vendor_gemm_n", 8192, 1, 65536);          // 3·n²·8 bytes
    p.vendor_gemm_m = sizes(f.distinct_integers("vendor_gemm_m", 1, 65536));  // as vendor_gemm_n
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
  // Only when searched: results written before the search keep matching on --resume.
  if (plateau_search)
    j["memory_plateau"] = {
        {"tolerance", plateau_tolerance}, {"budget_s", plateau_budget_s},
        {"calls", plateau_calls},         {"bytes_per_call", plateau_bytes_per_call},
        {"max_bytes", plateau_max_bytes}, {"use_llc", plateau_use_llc}};
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
  // Only when set, as below: profiles written before keep matching on --resume.
  if (!cache_device_dtypes.empty() && j.contains("cache"))
    j["cache"]["device_dtypes"] = cache_device_dtypes;
  if (!sram_device_dtypes.empty() && j.contains("sram"))
    j["sram"]["device_dtypes"] = sram_device_dtypes;
  if (!library_probes.empty()) {
    j["library"] = {
        {"probes", library_probes}, {"gemm_n", gemm_n}, {"vendor_gemm_n", vendor_gemm_n}};
    // Only when set: profiles and results written before the sweep keep matching on --resume.
    if (!vendor_gemm_m.empty()) j["library"]["vendor_gemm_m"] = vendor_gemm_m;
  }
  return j;
}

}  // namespace ridgeline
