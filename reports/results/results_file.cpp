#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "results/input_error.hpp"

namespace ridgeline {

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const std::string text = j.dump(1) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw InputError(path, "", "cannot write (open of temporary file failed)");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      ::close(fd);
      std::remove(tmp.c_str());
      throw InputError(path, "", "cannot write (disk full?)");
    }
    done += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(path, "", "cannot replace file");
  }
}

nlohmann::json read_results_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open results file");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, "", std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) throw InputError(path, "", "a results file must be a JSON object");
  if (!j.contains("schema_version") || !j["schema_version"].is_string())
    throw InputError(path, "schema_version", "missing (not a ridgeline results file?)");
  const std::string v = j["schema_version"].get<std::string>();
  const int major = std::atoi(v.c_str());
  if (major != kSchemaMajor)
    throw InputError(path, "schema_version",
                     "is " + v + "; this ridgeline reads " + std::to_string(kSchemaMajor) + ".x");
  if (!j.contains("context") || !j["context"].is_object())
    throw InputError(path, "context", "missing or not an object");
  if (!j.contains("points") || !j["points"].is_array())
    throw InputError(path, "points", "missing or not an array");
  return j;
}

}  // namespace ridgeline
