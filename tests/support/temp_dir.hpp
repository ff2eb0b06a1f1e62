#pragma once
// A fresh temporary directory for one test, removed with everything in it afterwards.
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace ridgeline::test {

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

}  // namespace ridgeline::test
