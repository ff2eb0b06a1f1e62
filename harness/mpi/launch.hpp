#pragma once
// Whether this process was started by an MPI launcher (mpirun, srun), read from the environment
// the launcher sets, before MPI is initialised: threads are bound before the OpenMP runtime
// starts, and a plain run never pays for MPI_Init.
#include <string>

namespace ridgeline {

struct Launch {
  bool under_launcher = false;
  int rank = 0, size = 1;              // in the whole job
  int local_rank = 0, local_size = 1;  // on this node
  std::string launcher;                // "Open MPI", "Slurm", "PMIx", "PMI", "" when none
};

// Open MPI's OMPI_COMM_WORLD_*, Slurm's SLURM_PROCID/SLURM_LOCALID (inside a job step), PMIx's
// PMIX_RANK, MPICH's PMI_RANK/MPI_LOCALRANKID. Local figures default to the global ones.
Launch detect_launch();

}  // namespace ridgeline
