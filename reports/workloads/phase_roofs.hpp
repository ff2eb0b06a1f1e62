#pragma once
// The roofs an inference phase is placed on, taken from one fitted space × dtype of a results
// file, and which group of a host serves a workload's dtype.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

struct RoofValue {
  double value = 0;
  Interval ci;  // 95 % bootstrap interval
};

struct PhaseRoofs {
  std::string space, dtype;
  RoofValue p_vector;                 // register-only peak (today's P)
  std::optional<RoofValue> p_matrix;  // tensor / matrix units, when the fit has that roof
  RoofValue b;                        // DRAM bandwidth of traffic that reads and writes
  std::optional<RoofValue> b_read;    // read-only DRAM bandwidth
  std::optional<RoofValue> b_write;   // write-only DRAM bandwidth (the fill)
  // The compute roof a matmul-dominated phase meets: P_matrix when measured, else P_vector.
  const RoofValue& compute() const { return p_matrix ? *p_matrix : p_vector; }
  const char* compute_name() const { return p_matrix ? "P_matrix" : "P_vector"; }
};

// The one place the fit's roofs become a phase's roofs (a matrix roof and the one-direction
// memory roofs of the fit are read here); nullopt when the group has no fit.
std::optional<PhaseRoofs> phase_roofs(const GroupFit& g);

// The roofs of one host for a workload, or why there are none.
struct HostRoofs {
  std::optional<PhaseRoofs> roofs;
  std::string compute_dtype;  // the dtype whose roofs are used
  std::string why;            // how that dtype was chosen, or why nothing was (not measured)
};

// Which group of `f` a workload computing in `weight_dtype` (activations in `activation_dtype`)
// uses: the weight dtype's group when fitted (int4 has none: its weights are widened), else the
// activation dtype's, stated; `compute_dtype` (non-empty) overrides both, stated. A space with
// fitted roofs is chosen among `space` (empty: any), a device space before a host one, then the
// highest P. Nothing is borrowed silently: without a fitted group the result says "not measured".
HostRoofs host_roofs(const FileAnalysis& f, const std::string& weight_dtype,
                     const std::string& activation_dtype, const std::string& compute_dtype,
                     const std::string& space);

// --space and --compute-dtype checked against what the results hold: a name none of them has
// (a typo, a space this build never ran) is an InputError naming the option, the names there
// are and the likely one; it would otherwise give a table of "not measured" and exit 0.
void check_workload_names(const std::string& space, const std::string& compute_dtype,
                          const std::vector<const FileAnalysis*>& files);

}  // namespace ridgeline
