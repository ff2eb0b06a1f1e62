// The job of a build without MPI: one rank, collectives that return at once.
#include <unistd.h>

#include <cstdlib>

#include "core/input_error.hpp"
#include "harness/mpi/job.hpp"

namespace ridgeline {

Job::Job(const Launch& launch) : launcher_(launch.launcher) {
  if (launch.size > 1)
    throw InputError(
        "", "mpirun",
        "this build has no MPI (configure with MPI installed, RIDGELINE_ENABLE_MPI=ON); "
        "started as rank " +
            std::to_string(launch.rank) + " of " + std::to_string(launch.size) + " by " +
            launch.launcher + ", every rank would measure alone and write the same file");
  char name[256] = {};
  host_ = gethostname(name, sizeof name - 1) == 0 ? name : "";
}
Job::~Job() = default;

std::string Job::library_version() { return ""; }
void Job::barrier() {}
std::vector<std::string> Job::gather(const std::string& text) { return {text}; }
std::string Job::broadcast(const std::string& text) { return text; }
std::vector<RankEntry> Job::gather_entries(const RankEntry& mine) { return {mine}; }
bool Job::broadcast_flag(bool flag) { return flag; }
void Job::wait_turn() {}
void Job::pass_turn() {}
void Job::abort(int exit_code) { std::exit(exit_code); }

}  // namespace ridgeline
