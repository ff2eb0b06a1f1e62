#pragma once
// Spec-sheet figures for a machine (profiles/machines/*.json): what the vendor claims, per dtype,
// dense or sparse, and the clock the claim assumes. Reports hold measurements against them.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

struct SpecPeak {
  std::string dtype;       // fp64 | fp32 | tf32 | fp16 | bf16 | fp8
  double flops = 0;        // FLOP/s
  std::string unit;        // vector | vector-packed | tensor | matrix
  std::string accumulate;  // empty for vector units
  bool dense = true;
  std::string source;  // where this figure comes from, when not the sheet's own source
  // FMAs one unit (SM, CU or core) completes per clock in this dtype, a packed FMA counting each
  // of its elements; 0 when the sheet does not say. Then flops = units × fma_per_clock × 2 ×
  // clock, which tests/reports check on every shipped sheet.
  double fma_per_clock = 0;
};

// What a figure or a measurement ran on, as far as grading goes: the vector units (FMAs, plain
// or packed two to a register) or the matrix units (NVIDIA's tensor cores, AMD's matrix cores).
enum class UnitKind { kVector, kMatrix };
UnitKind unit_kind(const std::string& unit);  // tensor, matrix: kMatrix; the rest kVector
const char* unit_kind_name(UnitKind k);       // "vector", "matrix"
// The kind a command-line word names ("vector", "matrix"); nullopt for any other word.
std::optional<UnitKind> unit_kind_named(const std::string& word);

// The accumulate mode a matrix unit is graded at when the measurement does not say: the one the
// harness's GEMMs use (fp64 for fp64 inputs, fp32 for the rest). Never the faster fp16
// accumulate of consumer parts, which no fp32-accumulating GEMM can reach.
std::string default_accumulate(const std::string& dtype);

// What a CPU sheet (one with a "cpu" block) describes beyond its name: a results file's host is
// held against the sheet only when it agrees with every fact given here and with the sheet's
// vendor (machines/host_match.hpp). FMA pipes are no field: no results file records them.
struct CpuSheetFacts {
  std::string isa;  // the widest vector ISA: avx512 | avx2 | sve | sve-vla | neon | sse2 | scalar
  int vector_bits = 0;  // 0 when the sheet does not say
  int cores = 0;        // 0 when the sheet does not say (it gives cores, threads or both)
  int threads = 0;
};

// The host ISA names a results file can record (params.isa, harness/probes/vector_isa.hpp), the
// only ones a CPU sheet may give: a sheet naming another ("avx-512") could never match.
const std::vector<std::string>& host_isa_names();

// A memory level's physical limit on a sheet (the level the cache sweep or the SRAM probe names):
// bytes per clock per unit (SM, CU or core) or of the whole device at the sheet's clock, or a
// bandwidth published as such. DRAM / device memory is the sheet's memory.bandwidth.
struct LevelLimit {
  std::string level;           // SRAM | L1 | L2 | L3 | MALL
  double bytes_per_clock = 0;  // 0 when `bandwidth` is given
  bool per_unit = true;        // bytes_per_clock of one SM, CU or core (false: the whole device)
  double bandwidth = 0;        // byte/s as published, else 0
  std::string source;
  // byte/s with `units` units at `clock_mhz` (a published bandwidth as it is).
  double at(int units, double clock_mhz) const;
  // How `at` is made, for a table: "128 B/clk × 132 units × 1980 MHz".
  std::string formula(int units, double clock_mhz) const;
};

// The level names a sheet may give limits for.
const std::vector<std::string>& level_limit_names();

struct MachineProfile {
  std::string id;  // file stem, e.g. "rtx-4090"
  std::string file;
  std::string name;
  std::string vendor;
  // Names this sheet describes and the variants it does not: each string is whole words of a
  // device or CPU name (names_model). Data, so that a new variant is a line in its sheet.
  std::vector<std::string> match;
  std::vector<std::string> exclude;
  std::string source;
  bool illustrative = false;
  std::string clock_assumed;
  double clock_mhz = 0;
  double bandwidth = 0;     // byte/s
  double l2_bytes = 0;      // 0 when not given
  double memory_bytes = 0;  // memory.size_bytes; 0 when not given
  std::string arch;         // as the sheet words it ("Hopper, sm_90"); empty when not given
  // SMs or CUs of a GPU (0 when not given); on a CPU sheet its cpu.cores, else cpu.threads: the
  // units its P is for, so a space running fewer threads is held against its share.
  int compute_units = 0;
  std::optional<CpuSheetFacts> cpu;  // set on CPU sheets only
  std::vector<SpecPeak> peaks;
  std::vector<LevelLimit> levels;  // in the sheet's order; DRAM is `bandwidth`

  // Whether this sheet names a device or CPU model: one of its `match` strings occurs in it as
  // whole words and none of its `exclude` strings does. Never alone for a CPU sheet, which needs
  // the host's facts too (machines/host_match.hpp).
  bool names_model(const std::string& model) const;

  // The limit of a level ("L3" also answers "L3 (LLC)"), if the sheet gives one.
  const LevelLimit* level_limit(const std::string& level) const;

  // The highest dense peak for a dtype, optionally of one unit (its exact name), at one
  // accumulate mode (empty: default_accumulate; entries that name none match any), if the sheet
  // lists one.
  std::optional<SpecPeak> dense_peak(const std::string& dtype, const std::string& unit = {},
                                     const std::string& accumulate = {}) const;
  // The sheet entry that grades a measurement of `dtype` on `kind` with `accumulate` (empty:
  // default_accumulate): for vector units the plain vector figure, else the packed one (the FMA
  // probes measure one of them, never a tensor figure); for matrix units the highest dense
  // tensor or matrix figure of that accumulate mode.
  std::optional<SpecPeak> grading_peak(const std::string& dtype, UnitKind kind,
                                       const std::string& accumulate = {}) const;
};

// Reads and validates one profile; throws InputError naming the file and the field.
MachineProfile load_machine_profile(const std::string& path);

// The directory holding machine profiles: machines/ under find_profiles_root()
// (core/profiles_root.hpp).
std::string machine_profiles_dir();

// All profiles in a directory, sorted by id.
std::vector<MachineProfile> load_machine_profiles(const std::string& dir);

// By id (file stem) or name, case-insensitive; throws InputError listing the known ids.
MachineProfile find_machine_profile(const std::string& id_or_name, const std::string& dir);

// Whether `text` holds `words` as whole words, case-insensitive: neither end of the occurrence is
// inside a longer word of letters and digits ("H200" is not in "NVIDIA GH200 480GB", "H100 SXM"
// not in "H100 SXM5").
bool has_words(const std::string& text, const std::string& words);

// The first GPU sheet (no "cpu" block) that names a device (MachineProfile::names_model), if any.
// CPU sheets are matched on what the host is, not on its name alone: match_host_profile
// (machines/host_match.hpp).
std::optional<MachineProfile> match_machine_profile(const std::string& device_name,
                                                    const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
