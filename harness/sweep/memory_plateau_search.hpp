#pragma once
// The memory plateau search (results/memory_plateau.hpp holds the rule and the record): before
// the plan, each traffic mix streams growing working sets until its bandwidth stops falling, so
// the DRAM points are sized on the plateau a machine shows rather than by a cache size it may not
// tell (a VM that names only its host's whole L3 served a "DRAM" roof from that L3 at 2.4× the
// memory's bandwidth). Host spaces share one memory, so one search in the widest host space the
// run uses serves them all; each device space searches its own.
#include <functional>
#include <map>
#include <string>

#include "harness/context/machine_facts.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/memory_plateau.hpp"

namespace ridgeline {

// Searches every space of the build that the profile and the filter want (nothing when the
// profile asks for no search or fixes working_set_bytes); `say` gets one line per measured set.
// A space whose first set cannot be measured gets a record saying why, never an exception.
// `expected`: per space, the plateau an earlier run recorded (--plateau-from) and the file it
// came from; where it was reached, its DRAM size and one doubling beyond it are measured first,
// and if every mix agrees there it stands (the nights of a nightly keep their points' names).
struct RecordedPlateau {
  MemoryPlateau plateau;
  std::string from;  // the results file that recorded it
};
std::map<std::string, MemoryPlateau> search_memory_plateaus(
    const SweepProfile& profile, const MachineFacts& machine, const PlanFilter& filter,
    const std::function<void(const std::string&)>& say,
    const std::map<std::string, RecordedPlateau>& expected = {});

}  // namespace ridgeline
