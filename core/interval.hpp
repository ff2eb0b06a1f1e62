#pragma once
// A closed interval [low, high]: the 95 % interval of a fitted roof or plateau, and what the unit
// formatters (core/units.hpp) print beside a value.

namespace ridgeline {

struct Interval {
  double low = 0, high = 0;
  bool contains(double v) const { return low <= v && v <= high; }
};

}  // namespace ridgeline
