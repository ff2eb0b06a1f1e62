#include "reports/machines/machine_profile.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "core/profiles_root.hpp"
#include "core/text.hpp"
#include "reports/roofline/model.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A CPU sheet's "cpu" block: the facts a host must agree with. Every key is one a results file
// records; a fact none records (FMA pipes) would make the sheet match nothing, so it is refused.
CpuSheetFacts read_cpu_facts(const json& j, const std::string& file) {
  if (!j.is_object()) throw InputError(file, "cpu", "must be an object");
  for (const auto& [key, value] : j.items())
    if (key != "isa" && key != "vector_bits" && key != "cores" && key != "threads")
      throw InputError(file, "cpu." + key,
                       "is not a fact a results file records (known: isa, vector_bits, cores, "
                       "threads)");
  const FieldReader f(file, j, "cpu");
  CpuSheetFacts c;
  c.isa = f.text("isa");
  const auto& names = host_isa_names();
  if (std::find(names.begin(), names.end(), c.isa) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw InputError(file, "cpu.isa", "must be one of " + known);
  }
  c.vector_bits = static_cast<int>(f.optional_integer("vector_bits", 64, 2048));
  c.cores = static_cast<int>(f.optional_integer("cores", 1, 1000000));
  c.threads = static_cast<int>(f.optional_integer("threads", 1, 1000000));
  if (!c.cores && !c.threads)
    throw InputError(file, "cpu.cores", "missing required field (give cores, threads or both)");
  return c;
}

// "match" / "exclude": an array of non-empty strings, or absent.
std::vector<std::string> read_names(const json& j, const std::string& key,
                                    const std::string& file) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_array()) throw InputError(file, key, "must be an array of strings");
  for (const auto& s : j[key]) {
    if (!s.is_string() || s.get<std::string>().empty())
      throw InputError(file, key, "must be an array of non-empty strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

bool optional_bool(const json& j, const std::string& key, const std::string& file) {
  if (!j.contains(key) || j.at(key).is_null()) return false;
  if (!j.at(key).is_boolean()) throw InputError(file, key, "must be true, false or null");
  return j.at(key).get<bool>();
}

// "levels": [{"level": "L1", "bytes_per_clock": 128, "per": "unit", "source": "…"}, {"level":
// "MALL", "bandwidth": 17.2e12, "source": "…"}]: one limit per level, each with its source.
std::vector<LevelLimit> read_level_limits(const json& j, const std::string& file) {
  if (!j.is_array()) throw InputError(file, "levels", "must be an array of objects");
  std::vector<LevelLimit> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = "levels[" + std::to_string(i) + "]";
    if (!j[i].is_object()) throw InputError(file, at, "must be an object");
    const FieldReader f(file, j[i], at);
    f.only({"level", "source", "bytes_per_clock", "per", "bandwidth"});
    LevelLimit l;
    l.level = f.text("level");
    const auto& names = level_limit_names();
    if (std::find(names.begin(), names.end(), l.level) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw InputError(file, f.where("level"),
                       "must be one of " + known + " (DRAM is memory.bandwidth)");
    }
    for (const auto& seen : out)
      if (seen.level == l.level)
        throw InputError(file, f.where("level"), "gives " + l.level + " a second time");
    l.source = f.text("source");
    const bool per_clock = j[i].contains("bytes_per_clock");
    if (per_clock == j[i].contains("bandwidth"))
      throw InputError(file, f.where("bytes_per_clock"),
                       "give either bytes_per_clock (with per) or bandwidth, not both or neither");
    if (per_clock) {
      l.bytes_per_clock = f.bounded("bytes_per_clock", 1e9);
      const std::string per = f.text("per");
      if (per != "unit" && per != "device")
        throw InputError(file, f.where("per"),
                         "must be unit (an SM, CU or core) or device (the whole chip)");
      l.per_unit = per == "unit";
    } else {
      l.bandwidth = f.bounded("bandwidth", kMaxBandwidth);
    }
    out.push_back(l);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& level_limit_names() {
  static const std::vector<std::string> kNames = {"SRAM", "L1", "L2", "L3", "MALL"};
  return kNames;
}

double LevelLimit::at(int units, double clock_mhz) const {
  if (bandwidth > 0) return bandwidth;
  return bytes_per_clock * (per_unit ? std::max(units, 0) : 1) * clock_mhz * 1e6;
}

std::string LevelLimit::formula(int units, double clock_mhz) const {
  if (bandwidth > 0) return "published";
  return per_unit ? fmt::format("{:g} B/clk × {} unit{} × {:g} MHz", bytes_per_clock, units,
                                units == 1 ? "" : "s", clock_mhz)
                  : fmt::format("{:g} B/clk × {:g} MHz", bytes_per_clock, clock_mhz);
}

const LevelLimit* MachineProfile::level_limit(const std::string& level) const {
  const std::string name = level.substr(0, level.find(" ("));  // "L3 (LLC)" is L3
  for (const auto& l : levels)
    if (l.level == name) return &l;
  return nullptr;
}

const std::vector<std::string>& host_isa_names() {
  static const std::vector<std::string> kNames = {"avx512", "avx2", "sve",   "sve-vla",
                                                  "neon",   "sse2", "scalar"};
  return kNames;
}

UnitKind unit_kind(const std::string& unit) {
  return unit == "tensor" || unit == "matrix" ? UnitKind::kMatrix : UnitKind::kVector;
}

const char* unit_kind_name(UnitKind k) { return k == UnitKind::kMatrix ? "matrix" : "vector"; }

std::optional<UnitKind> unit_kind_named(const std::string& word) {
  if (word == "vector") return UnitKind::kVector;
  if (word == "matrix") return UnitKind::kMatrix;
  return std::nullopt;
}

std::string default_accumulate(const std::string& dtype) {
  return dtype == "fp64" ? "fp64" : "fp32";
}

std::optional<SpecPeak> MachineProfile::dense_peak(const std::string& dtype,
                                                   const std::string& unit,
                                                   const std::string& accumulate) const {
  // Never the maximum over accumulate modes: an entry that names one must match the asked (or
  // default) mode, else a 4090's fp16 is 330 TFLOP/s (fp16 accumulate) for an fp32-accumulating
  // GEMM that can reach 165.
  const std::string acc = accumulate.empty() ? default_accumulate(dtype) : accumulate;
  std::optional<SpecPeak> best;
  for (const auto& p : peaks)
    if (p.dense && p.dtype == dtype && (unit.empty() || p.unit == unit) &&
        (p.accumulate.empty() || p.accumulate == acc) && (!best || p.flops > best->flops))
      best = p;
  return best;
}

std::optional<SpecPeak> MachineProfile::grading_peak(const std::string& dtype, UnitKind kind,
                                                     const std::string& accumulate) const {
  if (kind == UnitKind::kVector) {
    // The faster of the two where a sheet has both: CDNA's fp32 peak loop is v_pk_fma_f32
    // (scripts/check-gpu-codegen), so an MI250X's fp32 is held against its packed 95.7 TFLOP/s,
    // not the 47.9 of one FMA per lane.
    auto p = dense_peak(dtype, "vector");
    const auto packed = dense_peak(dtype, "vector-packed");
    if (packed && (!p || packed->flops > p->flops)) p = packed;
    return p;
  }
  const std::string acc = accumulate.empty() ? default_accumulate(dtype) : accumulate;
  std::optional<SpecPeak> best;
  for (const char* unit : {"tensor", "matrix"}) {
    const auto p = dense_peak(dtype, unit, acc);
    if (p && (!best || p->flops > best->flops)) best = p;
  }
  return best;
}

MachineProfile load_machine_profile(const std::string& path) {
  const json j = read_json_file(path, "machine profile");
  if (!j.is_object()) throw InputError(path, "", "a machine profile must be a JSON object");
  const FieldReader f(path, j, "");
  // A misspelt field (a "peak" beside "peaks", "bandwith") must not drop a figure unsaid. Fields
  // kept for readers only (notes, memory.type, memory.llc_bytes) are known and not read; so are
  // issue_rates, which the code checks read (tools/arith_ceiling.py), not the reporter.
  f.only({"name", "vendor", "source", "illustrative", "match", "exclude", "clock", "compute_units",
          "cpu", "memory", "arch", "levels", "peaks", "notes", "issue_rates"});
  if (f.present("issue_rates") && !j["issue_rates"].is_object())
    throw InputError(path, "issue_rates", "must be an object");
  MachineProfile m;
  m.file = path;
  m.id = fs::path(path).stem().string();
  m.name = f.text("name");
  // Required: a sheet is matched to a device by its vendor too, and a sheet of nobody's hardware
  // graded everyone's.
  m.vendor = f.text("vendor");
  m.source = f.text("source");
  m.illustrative = optional_bool(j, "illustrative", path);
  m.match = read_names(j, "match", path);
  m.exclude = read_names(j, "exclude", path);
  // An exclude that is words of the sheet's own match would make the sheet name nothing.
  for (const auto& x : m.exclude)
    for (const auto& s : m.match)
      if (has_words(s, x))
        throw InputError(path, "exclude",
                         "'" + x + "' would refuse the sheet's own match '" + s + "'");
  const FieldReader clock(path, f.require("clock"), "clock");
  clock.only({"assumed", "sm_mhz"});
  m.clock_assumed = clock.text("assumed");
  m.clock_mhz = clock.bounded("sm_mhz", 1e5);
  m.compute_units = static_cast<int>(f.optional_integer("compute_units", 1, 1000000));
  if (j.contains("cpu") && !j["cpu"].is_null()) {
    // One statement of a CPU sheet's size, not two that can disagree.
    if (m.compute_units)
      throw InputError(path, "compute_units",
                       "must be left out of a CPU sheet (cpu.cores and cpu.threads give its size)");
    m.cpu = read_cpu_facts(j["cpu"], path);
    m.compute_units = m.cpu->cores ? m.cpu->cores : m.cpu->threads;
  }
  const FieldReader mem(path, f.require("memory"), "memory");
  mem.only({"bandwidth", "l2_bytes", "size_bytes", "llc_bytes", "type"});
  m.bandwidth = mem.bounded("bandwidth", kMaxBandwidth);
  if (mem.has("l2_bytes")) m.l2_bytes = mem.bounded("l2_bytes", 1ull << 50);
  if (mem.has("size_bytes")) m.memory_bytes = mem.bounded("size_bytes", 1ull << 60);
  m.arch = f.optional_text("arch");
  if (j.contains("levels") && !j["levels"].is_null())
    m.levels = read_level_limits(j["levels"], path);
  const json& peaks = f.require("peaks");
  if (!peaks.is_array() || peaks.empty())
    throw InputError(path, "peaks", "must be a non-empty array");
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    const FieldReader peak(path, peaks[i], "peaks[" + std::to_string(i) + "]");
    peak.only({"dtype", "flops", "unit", "accumulate", "source", "dense", "fma_per_clock"});
    SpecPeak p;
    p.dtype = peak.text("dtype");
    p.flops = peak.bounded("flops", kMaxPeakFlops);
    p.unit = peak.text("unit");
    p.accumulate = peak.optional_text("accumulate");
    p.source = peak.optional_text("source");
    p.dense = peak.boolean("dense");
    if (peak.has("fma_per_clock")) {
      p.fma_per_clock = peak.bounded("fma_per_clock", 1e6);
      // The figure's clock math needs the units it counts per.
      if (!m.compute_units)
        throw InputError(path, peak.where("fma_per_clock"),
                         "needs the sheet's compute_units (a CPU sheet's cpu.cores or threads)");
    }
    m.peaks.push_back(p);
  }
  return m;
}

std::string machine_profiles_dir() { return profiles_subdir("machines"); }

std::vector<MachineProfile> load_machine_profiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  if (ec) throw InputError(dir, "", "cannot read machine profile directory: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<MachineProfile> out;
  for (const auto& f : files) out.push_back(load_machine_profile(f));
  return out;
}

MachineProfile find_machine_profile(const std::string& id_or_name, const std::string& dir) {
  const std::string want = lower_ascii(id_or_name);
  std::string known;
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string id = fs::path(f).stem().string();
    if (lower_ascii(id) == want) return load_machine_profile(f);
    known += (known.empty() ? "" : ", ") + id;
  }
  // Names need the files parsed; a broken unrelated profile should not hide a good match by id.
  for (const auto& f : files) {
    const MachineProfile m = load_machine_profile(f);
    if (lower_ascii(m.name) == want) return m;
  }
  throw InputError("", "--machine",
                   "unknown machine profile '" + id_or_name + "' (known: " + known + ")");
}

bool has_words(const std::string& text, const std::string& words) {
  if (words.empty()) return false;
  const std::string t = lower_ascii(text), w = lower_ascii(words);
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (auto at = t.find(w); at != std::string::npos; at = t.find(w, at + 1)) {
    const std::size_t end = at + w.size();
    // A boundary is needed only where the words themselves start or end with a letter or digit.
    const bool starts = !word_char(w.front()) || at == 0 || !word_char(t[at - 1]);
    const bool ends = !word_char(w.back()) || end == t.size() || !word_char(t[end]);
    if (starts && ends) return true;
  }
  return false;
}

bool MachineProfile::names_model(const std::string& model) const {
  const auto in_model = [&model](const std::string& s) { return has_words(model, s); };
  return std::any_of(match.begin(), match.end(), in_model) &&
         std::none_of(exclude.begin(), exclude.end(), in_model);
}

std::optional<MachineProfile> match_machine_profile(const std::string& device_name,
                                                    const std::vector<MachineProfile>& profiles) {
  for (const auto& m : profiles)
    if (!m.cpu && m.names_model(device_name)) return m;  // a CPU sheet needs the host's facts too
  return std::nullopt;
}

}  // namespace ridgeline
