#include "core/profiles_root.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace ridgeline {
namespace fs = std::filesystem;

namespace {

struct Candidate {
  fs::path path;
  const char* how;
};

std::vector<Candidate> candidates() {
  std::vector<Candidate> out;
  // A folder the user names is the only one looked at: a typo must not fall back silently.
  if (const char* env = std::getenv("RIDGELINE_PROFILES"); env && *env)
    return {{env, "RIDGELINE_PROFILES"}};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // bin/ridgeline → ../share/ridgeline/profiles (installed); build*/bin/ridgeline and
    // build/<preset>/bin/ridgeline → ../../profiles, ../../../profiles (source tree).
    fs::path dir = exe.parent_path();
    for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
      out.push_back({dir / "share" / "ridgeline" / "profiles", "next to the binary"});
      out.push_back({dir / "profiles", "next to the binary"});
      if (dir == dir.root_path()) break;
    }
  }
  out.push_back({RIDGELINE_PROFILES_DIR, "build-time source tree"});
  return out;
}

bool holds_profiles(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p / "sweeps", ec) || fs::is_directory(p / "machines", ec);
}

}  // namespace

ProfilesRoot find_profiles_root() {
  for (const auto& c : candidates())
    if (holds_profiles(c.path)) return {c.path.lexically_normal().string(), c.how};
  return {};
}

std::vector<std::string> profiles_root_candidates() {
  std::vector<std::string> out;
  for (const auto& c : candidates()) out.push_back(c.path.lexically_normal().string());
  return out;
}

std::string profiles_subdir(const std::string& sub) {
  const ProfilesRoot root = find_profiles_root();
  // Nothing found: name the first candidate, so an error message points somewhere sensible.
  const std::string base = root.path.empty() ? profiles_root_candidates().front() : root.path;
  return base + "/" + sub;
}

}  // namespace ridgeline
