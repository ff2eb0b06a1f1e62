#pragma once
// What `ridgeline plan` reads besides the profile: the device to plan for, from what `ridgeline
// info --json` printed on it or from its machine sheet, and the sheets' figures that scale a
// timing run's rates to another device. Errors name the file and the field (InputError).
#include <optional>
#include <string>

#include "harness/sweep/plan_estimate.hpp"
#include "harness/sweep/plan_outline.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

// The device space `space` (empty: the first device space) of an `info --json` file. Its L1
// per SM is the file's, else the architecture's (backends/device_caches.hpp).
DeviceSpaceFacts device_from_info(const std::string& path, const std::string& space);

// A GPU sheet's device: its SMs, L2, memory size and architecture (an sm_XX in its `arch`,
// which gives the L1 per SM and the resident threads per SM); CUDA only.
DeviceSpaceFacts device_from_sheet(const MachineProfile& sheet);

// The figures of a sheet the estimate scales by (DeviceSpeed); `arch` decides which unit runs
// each GEMM type (backends/vendor_gemm.hpp gemm_unit).
DeviceSpeed speed_from_sheet(const MachineProfile& sheet, const std::string& arch);

// The GPU sheet in profiles/machines whose `match` names the device, if any.
std::optional<MachineProfile> sheet_for_device(const std::string& device_name);

}  // namespace ridgeline
