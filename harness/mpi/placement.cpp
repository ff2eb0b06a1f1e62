#include "harness/mpi/placement.hpp"

#include "harness/mpi/cpu_binding.hpp"

namespace ridgeline {

using nlohmann::json;

namespace {

json text_or_null(const json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_string() ? object[key]
                                                                               : json(nullptr);
}

}  // namespace

json rank_placement(const Job& job, const json& context) {
  const std::vector<int> cpus = allowed_cpus();
  json devices = json::object();
  if (context.contains("spaces") && context["spaces"].is_array())
    for (const json& s : context["spaces"]) {
      if (!s.is_object() || !s.contains("device") || !s["device"].is_object()) continue;
      const json& d = s["device"];
      devices[s.value("name", "")] = {{"name", text_or_null(d, "name")},
                                      {"uuid", text_or_null(d, "uuid")},
                                      {"pci_bus_id", text_or_null(d, "pci_bus_id")}};
    }
  return {{"rank", job.rank()},
          {"host", job.host()},
          {"local_rank", job.local_rank()},
          {"cpu_set", cpu_list_text(cpus)},
          {"numa_nodes", numa_nodes_of(cpus)},
          {"devices", devices}};
}

json point_placement(const json& rank, const json& context, const std::string& space) {
  json p = {{"rank", rank["rank"]}, {"host", rank["host"]}};
  const json& devices = rank["devices"];
  if (devices.contains(space)) {
    const json& d = devices[space];
    p["device"] = d["name"];
    p["uuid"] = d["uuid"];
    p["pci_bus_id"] = d["pci_bus_id"];
    p["key"] = d["uuid"].is_string()
                   ? d["uuid"]
                   : json(rank["host"].get<std::string>() + " " + space + " " +
                          (d["pci_bus_id"].is_string() ? d["pci_bus_id"].get<std::string>()
                                                       : "rank " + rank["rank"].dump()));
    return p;
  }
  const json cpu = context.value("cpu", json::object());
  p["device"] = text_or_null(cpu, "model");
  p["cpu_set"] = rank["cpu_set"];
  p["numa_nodes"] = rank["numa_nodes"];
  p["key"] = rank["host"].get<std::string>() + " cpus " + rank["cpu_set"].get<std::string>();
  return p;
}

}  // namespace ridgeline
