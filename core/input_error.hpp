#pragma once
// Bad input is reported as one line naming the file and the field, and exits with kExitBadInput.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ridgeline {

// The text with every control character written as an escape (\n, \r, \t, \xNN): a file name,
// host name or field that holds a newline cannot split an error into two lines.
inline std::string single_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// kExitInternal: a bug (an exception nothing expected), reported as one line, never an abort.
enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitBadInput = 2, kExitInternal = 3 };

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& field, const std::string& what)
      : std::runtime_error(compose(file, field, what)) {}

 private:
  static std::string compose(const std::string& file, const std::string& field,
                             const std::string& what) {
    std::string s = file.empty() ? std::string() : file + ": ";
    if (!field.empty()) s += field + ": ";
    return single_line(s + what);
  }
};

// A file that cannot be read or written: the line ends with the system's reason (strerror), and
// the command exits with kExitBadInput as for any input it cannot use.
class IoError : public InputError {
 public:
  IoError(const std::string& file, const std::string& what, int errnum)
      : InputError(file, "", what + ": " + std::strerror(errnum)) {}
};

}  // namespace ridgeline
