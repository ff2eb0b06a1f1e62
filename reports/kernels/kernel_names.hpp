#pragma once
// A kernel's label as a reader knows it. Kokkos labels a kernel launched without a name by its
// functor's type as typeid names it (the Itanium mangling, without the leading "_Z" of a
// function's): "Z18update_halo_kerneliiiiPiS_...EUliiE_". Shown demangled, as kokkos-tools' timers
// show them, with long parameter lists shortened; the label itself stays the key counts join on.
#include <string>

namespace ridgeline {

// The demangled name ("update_halo_kernel(…)::{lambda(int, int)#1}"), or the label unchanged
// when it is not a mangled name.
std::string readable_kernel_name(const std::string& label);

}  // namespace ridgeline
