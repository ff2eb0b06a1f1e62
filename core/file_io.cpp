#include "core/file_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

// Owns a file descriptor; close errors matter only where close() is called explicitly.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;  // one owner per descriptor
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string random_suffix() {
  std::random_device rd;
  const unsigned long long v = (static_cast<unsigned long long>(rd()) << 32) ^ rd();
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", v);
  return buf;
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError(path, "cannot write", n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
}

std::string fmt_wait_message(const std::string& what, bool nothing_yet, int wait_ms) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%g", wait_ms / 1000.0);
  return "the " + what + " is a FIFO or pipe " +
         (nothing_yet ? "to which no writer wrote within " : "whose writer went silent for ") +
         secs + " s";
}

// How long a FIFO or pipe may stay silent before the read gives up: kFifoWaitSeconds, or
// RIDGELINE_INPUT_WAIT_S where set (the tests' FIFOs without a writer wait a fraction of it).
int fifo_wait_ms() {
  if (const char* s = std::getenv("RIDGELINE_INPUT_WAIT_S")) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end != s && *end == '\0' && v > 0 && v <= 3600) return int(v * 1000);
  }
  return kFifoWaitSeconds * 1000;
}

// A pipe or FIFO (`fit <(cat r.json)`, `fit /dev/stdin`): read until its writer closes it. The fd
// is non-blocking, so a FIFO that no writer opens (or that stays silent) ends in a timeout, never
// a hang: poll() reports nothing on a FIFO no writer has opened, POLLHUP once its writer left.
std::string read_fifo(int fd, const std::string& path, const std::string& what) {
  const int wait_ms = fifo_wait_ms();
  std::string text;
  char buf[1 << 16];
  while (true) {
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw IoError(path, "cannot read " + what, errno);
    if (r == 0) throw InputError(path, "", fmt_wait_message(what, text.empty(), wait_ms));
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) throw IoError(path, "cannot read " + what, errno);
    if (n == 0) break;  // the writer closed it
    text.append(buf, static_cast<std::size_t>(n));
    if (static_cast<long long>(text.size()) > kMaxInputBytes)
      throw InputError(path, "", "the " + what + " is larger than 1 GiB");
  }
  return text;
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO without a writer must not wait; regular files ignore the flag.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw IoError(path, "cannot open " + what, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw IoError(path, "cannot read " + what, errno);
  if (S_ISFIFO(st.st_mode)) return read_fifo(fd.get(), path, what);
  if (!S_ISREG(st.st_mode))
    throw InputError(
        path, "", "the " + what + " is not a regular file, pipe or FIFO (a directory or device)");
  if (st.st_size > kMaxInputBytes)
    throw InputError(path, "", "the " + what + " is larger than 1 GiB");
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path, "cannot read " + what, errno);
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (static_cast<long long>(text.size()) > kMaxInputBytes)
      throw InputError(path, "", "the " + what + " is larger than 1 GiB");
  }
  return text;
}

namespace {

// A file written and synced under a temporary name beside its target, not yet renamed.
struct Staged {
  std::string path, tmp;
};

Staged stage(const std::string& path, const std::string& text) {
  struct stat target {};
  const bool exists = ::lstat(path.c_str(), &target) == 0;
  if (!exists && errno != ENOENT) throw IoError(path, "cannot write", errno);
  if (exists && !S_ISREG(target.st_mode))
    throw InputError(path, "",
                     "exists and is not a regular file (a device, directory, symbolic link or "
                     "FIFO); refusing to replace it");

  std::string tmp;
  int raw = -1;
  for (int attempt = 0; attempt < 16 && raw < 0; ++attempt) {
    tmp = path + ".tmp-" + random_suffix();
    raw = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (raw < 0 && errno != EEXIST) throw IoError(path, "cannot write (temporary file)", errno);
  }
  if (raw < 0) throw IoError(path, "cannot write (temporary file)", EEXIST);
  Fd fd(raw);
  try {
    // A replaced file keeps its permissions.
    if (exists && ::fchmod(fd.get(), target.st_mode & 07777) != 0)
      throw IoError(path, "cannot write", errno);
    write_all(fd.get(), text, path);
    if (::fsync(fd.get()) != 0) throw IoError(path, "cannot write (fsync)", errno);
    if (fd.close() != 0) throw IoError(path, "cannot write (close)", errno);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  return {path, tmp};
}

void commit(const Staged& s) {
  if (std::rename(s.tmp.c_str(), s.path.c_str()) != 0) {
    const int err = errno;
    std::remove(s.tmp.c_str());
    throw IoError(s.path, "cannot replace", err);
  }
  // The rename itself reaches the disk with the directory; some file systems cannot sync one.
  Fd dir(::open(directory_of(s.path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() >= 0 && ::fsync(dir.get()) != 0 && errno != EINVAL && errno != EROFS)
    throw IoError(s.path, "written, but the directory could not be synced", errno);
}

}  // namespace

void write_text_atomically(const std::string& path, const std::string& text) {
  commit(stage(path, text));
}

void write_texts_atomically(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<Staged> staged;
  try {
    for (const auto& [path, text] : files) staged.push_back(stage(path, text));
  } catch (...) {
    for (const Staged& s : staged) std::remove(s.tmp.c_str());
    throw;
  }
  for (const Staged& s : staged) commit(s);
}

}  // namespace ridgeline
