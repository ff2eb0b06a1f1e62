// The job under MPI: MPI_COMM_WORLD, nonblocking collectives completed by a sleeping wait.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "harness/mpi/job.hpp"

namespace ridgeline {
namespace {

constexpr int kTurnTag = 0x7269;  // "ri"

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string(call) + " failed: " + text);
}

// MPI's blocking calls spin; a rank waiting for slower ones would take a core from them (an
// oversubscribed node, or a host rank beside a GPU rank's driver thread). Back off to 1 ms.
void wait_sleeping(MPI_Request& request) {
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace

Job::Job(const Launch& launch) : launcher_(launch.launcher) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  if (!launch.under_launcher) {
    host_ = gethostname(name, sizeof name - 1) == 0 ? name : "";
    return;
  }
  int provided = 0;
  // Only the main thread calls MPI; Kokkos' OpenMP threads never do.
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  uses_mpi_ = true;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  check(MPI_Comm_rank(node, &local_rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(node, &local_size_), "MPI_Comm_size");
  MPI_Comm_free(&node);
  int len = 0;
  check(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
  host_.assign(name, static_cast<std::size_t>(len));
}

Job::~Job() {
  if (uses_mpi_) MPI_Finalize();
}

std::string Job::library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "";
  std::string s(text, static_cast<std::size_t>(std::max(len, 0)));
  s = s.substr(0, s.find_first_of(",\n"));
  return s;
}

void Job::barrier() {
  if (size_ == 1) return;
  MPI_Request r;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &r), "MPI_Ibarrier");
  wait_sleeping(r);
}

std::vector<std::string> Job::gather(const std::string& text) {
  if (size_ == 1) return {text};
  barrier();  // the sizes' gather below then finds everyone there
  const int len = static_cast<int>(text.size());
  std::vector<int> lens(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<int> offsets(lens.size());
  int total = 0;
  for (std::size_t i = 0; i < lens.size(); ++i) {
    offsets[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Request r;
  check(MPI_Igatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR,
                     0, MPI_COMM_WORLD, &r),
        "MPI_Igatherv");
  wait_sleeping(r);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lens.size(); ++i)
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lens[i])));
  return out;
}

std::string Job::broadcast(const std::string& text) {
  if (size_ == 1) return text;
  int len = static_cast<int>(text.size());
  MPI_Request r;
  check(MPI_Ibcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD, &r), "MPI_Ibcast");
  wait_sleeping(r);
  std::string out = rank_ == 0 ? text : std::string(static_cast<std::size_t>(len), '\0');
  check(MPI_Ibcast(out.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD, &r), "MPI_Ibcast");
  wait_sleeping(r);
  return out;
}

std::vector<RankEntry> Job::gather_entries(const RankEntry& mine) {
  // One gather of text: the flag as the first character ('E': ended), then the entry's JSON as
  // the results file has it. Decoded unchecked: an entry the file's reader would reject (a null
  // sample) is still written, as in a one-process run.
  std::vector<RankEntry> out;
  for (const std::string& text : gather((mine.ended ? "E" : "-") + to_json(mine.entry).dump()))
    out.push_back({point_entry_from_json(nlohmann::json::parse(text.substr(1))), text[0] == 'E'});
  return out;
}

bool Job::broadcast_flag(bool flag) { return broadcast(flag ? "E" : "-") == "E"; }

void Job::wait_turn() {
  if (rank_ == 0) return;
  int token = 0;
  MPI_Request r;
  check(MPI_Irecv(&token, 1, MPI_INT, rank_ - 1, kTurnTag, MPI_COMM_WORLD, &r), "MPI_Irecv");
  wait_sleeping(r);
}

void Job::pass_turn() {
  if (rank_ + 1 >= size_) return;
  int token = 1;
  check(MPI_Send(&token, 1, MPI_INT, rank_ + 1, kTurnTag, MPI_COMM_WORLD), "MPI_Send");
}

void Job::abort(int exit_code) {
  if (uses_mpi_) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::exit(exit_code);
}

}  // namespace ridgeline
