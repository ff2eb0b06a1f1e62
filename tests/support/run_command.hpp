#pragma once
// Runs a command line through the shell and captures stdout, stderr and the exit status, so tests
// can check what a user of the CLI sees.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace ridgeline::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline CommandResult run_command(const std::string& command) {
  char err_path[] = "/tmp/ridgeline-test-stderr-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd >= 0) close(fd);
  CommandResult r;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err_path);
  std::remove(err_path);
  return r;
}

// Counts lines in a string (a trailing newline does not start a new line).
inline int line_count(const std::string& s) {
  int lines = 0;
  for (char c : s) lines += c == '\n';
  return lines + (!s.empty() && s.back() != '\n');
}

}  // namespace ridgeline::test
