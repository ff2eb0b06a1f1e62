#pragma once
// Helpers for the reporter's CLI tests: a fresh temporary directory and the binary's path.
#include <filesystem>
#include <string>

#include "support/run_command.hpp"

namespace ridgeline::test {

inline const std::string kBin = RIDGELINE_REPORT_BIN;
inline const std::string kData = RIDGELINE_TEST_DATA;

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/ridgeline-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;  // owns the directory
  TempDir& operator=(const TempDir&) = delete;
  int file_count() const {
    int n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(path))
      n += e.is_regular_file();
    return n;
  }
};

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace ridgeline::test
