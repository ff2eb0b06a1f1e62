#pragma once
// One writer per results file: `ridgeline run` holds an exclusive lock on <path>.lock while it
// rewrites <path>, so a second run with the same --out is refused instead of both exiting 0 with
// one run's points lost.
#include <string>

namespace ridgeline {

class FileLock {
 public:
  // Throws InputError naming `path` (and the holder's pid) when another process holds the lock,
  // IoError when the lock file cannot be created.
  explicit FileLock(const std::string& path);
  ~FileLock();                         // removes the lock file, then releases the lock
  FileLock(const FileLock&) = delete;  // owns the lock
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace ridgeline
