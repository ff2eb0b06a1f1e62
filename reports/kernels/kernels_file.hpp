#pragma once
// The kernels file moved to results/kernels_file.hpp (one component for the connector's writer and
// the reporter's reader). This forward stays only for reports/compare/kernel_compare.hpp and
// cli/report/compare_command.cpp, which a concurrent change rewrites: delete it once they include
// "results/kernels_file.hpp".
#include "results/kernels_file.hpp"
