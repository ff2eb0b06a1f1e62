#include "reports/render/host_labels.hpp"

#include <filesystem>
#include <set>
#include <string>

namespace ridgeline {

std::string machine_name(const Results& r) {
  if (const SpaceInfo* gpu = r.measured_device()) return gpu->device->name;
  return r.hostname;
}

// Files are named by machine; files of one machine (the nightly layout, results.json in dated
// folders) add the shortest part of their path that tells them apart.
void label_by_machine(std::vector<FileAnalysis>& files) {
  namespace fs = std::filesystem;
  auto host = [](const FileAnalysis& f) {
    const std::string name = machine_name(f.results);
    return name.empty() ? f.label : name;
  };
  std::vector<std::string> labels;
  for (const auto& f : files) {
    if (!f.results.device_label.empty()) {  // a device of an MPI job: its rank says which
      labels.push_back(f.results.device_label);
      continue;
    }
    std::vector<const FileAnalysis*> same;
    for (const auto& g : files)
      if (host(g) == host(f)) same.push_back(&g);
    if (same.size() == 1) {
      labels.push_back(host(f));
      continue;
    }
    auto distinct = [&same](auto part) {
      std::set<std::string> seen;
      for (const FileAnalysis* g : same) seen.insert(part(*g));
      return seen.size() == same.size();
    };
    auto name = [](const FileAnalysis& g) { return fs::path(g.results.file).filename().string(); };
    auto folder = [](const FileAnalysis& g) {
      return fs::path(g.results.file).parent_path().filename().string();
    };
    const std::string which = distinct(name)     ? name(f)
                              : distinct(folder) ? folder(f) + "/" + name(f)
                                                 : f.results.file;
    labels.push_back(host(f) + " (" + which + ")");
  }
  for (std::size_t i = 0; i < files.size(); ++i) files[i].label = labels[i];
}

}  // namespace ridgeline
