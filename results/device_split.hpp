#pragma once
// An MPI job's results file holds every rank's points; each device (a GPU, or a rank's share of
// a host's CPUs) is fitted and reported on its own, like a file of its own.
#include <vector>

#include "results/results_model.hpp"

namespace ridgeline {

// One Results per device, in rank order, each with its points only, the rank's host as
// hostname, and `rank`, `device_key` and `device_label` set. A one-process file comes back whole.
std::vector<Results> split_by_device(Results results);

// What `fit` and `place` read: a one-process file whole (rank 0; any other rank is an
// InputError); of an MPI job's file, rank `rank`'s points only (InputError when the job has no
// such rank).
Results one_rank(Results results, int rank);

}  // namespace ridgeline
