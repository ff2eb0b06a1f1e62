#pragma once
// Builds the results document point by point and rewrites it atomically after each one, so a run
// killed mid-sweep keeps every finished point (results/schema.md).
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "results/point_entry.hpp"

namespace ridgeline {

class ResultsWriter {
 public:
  // An empty `path` writes nothing (a run that only lists its points).
  ResultsWriter(std::string path, nlohmann::json profile, nlohmann::json context);

  // Takes the measured points of an earlier, interrupted run of the same build, Kokkos, host
  // and profile (every field checked, the file read as the reporter reads it); returns their
  // names so the sweep can skip them. Throws InputError naming the first field that differs.
  // In an MPI job (`ranks` > 1) a point is done when every rank has it verified; the entries of
  // points some rank lacks are dropped, and the point is measured again on every rank.
  std::set<std::string> resume_from(const std::string& path, int ranks = 1);

  // The MPI job's block ({"size", "mode", "library", "ranks": [placements]}); part of what a
  // resumed file must match (size and mode).
  void set_mpi(nlohmann::json mpi);
  void add(const PointEntry& point);  // appends and rewrites the file
  // Replaces the entry of the same name and rank (a point measured again in a later round),
  // else appends; rewrites the file. put_all: several, one rewrite.
  void put(const PointEntry& point);
  void put_all(const std::vector<PointEntry>& points);
  // Rewrites the file a last time; `complete` only when every planned point is in it.
  void finish(bool complete);
  int failed_points() const;

 private:
  void replace_or_append(nlohmann::json point);
  void flush() const;
  std::string path_;
  // The document as written; resumed entries stay as their file had them, this run's are
  // to_json's.
  nlohmann::json doc_;
};

}  // namespace ridgeline
