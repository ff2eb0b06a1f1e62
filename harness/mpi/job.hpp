#pragma once
// The ranks of one `ridgeline run`: one per device (or per host CPU share) under mpirun or srun,
// or a single rank. The sweep uses only this interface, so it reads the same with or without MPI
// (job_mpi.cpp with RIDGELINE_ENABLE_MPI, job_single.cpp without).
#include <string>
#include <vector>

#include "harness/mpi/launch.hpp"
#include "results/point_entry.hpp"

namespace ridgeline {

// concurrent: every rank measures each point at once (the node's shared memory bus, links and
//   power are loaded as in real work); isolated: one rank after another, each device alone.
enum class MpiMode { concurrent, isolated };
inline const char* mpi_mode_name(MpiMode mode) {
  return mode == MpiMode::isolated ? "isolated" : "concurrent";
}

// One rank's entry of a point after a visit, and whether the point ended on that rank (every
// round visited, or failed): rank 0 writes the entries, and a point that ended on one rank ends
// on all.
struct RankEntry {
  PointEntry entry;
  bool ended = false;
};

class Job {
 public:
  // Initialises MPI when the process was started by a launcher; a one-rank job otherwise. A
  // build without MPI refuses a launch of several ranks (each would write the same file).
  explicit Job(const Launch& launch);
  ~Job();
  // Owns MPI's lifetime (MPI_Init once per process): neither copied nor moved.
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  // "Open MPI v4.1.4, …" (the first line of MPI_Get_library_version); "" without MPI.
  static std::string library_version();
  bool uses_mpi() const { return uses_mpi_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  const std::string& host() const { return host_; }
  const std::string& launcher() const { return launcher_; }  // "Open MPI", "Slurm", …

  // Collectives; every rank calls them in the same order. Waiting ranks sleep instead of
  // spinning, so they leave their cores to the ranks still measuring.
  void barrier();
  // Rank 0 receives every rank's text, in rank order; other ranks get an empty vector.
  std::vector<std::string> gather(const std::string& text);
  // Every rank gets rank 0's text.
  std::string broadcast(const std::string& text);
  // gather, for the sweep's point entries: rank 0 receives every rank's, in rank order; other
  // ranks get an empty vector. How they travel is the job's business.
  std::vector<RankEntry> gather_entries(const RankEntry& mine);
  // broadcast, for a yes or no: every rank gets rank 0's.
  bool broadcast_flag(bool flag);
  // isolated mode: wait until the previous rank has passed the turn, then pass it on.
  void wait_turn();
  void pass_turn();
  // Ends every rank of the job (one rank's error must not leave the others waiting forever).
  [[noreturn]] void abort(int exit_code);

 private:
  bool uses_mpi_ = false;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::string host_, launcher_;
};

}  // namespace ridgeline
