#pragma once
// The results file (schema.md beside this file): its version, atomic writing and checked reading.
// The harness writes it; the reporter reads it. Both sides go through here.
#include <nlohmann/json.hpp>

#include <string>

namespace ridgeline {

inline constexpr const char* kSchemaVersion = "1.1.0";
inline constexpr int kSchemaMajor = 1;

// Writes to a temporary file beside `path`, flushes it to disk, then renames it over `path`, so a
// reader (or a killed run) sees the old file or the new one, never half of one.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

// Parses a results file and checks `schema_version` (same major) and the top-level fields.
// Throws InputError naming the file and the field.
nlohmann::json read_results_file(const std::string& path);

// The same checks on text already in memory; `path` only names the source in errors.
nlohmann::json parse_results_text(const std::string& text, const std::string& path);

// Parses JSON; malformed text (and numbers that overflow a double) throw InputError naming `path`.
nlohmann::json parse_json_text(const std::string& text, const std::string& path);

// read_text_file + parse_json_text, for every JSON input (results, profiles, machine sheets).
nlohmann::json read_json_file(const std::string& path, const std::string& what);

// Reads a whole file; throws InputError when it cannot be opened.
std::string read_text_file(const std::string& path, const std::string& what);

// write_json_atomically for text (reports, charts): temp file + rename, never a partial file.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace ridgeline
