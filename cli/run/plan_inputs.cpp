#include "cli/run/plan_inputs.hpp"

#include <regex>

#include "backends/device_caches.hpp"
#include "backends/vendor_gemm.hpp"
#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

// "sm_90" from a sheet's "Hopper, sm_90"; empty when it names none.
std::string sm_arch(const std::string& text) {
  std::smatch m;
  static const std::regex sm("sm_([0-9]+)");
  return std::regex_search(text, m, sm) ? m.str(0) : std::string();
}

// Major and minor of "sm_90" (9, 0), "sm_120" (12, 0); false for anything else.
bool compute_capability(const std::string& arch, int& major, int& minor) {
  const std::string base = base_arch(arch);
  if (base.rfind("sm_", 0) != 0 || base.size() < 5) return false;
  const std::string digits = base.substr(3);
  for (const char c : digits)
    if (c < '0' || c > '9') return false;
  major = std::stoi(digits.substr(0, digits.size() - 1));
  minor = digits.back() - '0';
  return true;
}

// One SM's (CU's) L1 from the architecture, where the file or sheet gives none.
std::uint64_t l1_for(const std::string& arch) {
  int major = 0, minor = 0;
  if (compute_capability(arch, major, minor)) return cuda_l1_bytes_per_sm(major, minor);
  return hip_l1_bytes_per_cu(base_arch(arch));
}

}  // namespace

DeviceSpaceFacts device_from_info(const std::string& path, const std::string& space) {
  const nlohmann::json j = read_json_file(path, "info file");
  if (!j.is_object()) throw InputError(path, "", "must be a JSON object (ridgeline info --json)");
  const FieldReader top(path, j, "");
  const nlohmann::json& spaces = top.require("spaces");
  if (!spaces.is_array()) throw InputError(path, "spaces", "must be an array");
  for (std::size_t i = 0; i < spaces.size(); ++i) {
    const std::string at = "spaces[" + std::to_string(i) + "]";
    if (!spaces[i].is_object()) throw InputError(path, at, "must be an object");
    const FieldReader s(path, spaces[i], at);
    const std::string name = s.text("name");
    if (!s.has("device") || (!space.empty() && name != space)) continue;
    if (!spaces[i]["device"].is_object())
      throw InputError(path, at + ".device", "must be an object or null");
    const FieldReader d(path, spaces[i]["device"], at + ".device");
    DeviceSpaceFacts f;
    f.space = name;
    f.source = path;
    f.name = d.text("name");
    f.arch = d.text("arch");
    f.compute_units = int(d.integer("compute_units", 1, 1 << 20));
    f.concurrency = s.integer("concurrency", 1, 1LL << 40);
    f.capacities.memory_bytes = std::uint64_t(d.bounded("memory_bytes", 1ull << 60));
    f.capacities.l2_bytes = std::uint64_t(d.bounded("l2_bytes", 1ull << 50));
    f.capacities.l1_per_unit_bytes = d.has("l1_per_unit_bytes")
                                         ? std::uint64_t(d.bounded("l1_per_unit_bytes", 1ull << 40))
                                         : l1_for(f.arch);
    if (d.has("llc_bytes"))
      f.capacities.llc_bytes = std::uint64_t(d.bounded("llc_bytes", 1ull << 50));
    // What bounds the blocks per SM (CU): recorded since 1.3/1.4; an older file's GPU states
    // none, and its SRAM points keep the probe's own rule (plan_sizes.hpp, sram_launch).
    DeviceResidency& r = f.capacities.residency;
    r.compute_units = f.compute_units;
    if (d.has("shared_per_unit_bytes"))
      r.shared_per_unit_bytes = std::uint64_t(d.integer("shared_per_unit_bytes", 1, 1ll << 30));
    if (d.has("reserved_shared_per_block_bytes"))
      r.reserved_shared_per_block_bytes =
          std::uint64_t(d.integer("reserved_shared_per_block_bytes", 0, 1ll << 30));
    if (d.has("max_threads_per_unit"))
      r.max_threads_per_unit = int(d.integer("max_threads_per_unit", 1, 1 << 20));
    if (d.has("max_blocks_per_unit"))
      r.max_blocks_per_unit = int(d.integer("max_blocks_per_unit", 1, 1 << 20));
    return f;
  }
  throw InputError(path, "spaces",
                   space.empty() ? "has no device space (a GPU's `ridgeline info --json`)"
                                 : "has no device space named '" + space + "'");
}

DeviceSpaceFacts device_from_sheet(const MachineProfile& sheet) {
  if (sheet.cpu) throw InputError(sheet.file, "cpu", "is a CPU sheet; the plan needs a GPU's");
  DeviceSpaceFacts f;
  f.source = sheet.file;
  f.name = sheet.name;
  f.arch = sm_arch(sheet.arch);
  int major = 0, minor = 0;
  if (!compute_capability(f.arch, major, minor) || !cuda_max_threads_per_sm(major, minor))
    throw InputError(sheet.file, "arch",
                     "names no CUDA architecture (sm_XX) whose resident threads per SM are known "
                     "here; plan from the device's `ridgeline info --json` instead");
  if (!sheet.compute_units)
    throw InputError(sheet.file, "compute_units", "missing: the plan sizes the grid by the SMs");
  if (!(sheet.memory_bytes > 0))
    throw InputError(sheet.file, "memory.size_bytes",
                     "missing: the plan leaves out points that do not fit the memory");
  if (!(sheet.l2_bytes > 0))
    throw InputError(sheet.file, "memory.l2_bytes",
                     "missing: the plan sizes DRAM sets and the cache sweep by the L2");
  f.space = "Cuda";
  f.compute_units = sheet.compute_units;
  f.concurrency =
      static_cast<long long>(sheet.compute_units) * cuda_max_threads_per_sm(major, minor);
  f.capacities.memory_bytes = std::uint64_t(sheet.memory_bytes);
  f.capacities.l2_bytes = std::uint64_t(sheet.l2_bytes);
  f.capacities.l1_per_unit_bytes = cuda_l1_bytes_per_sm(major, minor);
  DeviceResidency& r = f.capacities.residency;
  r.compute_units = sheet.compute_units;
  r.shared_per_unit_bytes = cuda_shared_bytes_per_sm(major, minor);
  r.reserved_shared_per_block_bytes = cuda_reserved_shared_bytes_per_block(major, minor);
  r.max_threads_per_unit = cuda_max_threads_per_sm(major, minor);
  r.max_blocks_per_unit = cuda_max_blocks_per_sm(major, minor);
  return f;
}

DeviceSpeed speed_from_sheet(const MachineProfile& sheet, const std::string& arch) {
  DeviceSpeed s;
  s.sheet = sheet.id;
  s.bandwidth = sheet.bandwidth;
  if (const LevelLimit* sram = sheet.level_limit("SRAM"))
    s.sram_bandwidth = sram->at(sheet.compute_units, sheet.clock_mhz);
  for (const char* dtype : {"fp64", "fp32", "fp16", "bf16"})
    if (const auto p = sheet.grading_peak(dtype, UnitKind::kVector))
      s.vector_flops[dtype] = p->flops;
  for (const GemmType t : kGemmTypes) {
    const GemmTypeInfo info = gemm_type_info(t);
    const auto p = sheet.grading_peak(info.dtype, unit_kind(gemm_unit(t, arch)), info.accumulate);
    if (p) s.gemm_flops[info.dtype] = p->flops;
  }
  return s;
}

std::optional<MachineProfile> sheet_for_device(const std::string& device_name) {
  return match_machine_profile(device_name, load_machine_profiles(machine_profiles_dir()));
}

}  // namespace ridgeline
