#pragma once
// One probe point matched across the nights: the newest history night's, tonight's and each
// history night's.
#include <vector>

#include "results/results_model.hpp"

namespace ridgeline {

struct PointRow {
  const Point* baseline;             // in the newest history night
  const Point* current;              // measured tonight
  std::vector<const Point*> nights;  // per history night; null where not measured or verified
};

}  // namespace ridgeline
