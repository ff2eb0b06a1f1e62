#include "harness/mpi/launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace ridgeline {
namespace {

// A non-negative integer from the environment, or -1.
int env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return *end == '\0' && x >= 0 && x < (1L << 24) ? static_cast<int>(x) : -1;
}

struct Source {
  const char* launcher;
  const char *rank, *size, *local_rank, *local_size;
};

}  // namespace

Launch detect_launch() {
  // Slurm counts only inside a job step (srun); a batch script's own shell has no step id.
  const bool slurm_step = env_int("SLURM_STEP_ID") >= 0 || std::getenv("SLURM_STEPID");
  static const Source kSources[] = {
      {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
       "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"},
      {"PMIx", "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE"},
      {"PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"}};
  Launch l;
  for (const Source& s : kSources) {
    if (std::string(s.launcher) == "Slurm" && !slurm_step) continue;
    const int rank = env_int(s.rank);
    if (rank < 0) continue;
    l.under_launcher = true;
    l.launcher = s.launcher;
    l.rank = rank;
    l.size = std::max(env_int(s.size), rank + 1);
    l.local_rank = env_int(s.local_rank) >= 0 ? env_int(s.local_rank) : rank;
    l.local_size = env_int(s.local_size) > l.local_rank ? env_int(s.local_size) : l.size;
    break;
  }
  return l;
}

}  // namespace ridgeline
