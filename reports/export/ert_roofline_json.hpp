#pragma once
// The Empirical Roofline Toolkit's roofline.json, as ERT 1.1.0 writes it (Python/ert_core.py,
// build_database): {"empirical": {"metadata", "gflops": {"data": [["GFLOPs", v]], "metadata"},
// "gbytes": {"data": [[LEVEL, v], ...], "metadata"}}, "spec": {"gflops": {"data": []},
// "gbytes": {"data": []}}}, in GFLOP/s and GB/s, the levels fastest first (ERT's plot draws the
// first as the top roof). One file is one roofline: one space × dtype.
#include <string>

#include "reports/export/roof_export.hpp"

namespace ridgeline {

// The only group of `roofs` (collect it with a space and dtype); throws InputError when there
// are several, or when its P or B was not fitted (ERT's file has no place for a missing roof).
// gflops holds P, gbytes the cache plateaus of the in-place sweep (cache_update, ERT's own
// kernel is an in-place update) and then "DRAM", the fit's B. The metadata holds what ERT's does
// not know: the intervals, what defined each roof, the notes; "spec" stays empty (no spec-sheet
// figure is measured).
std::string ert_roofline_json(const RoofExport& roofs);

}  // namespace ridgeline
