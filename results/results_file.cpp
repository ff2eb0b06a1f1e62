#include "results/results_file.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "core/input_error.hpp"

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

namespace {

// The field a number that overflows a double (1e999) sits in, as "points[3].samples[0]": the
// parser's error names only the number, so the text is parsed again, following keys and array
// indices, up to the failure. Only called after a failed parse: a good file pays nothing.
std::string field_of_overflow(const std::string& text) {
  struct Level {
    bool array;
    std::string name;  // the key (objects) or the index (arrays) of the value being read
    long index = -1;
  };
  std::vector<Level> stack;
  const auto next_element = [&stack] {
    if (!stack.empty() && stack.back().array)
      stack.back().name = std::to_string(++stack.back().index);
  };
  using Event = nlohmann::json::parse_event_t;
  const auto track = [&](int, Event event, nlohmann::json& value) {
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        next_element();
        stack.push_back({event == Event::array_start, {}});
        break;
      case Event::object_end:
      case Event::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case Event::key:
        if (!stack.empty()) stack.back().name = value.get<std::string>();
        break;
      case Event::value:
        next_element();
        break;
    }
    // Containers and keys must be kept, or the parser stops reporting what is inside them;
    // values and finished containers are dropped: only the position matters.
    return event == Event::object_start || event == Event::array_start || event == Event::key;
  };
  try {
    [[maybe_unused]] const nlohmann::json partial = nlohmann::json::parse(text, track);
  } catch (const nlohmann::json::exception&) {
  }
  // The failing number never reached a value event: in an array, it is the next index.
  if (!stack.empty() && stack.back().array)
    stack.back().name = std::to_string(stack.back().index + 1);
  std::string field;
  for (const auto& l : stack) {
    if (l.name.empty()) continue;
    field += l.array ? "[" + l.name + "]" : (field.empty() ? "" : ".") + l.name;
  }
  return field;
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& path,
                               const nlohmann::json::parser_callback_t& callback) {
  check_json_nesting(text, path);
  try {
    return nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::out_of_range& e) {
    // 406: a number like 1e999 that overflows a double.
    throw InputError(path, field_of_overflow(text),
                     std::string("a number out of a double's range: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
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
