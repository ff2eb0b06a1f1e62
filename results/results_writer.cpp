#include "results/results_writer.hpp"

#include <algorithm>
#include <map>

#include "core/input_error.hpp"
#include "results/results_file.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

using nlohmann::json;

ResultsWriter::ResultsWriter(std::string path, json profile, json context)
    : path_(std::move(path)) {
  doc_ = {{"schema_version", kSchemaVersion},
          {"complete", false},
          {"profile", std::move(profile)},
          {"context", std::move(context)},
          {"points", json::array()}};
}

namespace {

// Every value under `j` as "path.to.key" -> value (arrays are values), so that a difference is
// reported by the field that differs.
void add_leaves(const json& j, const std::string& path, std::map<std::string, json>& out) {
  if (!j.is_object()) {
    out[path] = j;
    return;
  }
  for (const auto& [key, value] : j.items()) add_leaves(value, path + "." + key, out);
}

// What a resumed file must share with this run, as "field path" -> value: the build (revision,
// compiler, flags), Kokkos, Google Benchmark, the host and its execution spaces (thread counts
// included), and the profile's content (not where it was read from).
std::map<std::string, json> run_identity(const json& doc) {
  std::map<std::string, json> id;
  const auto at = [&doc](const std::string& pointer) {
    const json::json_pointer p(pointer);
    return doc.contains(p) ? doc.at(p) : json(nullptr);
  };
  for (const char* pointer :
       {"/context/host/hostname", "/context/ridgeline/version", "/context/ridgeline/git_revision",
        "/context/build/compiler", "/context/build/flags", "/context/build/build_type",
        "/context/kokkos/version", "/context/kokkos/kokkos_kernels", "/context/kokkos/backends",
        "/context/run/google_benchmark", "/mpi/size", "/mpi/mode"}) {
    std::string field = std::string(pointer + 1);
    std::replace(field.begin(), field.end(), '/', '.');
    id[field] = at(pointer);
  }
  const json spaces = at("/context/spaces");
  for (std::size_t i = 0; spaces.is_array() && i < spaces.size(); ++i) {
    const json& s = spaces[i];
    const std::string field = "context.spaces[" + std::to_string(i) + "].";
    for (const char* key : {"name", "kind", "concurrency"})
      id[field + key] = s.is_object() ? s.value(key, json(nullptr)) : json(nullptr);
    const json device = s.is_object() ? s.value("device", json(nullptr)) : json(nullptr);
    id[field + "device.name"] =
        device.is_object() ? device.value("name", json(nullptr)) : json(nullptr);
  }
  id["context.spaces.size"] = spaces.is_array() ? spaces.size() : 0;
  json profile = at("/profile");
  if (profile.is_object()) profile.erase("source");
  add_leaves(profile, "profile", id);
  return id;
}

std::string shown(const json& v) {
  const std::string s = v.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

}  // namespace

std::set<std::string> ResultsWriter::resume_from(const std::string& path, int ranks) {
  const std::string text = read_text_file(path, "results file");
  parse_results(text, path);  // every field the reporter reads is checked: no type can abort us
  const json old = parse_results_text(text, path);
  auto was = run_identity(old), now = run_identity(doc_);
  for (const auto& [field, value] : was) now.emplace(field, json(nullptr));  // fields only before
  const auto check = [&](const std::string& field) {
    const auto it = was.find(field);
    const json before = it == was.end() ? json(nullptr) : it->second;
    if (before != now[field])
      throw InputError(path, field,
                       "is " + shown(before) + ", this run's is " + shown(now[field]) +
                           "; --resume continues a run of the same build, Kokkos, host, threads "
                           "and profile only");
  };
  check("context.host.hostname");  // the likeliest mistakes first: another host or profile
  check("profile.name");
  for (const auto& entry : now) check(entry.first);
  // Only measured and verified points carry over; skipped or failed ones are tried again, and
  // so are points killed before their last round: their samples would miss the later phases.
  const json rounds_json = doc_["profile"].value("rounds", json(1));
  const std::size_t rounds =
      rounds_json.is_number_integer() ? std::size_t(std::max<std::int64_t>(1, rounds_json)) : 1;
  const auto kept = [rounds](const json& p) {
    if (!p.value("skipped_reason", json(nullptr)).is_null() || !p.at("verified").get<bool>())
      return false;
    if (rounds == 1) return true;
    std::set<std::int64_t> seen;
    const json r = p.value("sample_rounds", json::array());
    for (const auto& x : r.is_array() ? r : json::array())
      if (x.is_number_integer()) seen.insert(x.get<std::int64_t>());
    return seen.size() >= rounds;
  };
  std::map<std::string, std::set<int>> ranks_done;
  for (const auto& p : old["points"])
    if (kept(p)) ranks_done[p["name"].get<std::string>()].insert(p.value("rank", 0));
  std::set<std::string> done;
  for (const auto& [name, got] : ranks_done)
    if (static_cast<int>(got.size()) >= ranks) done.insert(name);
  for (const auto& p : old["points"])
    if (kept(p) && done.count(p["name"].get<std::string>())) doc_["points"].push_back(p);
  flush();
  return done;
}

void ResultsWriter::set_mpi(json mpi) { doc_["mpi"] = std::move(mpi); }

void ResultsWriter::add(const PointEntry& point) {
  doc_["points"].push_back(to_json(point));
  flush();
}

namespace {

// The entry of `point`'s name and rank (an MPI job's entries share names), or nullptr.
json* same_point(json& points, const json& point) {
  const json rank = point.value("rank", json(nullptr));
  for (auto& p : points)
    if (p["name"] == point["name"] && p.value("rank", json(nullptr)) == rank) return &p;
  return nullptr;
}

}  // namespace

void ResultsWriter::replace_or_append(json point) {
  if (json* p = same_point(doc_["points"], point))
    *p = std::move(point);
  else
    doc_["points"].push_back(std::move(point));
}

void ResultsWriter::put(const PointEntry& point) {
  replace_or_append(to_json(point));
  flush();
}

void ResultsWriter::put_all(const std::vector<PointEntry>& points) {
  for (const auto& point : points) replace_or_append(to_json(point));
  flush();
}

void ResultsWriter::finish(bool complete) {
  doc_["complete"] = complete;
  flush();
}

int ResultsWriter::failed_points() const {
  int n = 0;
  for (const auto& p : doc_["points"])
    if (p["skipped_reason"].is_null() && !p["verified"].get<bool>()) ++n;
  return n;
}

void ResultsWriter::flush() const {
  if (!path_.empty()) write_json_atomically(path_, doc_);
}

}  // namespace ridgeline
