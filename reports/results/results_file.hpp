#pragma once
// The results file (schema.md beside this file): its version, atomic writing and checked reading.
// The harness writes it; the reporter reads it. Both sides go through here.
#include <nlohmann/json.hpp>

#include <string>

namespace ridgeline {

inline constexpr const char* kSchemaVersion = "1.0.0";
inline constexpr int kSchemaMajor = 1;

// Writes to a temporary file beside `path`, flushes it to disk, then renames it over `path`, so a
// reader (or a killed run) sees the old file or the new one, never half of one.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

// Parses a results file and checks `schema_version` (same major) and the top-level fields.
// Throws InputError naming the file and the field.
nlohmann::json read_results_file(const std::string& path);

}  // namespace ridgeline
