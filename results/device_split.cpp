#include "results/device_split.hpp"

#include <map>
#include <utility>

#include "core/input_error.hpp"

namespace ridgeline {

std::vector<Results> split_by_device(Results results) {
  if (results.mpi_size == 0) {
    std::vector<Results> whole;
    whole.push_back(std::move(results));
    return whole;
  }
  // Keyed by (rank, device key): a rank probing a GPU and its CPU share is two devices.
  std::map<std::pair<int, std::string>, Results> parts;
  std::vector<Point> points = std::move(results.points);
  results.points.clear();
  for (Point& p : points) {
    auto [it, fresh] = parts.try_emplace({p.rank, p.device_key});
    Results& part = it->second;
    if (fresh) {
      part = results;  // the header: context, profile, spaces, caches
      part.rank = p.rank;
      part.device_key = p.device_key;
      part.hostname = p.host;
      part.device_label = "rank " + std::to_string(p.rank) + " · " + p.host +
                          (p.where.empty() ? "" : " · " + p.where);
      // Ranks may hold different GPU models; the spec sheet is matched on the rank's own.
      for (SpaceInfo& s : part.spaces)
        if (s.name == p.space && s.device && !p.device.empty()) s.device->name = p.device;
    }
    part.points.push_back(std::move(p));
  }
  std::vector<Results> out;
  for (auto& [key, part] : parts) out.push_back(std::move(part));
  return out;
}

Results one_rank(Results results, int rank) {
  if (results.mpi_size == 0) {
    // The file's only numbers would pass for that rank's: refused, not ignored.
    if (rank != 0)
      throw InputError(results.file, "mpi",
                       "missing: not an MPI job's file, so it has no rank " + std::to_string(rank) +
                           " (--rank is for a job's file)");
    return results;
  }
  if (rank < 0 || rank >= results.mpi_size)
    throw InputError(results.file, "mpi.size",
                     "the job has ranks 0 to " + std::to_string(results.mpi_size - 1) + ", not " +
                         std::to_string(rank));
  std::vector<Point> points = std::move(results.points);
  results.points.clear();
  for (Point& p : points)
    if (p.rank == rank) {
      results.hostname = p.host;
      results.points.push_back(std::move(p));
    }
  results.rank = rank;
  return results;
}

}  // namespace ridgeline
