#pragma once
// Names and tolerances of the scalar types the probes run in.
#include <limits>
#include <string>

namespace ridgeline {

template <class T>
constexpr const char* dtype_name();
template <>
constexpr const char* dtype_name<double>() {
  return "fp64";
}
template <>
constexpr const char* dtype_name<float>() {
  return "fp32";
}

template <class T>
constexpr T epsilon() {
  return std::numeric_limits<T>::epsilon();
}

}  // namespace ridgeline
