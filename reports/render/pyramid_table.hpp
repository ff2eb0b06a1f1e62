#pragma once
// The report's memory pyramid: per file × space, from the on-chip scratch (SRAM) down to DRAM or
// device memory, each level's best measured bandwidth with its interval, the physical limit the
// machine sheet gives for it (bytes per clock × units × the sheet's clock) and the ratio.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

void memory_pyramid(std::string& md, const std::vector<FileAnalysis>& files,
                    const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
