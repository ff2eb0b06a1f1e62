#pragma once
// The results file (schema.md beside this file): its version, atomic writing and checked reading.
// The harness writes it; the reporter reads it. Both sides go through here.
#include <nlohmann/json.hpp>

#include <string>

#include "core/file_io.hpp"

namespace ridgeline {

inline constexpr const char* kSchemaVersion = "1.5.0";
inline constexpr int kSchemaMajor = 1;

// write_text_atomically (file_io.hpp) of the JSON text.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

// Parses a results file and checks `schema_version` (same major) and the top-level fields.
// Throws InputError naming the file and the field.
nlohmann::json read_results_file(const std::string& path);

// The same checks on text already in memory; `path` only names the source in errors.
nlohmann::json parse_results_text(const std::string& text, const std::string& path);

// Parses JSON; malformed text (and numbers that overflow a double) throw InputError naming `path`.
// `callback` is nlohmann's parser callback (it may drop values as they are read).
nlohmann::json parse_json_text(const std::string& text, const std::string& path,
                               const nlohmann::json::parser_callback_t& callback = nullptr);

// Parsing is iterative, but copying, comparing and printing a JSON value recurse: deeper input
// (200k nested '[') would overflow the stack. No ridgeline file nests more than a few levels.
inline constexpr int kMaxJsonDepth = 64;
void check_json_nesting(const std::string& text, const std::string& path);

// The top-level checks of a results file: an object, `schema_version` of our major, `context`
// an object and `points` an array.
void check_results_header(const nlohmann::json& j, const std::string& path);

// read_text_file + parse_json_text, for every JSON input (results, profiles, machine sheets).
nlohmann::json read_json_file(const std::string& path, const std::string& what);

}  // namespace ridgeline
