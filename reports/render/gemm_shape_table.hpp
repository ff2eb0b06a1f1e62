#pragma once
// The report's section on the matrix units by GEMM shape (fit/gemm_shapes.hpp): per file, space,
// dtype and weight shape, each m of the skinny sweep against P_matrix and the matrix roof, the m
// from which the units are saturated and the knee the roofs predict.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

void gemm_shape_section(std::string& md, const std::vector<FileAnalysis>& files);

}  // namespace ridgeline
