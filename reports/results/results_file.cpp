#include "results/results_file.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "results/input_error.hpp"

namespace ridgeline {

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  write_text_atomically(path, j.dump(1) + "\n");
}

nlohmann::json read_results_file(const std::string& path) {
  return parse_results_text(read_text_file(path, "results file"), path);
}

void check_json_nesting(const std::string& text, const std::string& path) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw InputError(path, "",
                         fmt::format("malformed JSON: nested deeper than {} levels (at byte {})",
                                     kMaxJsonDepth, i));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

nlohmann::json parse_json_text(const std::string& text, const std::string& path,
                               const nlohmann::json::parser_callback_t& callback) {
  check_json_nesting(text, path);
  try {
    return nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for numbers like 1e999 that overflow a double.
    throw InputError(path, "", std::string("malformed JSON: ") + e.what());
  }
}

nlohmann::json read_json_file(const std::string& path, const std::string& what) {
  return parse_json_text(read_text_file(path, what), path);
}

void check_results_header(const nlohmann::json& j, const std::string& path) {
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
}

nlohmann::json parse_results_text(const std::string& text, const std::string& path) {
  nlohmann::json j = parse_json_text(text, path);
  check_results_header(j, path);
  return j;
}

}  // namespace ridgeline
