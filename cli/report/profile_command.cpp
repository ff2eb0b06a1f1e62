#include "cli/report/profile_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "results/kernels_file.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

struct ProfileOptions {
  std::string out = "kernels.json";
  std::string tool;      // empty: lib/libridgeline-kp.so beside this program's bin/
  double interval = -1;  // < 0: the connector's default
  std::vector<std::string> command;
};

// Where the connector is: built and installed, it sits in lib/ beside the bin/ of this program.
std::string default_tool() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  return (self.parent_path().parent_path() / "lib" / "libridgeline-kp.so").string();
}

// The kernels file's folder must exist and take a file: said now, not after the application ran.
std::string checked_out(const std::string& out) {
  const fs::path path = fs::absolute(out);
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError("", "--out", "'" + out + "' is a folder; give a file name in it");
  const fs::path dir = path.parent_path();
  if (!fs::is_directory(dir, ec))
    throw InputError("", "--out", "folder '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw IoError(dir.string(), "--out: cannot write a file in this folder", errno);
  return path.string();
}

int run_profile(const ProfileOptions& o) {
  const std::string tool = o.tool.empty() ? default_tool() : o.tool;
  std::error_code ec;
  if (tool.empty() || !fs::is_regular_file(tool, ec))
    throw InputError("", "--tool",
                     "libridgeline-kp.so not found at '" + tool + "' (give --tool PATH)");
  const std::string out = checked_out(o.out);
  const std::string tool_path = fs::absolute(tool).string();
  // Kokkos 3.x reads only KOKKOS_PROFILE_LIBRARY, 4.x prefers KOKKOS_TOOLS_LIBS: set both, so
  // the application's Kokkos, whichever it is, loads the connector.
  for (const char* var : {"KOKKOS_PROFILE_LIBRARY", "KOKKOS_TOOLS_LIBS"}) {
    const char* before = std::getenv(var);
    if (before && *before && tool_path != before)
      std::cerr << "ridgeline profile: " << var << " was '" << single_line(before)
                << "'; the connector replaces it for this run\n";
    ::setenv(var, tool_path.c_str(), 1);
  }
  ::setenv("RIDGELINE_KP_OUT", out.c_str(), 1);
  if (o.interval >= 0) ::setenv("RIDGELINE_KP_INTERVAL", std::to_string(o.interval).c_str(), 1);
  fs::remove(out, ec);  // a stale file from an earlier run must not pass for this one's

  std::vector<char*> argv;
  for (const std::string& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t pid = ::fork();
  if (pid < 0) throw IoError(o.command[0], "cannot start the application", errno);
  if (pid == 0) {
    ::execvp(argv[0], argv.data());
    std::cerr << "ridgeline profile: " << single_line(o.command[0])
              << ": cannot run: " << std::strerror(errno) << "\n";
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int app_code = WIFEXITED(status)     ? WEXITSTATUS(status)
                       : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                             : kExitFailed;
  if (!fs::exists(out, ec)) {
    std::cerr << "ridgeline profile: no kernels file: the application's Kokkos did not load the "
                 "connector (not a Kokkos application, or it ended before Kokkos::initialize)\n";
    // Nothing was recorded: a run that "succeeded" must not pass for a profiled one.
    return app_code == 0 ? kExitFailed : app_code;
  }
  try {
    const KernelsFile k = load_kernels(out);
    std::cerr << "ridgeline profile: " << k.kernels.size() << " kernels in " << single_line(out)
              << (k.complete ? "" : " (incomplete: the application did not reach Kokkos::finalize)")
              << "\n";
  } catch (const InputError& e) {
    std::cerr << "ridgeline profile: " << e.what() << "\n";
  }
  return app_code;
}

}  // namespace

void add_profile_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ProfileOptions>();
  CLI::App* cmd = app.add_subcommand(
      "profile",
      "Run a Kokkos application under the connector (libridgeline-kp.so) and write its kernels "
      "file: `profile --out k.json -- ./app args`; the exit code is the application's");
  cmd->add_option("--out", opts->out, "The kernels file (its folder must exist)")
      ->capture_default_str();
  cmd->add_option("--tool", opts->tool,
                  "libridgeline-kp.so (default: lib/ beside this program's bin/)");
  cmd->add_option("--interval", opts->interval,
                  "Seconds between periodic writes of the file (default: the connector's, 5; "
                  "0: at the end only)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("command", opts->command, "The application and its arguments, after --")
      ->required();
  cmd->callback([opts, &exit_code] { exit_code = run_profile(*opts); });
}

}  // namespace ridgeline
