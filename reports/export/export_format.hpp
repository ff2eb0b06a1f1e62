#pragma once
// The formats `ridgeline export` writes, by the name the command takes.
#include <string>
#include <vector>

#include "reports/export/roof_export.hpp"

namespace ridgeline {

// github-action-benchmark, bencher, rocprof-roofline, ert
const std::vector<std::string>& export_format_names();

// The file in that format; throws InputError where the format cannot hold these roofs.
std::string render_export(const std::string& format, const RoofExport& roofs);

}  // namespace ridgeline
