#pragma once
// Which points of a results file define which roof (fit/roof_roles.hpp), and the fit of each
// execution space × dtype: P (P_vector), B (DRAM), B_read and P_matrix.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/roof_roles.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// P_matrix: the envelope of the verified library GEMMs on tensor or matrix units
// (is_tensor_point), and its ridges I*_matrix = P_matrix / B and P_matrix / B_read (weight-
// streaming GEMMs read far more than they write), with intervals from paired replicates.
struct MatrixRoofFit {
  LevelFit peak;
  std::string from;        // e.g. "vendor_gemm n:8192"
  std::string accumulate;  // of the point that sets the envelope (point_accumulate)
  // The group whose B the ridges use: the group's own, or for a group with no vector fit (tf32
  // runs only the GEMM) its storage type's (tf32 multiplies fp32 data), else any fitted group of
  // the space (B is the device's: pool_memory_roofs); empty while no B is known.
  std::string bandwidth_dtype;
  // The group whose B_read the read ridge uses, the same one (a 16-bit group that runs no read
  // kernel holds the device's B_read, pooled; bytes read are bytes whatever their type).
  std::string read_bandwidth_dtype;
  std::optional<double> ridge, read_ridge;
  Interval ridge_ci, read_ridge_ci;
  std::vector<std::size_t> points;  // the GEMMs it is the envelope of (indices, as below)
};

// The envelope of one traffic mix's points (fit_envelope over their byte rates): B_1:1, B_2:1,
// B_read, B_write.
struct MixRoof {
  TrafficMix mix = TrafficMix::kOneToOne;
  LevelFit roof;
  std::string from;  // every point of the mix, e.g. "copy n:…; fma k:1, k:2"
  std::string best;  // the one that sets the envelope, e.g. "triad n:178956968"
  // The point that sets it stores into lines it never read on a write-allocate CPU: its counted
  // bytes, and so the roof, are a lower bound of what the memory moved.
  bool lower_bound = false;
  std::vector<std::size_t> points;  // the mix's points (indices, as GroupFit's; any dtype's)
};

struct GroupFit {
  std::string space, dtype;
  std::optional<RoofFit> fit;
  std::string not_fitted;  // why there is no fit (not measured, too few points, …)
  bool measured = false;   // some point of this group was measured
  // What defined the roofs, for the report: e.g. "fma k:1, k:2"; P and B are envelopes of those
  // points, `peak_best` (and `bandwidth_best`) the one that sets it.
  std::string bandwidth_from, peak_from, peak_best;
  std::vector<std::string> caveats;        // a fallback was needed: the roof is weaker than usual
  std::optional<LevelFit> read_bandwidth;  // B_read (DRAM-sized read or dot points): the envelope
  std::string read_bandwidth_from;         // of the read-only mix, also in `mixes`
  // Every traffic mix measured, in kTrafficMixes order. B (fit->estimate.roof.bandwidth) is the
  // envelope of the mixes that read and write; `bandwidth_mix` and `bandwidth_best` say which
  // mix and which point set it, `bandwidth_lower_bound` that this point's bytes are counted
  // (a lower bound: stores allocate on this CPU).
  std::vector<MixRoof> mixes;
  std::optional<TrafficMix> bandwidth_mix;
  std::string bandwidth_best;
  bool bandwidth_lower_bound = false;
  // B, B_read, B_write and the mixes are the device's: pooled over every dtype of the space
  // (pool_memory_roofs), equal in each of its groups; the texts above name each point's dtype.
  bool device_memory_roofs = false;
  const MixRoof* mix_roof(TrafficMix m) const;
  double dram_working_set = 0;  // bytes from which a working set counts as DRAM (0: unknown)
  std::optional<MatrixRoofFit> matrix;  // P_matrix, where a GEMM ran on matrix units
  // The points P and B are the envelopes of, as indices into the points of the Results the fit
  // describes (fit_results: the one it was given; analyze: its file's, every index here and in
  // `mixes` and `matrix`): what a point above them is held against round by round
  // (fit/above_roof.hpp). B's may be of other dtypes of the space (pool_memory_roofs).
  std::vector<std::size_t> peak_points, bandwidth_points;
  // P_vector's ridge I* = P/B is fit->estimate.roof.ridge_point(); the matrix roof min(P_matrix,
  // I·B) when both P_matrix and B are known.
  std::optional<Roof> matrix_roof() const;
};

// Sets the ridges of `matrix` from the B and B_read of `bandwidth` (the same group, or another
// of its space: memory roofs are the device's); leaves them unset when `bandwidth` has no fit,
// the read ridge when it has no B_read.
void set_matrix_ridges(MatrixRoofFit& matrix, const GroupFit& bandwidth);

// The observations that define the group's roofs (roof_roles.hpp), with what they are in words.
// Fallbacks, each with a caveat: no DRAM-sized B point → B from the smaller ones; no peak point →
// the ladder's compute-bound rungs observe P.
struct GroupObservations {
  Observations roof;                // P and B (B the envelope of its points)
  std::vector<Observation> read;    // B_read
  std::vector<Observation> write;   // B_write
  std::vector<Observation> matrix;  // P_matrix (verified GEMMs on matrix units)
  // The points behind roof.graded and roof.bandwidth, in the same order (to name the ones the
  // fit used).
  std::vector<const Point*> graded_points, direct_points, peak_points, read_points, write_points,
      matrix_points;
  std::string bandwidth_from, peak_from, read_from, write_from, matrix_from;
  std::vector<std::string> caveats;
  double dram_working_set = 0;
};
GroupObservations observations_for(const Results& r, const std::string& space,
                                   const std::string& dtype);

// Every space × dtype in order of first appearance; a group that cannot be fitted says why.
// Memory roofs are pooled over each space's dtypes (pool_memory_roofs).
std::vector<GroupFit> fit_results(const Results& r, int replicates = kBootstrapReplicates,
                                  std::uint64_t seed = kBootstrapSeed);

// Memory roofs are the device's (one execution space of one file: one host, rank or GPU), not a
// dtype's: a dtype that ran no add or triad would otherwise get a lower B than the same memory
// gives another, and every dtype its own ridge for one HBM. Per space, each mix's roof becomes
// the envelope of every dtype's points of that mix and B that of every dtype's B points (only
// DRAM-sized ones where some dtype measured DRAM), with the same repetition bootstrap; every
// fitted group of the space gets them, keeps its own P and has its ridge I* = P / B recomputed
// (P's replicates paired with B's), its matrix ridges too. The groups' indices index r.points.
// A space whose memory points are all of one dtype is left as fitted.
void pool_memory_roofs(const Results& r, const std::vector<GroupFit*>& groups,
                       int replicates = kBootstrapReplicates, std::uint64_t seed = kBootstrapSeed);

// The groups in order of first appearance.
std::vector<std::pair<std::string, std::string>> space_dtype_groups(const Results& r);

}  // namespace ridgeline
