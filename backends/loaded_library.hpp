#pragma once
// A vendor library opened at run time (dlopen), as cuBLAS, rocBLAS, hipBLASLt and ROCm SMI are:
// the binary carries no link-time dependency on them, starts where they are missing, and says
// what the loader answered. Runtime-free, so it is unit-tested in the CPU build.
#include <dlfcn.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline {

// A loaded library's functions by name. The library stays loaded for the process (the GPU
// libraries register kernels with their runtime until exit), so nothing is closed.
class LoadedLibrary {
 public:
  LoadedLibrary(void* handle, std::string soname) : handle_(handle), soname_(std::move(soname)) {}

  // A function the caller cannot do without: throws naming the library and the symbol.
  template <class F>
  F symbol(const char* name) const {
    void* p = dlsym(handle_, name);
    if (!p) throw std::runtime_error(soname_ + " has no symbol " + name);
    return reinterpret_cast<F>(p);
  }
  // A function an older release may lack: null then.
  template <class F>
  F optional_symbol(const char* name) const {
    return reinterpret_cast<F>(dlsym(handle_, name));
  }
  const std::string& soname() const { return soname_; }

 private:
  void* handle_;
  std::string soname_;
};

// The loader's answer for the last failed dlopen of `soname` (dlerror names the file).
inline std::string dlopen_error(const char* soname) {
  const char* err = dlerror();
  return err ? std::string(err) : std::string(soname) + ": dlopen failed";
}

// The first of `sonames` the loader opens, tried in order (newest ABI first); none with the
// loader's answer for each in `errors`.
template <class Sonames>
std::optional<LoadedLibrary> open_first(const Sonames& sonames, std::vector<std::string>& errors) {
  for (const char* soname : sonames) {
    if (void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return LoadedLibrary(handle, soname);
    errors.push_back(dlopen_error(soname));
  }
  return std::nullopt;
}

}  // namespace ridgeline
