#pragma once
// The matrix units by GEMM shape: the skinny m × n × k sweep of the vendor GEMM (the shape of a
// prefill of m tokens, or of a decode step batched m wide, against an n × k weight), held
// against the matrix roof min(P_matrix, I·B), and the m from which the units are saturated.
// The roofs predict a knee where the shape's compulsory intensity reaches I*_matrix (on B_read
// where it is known: a skinny GEMM streams its weight and writes little); the sweep shows where
// the library really gets there.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// A shape reaches the matrix units' saturation when it runs at this share of P_matrix or more.
inline constexpr double kGemmSaturatedShare = 0.9;

struct GemmShapeRow {
  const Point* point = nullptr;
  std::uint64_t m = 0;
  double flops_per_s = 0;
  double intensity = 0;      // compulsory FLOP/byte: each matrix read or written once
  double share_of_peak = 0;  // of P_matrix
  // min(P_matrix, I·B) on the bandwidth the knee uses; nullopt where no B is known.
  std::optional<double> attainable;
};

struct GemmShapeSweep {
  std::string space, dtype;
  std::uint64_t n = 0, k = 0;
  double peak = 0;                 // P_matrix of the group (the envelope, square included)
  std::vector<GemmShapeRow> rows;  // by m, ascending; verified matrix-unit points only
  // The smallest m of the sweep from which every larger m runs at kGemmSaturatedShare × P_matrix
  // or more; nullopt when the largest does not.
  std::optional<std::uint64_t> saturated_m;
  // The m at which the shape's intensity equals the ridge the roof uses, and that ridge's name
  // ("I*_matrix on B_read" or "I*_matrix"); nullopt when no ridge is known or no m reaches it.
  std::optional<double> roof_knee_m;
  std::string knee_ridge;
  double knee_ridge_value = 0;  // FLOP/byte
};

// One sweep per space × dtype × (n, k) with at least two values of m among its verified GEMMs on
// matrix units, in the order the groups appear.
std::vector<GemmShapeSweep> gemm_shape_sweeps(const FileAnalysis& a);

// The m at which a GEMM of rows m reaches the intensity `ridge`, where its FLOPs are
// flops_per_row·m (2nk) and its compulsory bytes bytes_per_row·m + fixed_bytes ((k·in + n·out)·m
// + kn·in: the weight is read once whatever m is); nullopt when no m does (the intensity tends to
// flops_per_row / bytes_per_row as m grows).
std::optional<double> gemm_m_at_intensity(double ridge, double flops_per_row, double bytes_per_row,
                                          double fixed_bytes);

}  // namespace ridgeline
