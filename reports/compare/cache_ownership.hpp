#pragma once
// Whether the run owns the cache level a point's working set lives in. A level shared with other
// tenants (a cloud VM's L3, whose size the VM may not even report) gives its points two states as
// neighbours come and go: on a 2-vCPU EPYC VM the 32–64 MiB sets swung 40–58 % between nights
// (issue 49). The gate judges such points against the range their history shows
// (compare/shared_level.hpp); every other point by its tolerance around the history's median.
#include <optional>
#include <string>

#include "results/results_model.hpp"

namespace ridgeline {

// Why the run does not own the cache level that holds `p`'s working set; empty when it does.
// Not owned: a set beyond every level of a cache list that is incomplete (the last-level cache's
// size unknown: `caches_incomplete`), or within (or, below the DRAM plateau, beyond) a level whose
// shared_by_threads exceeds the space's threads, or any cache level of a CPU under a hypervisor
// (context.cpu.hypervisor: the VM's cache list is not the host's). Judged the same way for the same
// reason, two states: a cache sweep's set within an octave of a capacity (from 1/√2 of it to twice
// it), split between the two levels. Owned: a level each of the run's threads has to itself or
// shares only among them, a GPU's caches (the run has the device), and points that are on the DRAM
// plateau (dram_sized), have no working set, or come from files that record no caches: those are
// judged as before.
std::string unowned_level_reason(const Results& r, const Point& p);

// Where a point's working set lives, in a few words, for compare.json's `level`: "DRAM plateau"
// (on_dram_plateau, the rule the gate matches and judges DRAM points by), else the smallest level
// of the memory-levels report's cache_capacities (levels/memory_levels.hpp) that holds it, without
// its "(LLC)": "L1", "L2", "L3", a GPU's "MALL"; else "beyond the listed caches" (past every level
// of the list, below the plateau: a level the list lacks, or partly the last one). nullopt for
// points with no working set, register-only ones (P's: their working set is only their output)
// and files that record no caches. One rule in one place, so that scripts which choose points by
// level (scripts/gate-aa's plants of the DRAM plateau and of a private level) choose what the
// reports call that level.
std::optional<std::string> point_level(const Results& r, const Point& p);

// The level a point's working set lives in (point_level) where the cache list gives it to the
// run alone: a CPU level each of the run's threads has to itself or shares only among them (under
// a hypervisor too: what the VM's list says of its own cores), or a GPU's cache. nullopt for the
// DRAM plateau, a set beyond the listed caches, and a level shared with more threads than the run
// has. Its points are judged together as well as one by one (compare/level_factors.hpp).
std::optional<std::string> private_level(const Results& r, const Point& p);

}  // namespace ridgeline
