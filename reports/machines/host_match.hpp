#pragma once
// Which CPU sheet describes the host a results file ran on. A model name such as "AMD EPYC"
// covers a whole product line (a 2-vCPU Zen 3 VM with AVX2 reports just that), so a sheet is
// used only when the host agrees with every fact it gives: its name, vendor, ISA, vector width
// and cores or threads. A host no sheet describes gets the reason, never another machine's sheet.
#include <optional>
#include <string>
#include <vector>

#include "reports/machines/machine_profile.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// What a results file says about its host CPU; empty strings and zeros where it does not say.
struct HostFacts {
  std::string model;
  std::string vendor;  // as the model name states it ("AMD EPYC" → AMD): the file has no vendor id
  // The widest vector ISA the file shows the host has: avx512 where context.cpu.avx512 is true,
  // else the ISA the host probes ran (params.isa).
  std::string isa;
  bool no_avx512 = false;  // context.cpu.avx512 is false: no AVX-512 sheet fits, ISA known or not
  int vector_bits = 0;
  int cores = 0, threads = 0;
};

HostFacts host_facts(const Results& results);

// "AMD, avx2, 256-bit, 2 cores, 2 threads", with "… unknown" for what the file lacks.
std::string describe_host(const HostFacts& host);

// A CPU sheet that names the host's model but describes another machine: what it needs that
// the host does not have, one phrase per fact ("avx512", "512-bit vectors", "2 cores"), and
// "… (not in the file)" for a fact the file does not record.
struct SheetMiss {
  std::string id;
  std::vector<std::string> unmet;
};

struct HostMatch {
  std::optional<MachineProfile> profile;
  std::vector<SheetMiss> misses;  // without a profile: the sheets that name the model, if any
};

// The first CPU sheet whose `match` names the model and whose every fact the host agrees with.
HostMatch match_host_profile(const HostFacts& host, const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
