#pragma once
// Spec-sheet figures for a machine (profiles/machines/*.json): what the vendor claims, per dtype,
// dense or sparse, and the clock the claim assumes. Reports hold measurements against them.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

struct SpecPeak {
  std::string dtype;       // fp64 | fp32 | fp16 | bf16
  double flops = 0;        // FLOP/s
  std::string unit;        // vector | vector-packed | tensor | matrix
  std::string accumulate;  // empty for vector units
  bool dense = true;
};

struct MachineProfile {
  std::string id;  // file stem, e.g. "rtx-4090"
  std::string file;
  std::string name;
  std::string vendor;
  std::vector<std::string> match;  // substrings of a device or CPU name this profile describes
  std::string source;
  bool illustrative = false;
  std::string clock_assumed;
  double clock_mhz = 0;
  double bandwidth = 0;  // byte/s
  double l2_bytes = 0;   // 0 when not given
  // SMs or CUs of a GPU; a CPU sheet's cores or hardware threads (0 when not given): a CPU
  // sheet describes a machine of that size only.
  int compute_units = 0;
  std::vector<SpecPeak> peaks;

  // The highest dense peak for a dtype (optionally of one unit kind), if the sheet lists one.
  std::optional<SpecPeak> dense_peak(const std::string& dtype, const std::string& unit = {}) const;
};

// Reads and validates one profile; throws InputError naming the file and the field.
MachineProfile load_machine_profile(const std::string& path);

// The directory holding machine profiles: machines/ under find_profiles_root()
// (locate/profiles_root.hpp).
std::string machine_profiles_dir();

// All profiles in a directory, sorted by id.
std::vector<MachineProfile> load_machine_profiles(const std::string& dir);

// By id (file stem) or name, case-insensitive; throws InputError listing the known ids.
MachineProfile find_machine_profile(const std::string& id_or_name, const std::string& dir);

// The first profile whose `match` substrings occur in a device name, if any. A substring can
// match a whole product line: callers check compute_units before holding results against it.
std::optional<MachineProfile> match_machine_profile(const std::string& device_name,
                                                    const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
