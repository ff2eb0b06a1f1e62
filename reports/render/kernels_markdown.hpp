#pragma once
// "Your kernels": the kernels of an application (kernels files of libridgeline-kp.so) held
// against the fitted roofs, one table per kernels file, and the kernels that were not placed
// with the reason.
#include <string>
#include <vector>

#include "reports/kernels/kernel_placement.hpp"

namespace ridgeline {

struct PlacedKernelsFile {
  const KernelsFile* file;
  std::vector<KernelPlacement> placements;
};

std::string render_kernels_markdown(const std::vector<PlacedKernelsFile>& files);

// The same for a terminal (`ridgeline place --kernels`): one line per kernel.
std::string format_kernels_text(const PlacedKernelsFile& f);

}  // namespace ridgeline
