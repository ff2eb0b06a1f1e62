#include "core/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

std::string holder(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "" : " (pid " + pid + ")";
}

}  // namespace

FileLock::FileLock(const std::string& path) : lock_path_(path + ".lock") {
  // The holder removes the lock file before releasing the lock, so a lock won on a file that is
  // no longer at the path is stale: start again with the file that is there now.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path, "cannot create the lock file " + lock_path_, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string who = holder(fd);
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw InputError(path, "",
                         "another ridgeline run" + who +
                             " is writing this file; wait for it or choose another --out");
      throw IoError(path, "cannot lock " + lock_path_, err);
    }
    struct stat held {
    }, there{};
    if (::fstat(fd, &held) == 0 && ::lstat(lock_path_.c_str(), &there) == 0 &&
        held.st_dev == there.st_dev && held.st_ino == there.st_ino) {
      const std::string pid = std::to_string(::getpid()) + "\n";
      if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
        const int err = errno;
        ::close(fd);
        throw IoError(path, "cannot write the lock file " + lock_path_, err);
      }
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
  throw InputError(path, "", "cannot lock " + lock_path_ + ": it keeps being replaced");
}

FileLock::~FileLock() {
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace ridgeline
