#include "reports/kernels/kernel_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ridgeline {
namespace {

// The C++ runtime's demangler; empty when `mangled` is not a whole mangled name.
std::string demangle(const std::string& mangled) {
  int status = -1;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : std::string();
}

// Function parameter lists beyond the first level of a long name become "(…)", the lambda's own
// "{lambda(int, int)#1}" kept: what is left names where the kernel is.
std::string shorten(const std::string& name) {
  constexpr std::size_t kLong = 60;
  if (name.size() <= kLong) return name;
  std::string out;
  int parens = 0, braces = 0;
  for (const char c : name) {
    if (c == '{') ++braces;
    if (c == '}' && braces > 0) --braces;
    if (braces == 0 && c == '(') {
      if (parens++ == 0) out += "(…";
      continue;
    }
    if (braces == 0 && c == ')' && parens > 0) {
      if (--parens == 0) out += ')';
      continue;
    }
    if (parens == 0) out += c;
  }
  return out;
}

}  // namespace

std::string readable_kernel_name(const std::string& label) {
  // typeid names: a local type ("Z4mainEUliE_"), a nested one ("N6Kokkos4Impl..."), or a
  // function's symbol ("_Z..."); a label with spaces or a "::" of its own is a name already.
  if (label.empty() || label.find(' ') != std::string::npos ||
      label.find("::") != std::string::npos)
    return label;
  const char first = label[0];
  if (first != 'Z' && first != 'N' && label.compare(0, 2, "_Z") != 0) return label;
  const std::string name = demangle(label);
  return name.empty() ? label : shorten(name);
}

}  // namespace ridgeline
