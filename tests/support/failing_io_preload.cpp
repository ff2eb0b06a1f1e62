// LD_PRELOAD shim for tests: makes fsync() (RIDGELINE_FAIL_FSYNC=1) or the close() of a file
// open for writing (RIDGELINE_FAIL_CLOSE=1) report EIO, as a failing disk or a full NFS server
// would, so tests can check that such a write is never renamed over the target.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

extern "C" int fsync(int fd) {
  if (std::getenv("RIDGELINE_FAIL_FSYNC")) {
    errno = EIO;
    return -1;
  }
  using Fn = int (*)(int);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "fsync"));
  return real(fd);
}

extern "C" int close(int fd) {
  using Fn = int (*)(int);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "close"));
  const int flags = fcntl(fd, F_GETFL);
  const bool writing = flags >= 0 && (flags & O_ACCMODE) != O_RDONLY;
  const int rc = real(fd);
  if (rc == 0 && writing && std::getenv("RIDGELINE_FAIL_CLOSE")) {
    errno = EIO;
    return -1;
  }
  return rc;
}
