#pragma once
// Where the sweep profiles and machine sheets (profiles/{sweeps,machines}) are found at run time,
// so that a copied or installed binary works without the source tree it was built from.
#include <string>
#include <vector>

namespace ridgeline {

struct ProfilesRoot {
  std::string path;  // the folder holding sweeps/ and machines/; empty when none was found
  std::string how;   // "RIDGELINE_PROFILES", "next to the binary", "build-time source tree"
};

// Search order: $RIDGELINE_PROFILES alone when it is set; otherwise, walking up from the running
// binary's folder, the install layout <prefix>/share/ridgeline/profiles and a source tree's
// <dir>/profiles, then the source tree the binary was built from. The first folder holding
// sweeps/ or machines/ wins.
ProfilesRoot find_profiles_root();

// The candidate folders in search order (for error messages and `ridgeline info`).
std::vector<std::string> profiles_root_candidates();

// find_profiles_root().path + "/" + sub, or a path that does not exist (callers report it).
std::string profiles_subdir(const std::string& sub);

}  // namespace ridgeline
