#pragma once
// Bad input is reported as one line naming the file and the field, and exits with kExitBadInput.
#include <cstring>
#include <stdexcept>
#include <string>

namespace ridgeline {

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
    return s + what;
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
