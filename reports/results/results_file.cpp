#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "results/input_error.hpp"

namespace ridgeline {

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  write_text_atomically(path, j.dump(1) + "\n");
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
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

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open " + what);
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, "", "cannot read " + what);
  return ss.str();
}

nlohmann::json read_results_file(const std::string& path) {
  return parse_results_text(read_text_file(path, "results file"), path);
}

nlohmann::json parse_json_text(const std::string& text, const std::string& path) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for numbers like 1e999 that overflow a double.
    throw InputError(path, "", std::string("malformed JSON: ") + e.what());
  }
}

nlohmann::json read_json_file(const std::string& path, const std::string& what) {
  return parse_json_text(read_text_file(path, what), path);
}

nlohmann::json parse_results_text(const std::string& text, const std::string& path) {
  const nlohmann::json j = parse_json_text(text, path);
  if (!j.is_object()) throw InputError(path, "", "a results file must be a JSON object");
  if (!j.contains("schema_version") || !j["schema_version"].is_string())
    throw InputError(path, "schema_version", "missing (not a ridgeline results file?)");
  const std::string v = j["schema_version"].get<std::string>();
  // Only digits before the first dot count: "1x" or "" is no version at all.
  const auto dot = v.find('.');
  const std::string major_text = v.substr(0, dot);
  const bool digits = !major_text.empty() && major_text.size() < 6 &&
                      major_text.find_first_not_of("0123456789") == std::string::npos;
  const int major = digits ? std::atoi(major_text.c_str()) : -1;
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
