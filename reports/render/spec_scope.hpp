#pragma once
// How one space's measurements may be held against a machine sheet. A host space only against the
// CPU sheet of the machine it ran on (machines/host_match.hpp: an "AMD EPYC" sheet must not grade
// a 96-core host, nor a Zen 3 VM with AVX2); a space running fewer threads than the sheet's units
// gets its share of P, and the sheet's memory bandwidth has no per-thread share.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

struct SpecScope {
  std::optional<MachineProfile> profile;
  std::string why_none;   // a host space without a sheet: why, in one line (markdown)
  double peak_share = 1;  // the part of the sheet's P this space can reach
  std::string bandwidth_why_not;
  // The units (SMs, CUs, cores) this space runs on: a GPU's SMs as its context records them
  // (else the sheet's), a host space's threads up to the sheet's cores. 0 without a sheet.
  int units = 0;
  // The clock the space ran at, measured: a host's cores (context.cpu.measured_clock), a GPU's
  // SMs as its peak kernels counted them (the median of their observed.sm_clock_mhz); nullopt
  // where the file has none; in whole MHz. Limits per clock and the vector peak are graded at it.
  std::optional<double> measured_clock_mhz;
  // When it was measured: a host's at the run's start (the context), a GPU's as its peak kernels
  // ran; the report says which, since P of a host was measured later in the run.
  std::string measured_clock_when;
};

SpecScope spec_scope(const FileAnalysis& f, const std::string& space,
                     const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
