// The probe catalog is consistent: one entry per name, known families, one profile name per probe
// of a family, and the names and families results/schema.md's probe table documents.
#include "results/probe_catalog.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

TEST(ProbeCatalog, NamesAreUniqueAndFamiliesKnown) {
  std::set<std::string_view> names, families;
  for (const ProbeFamily& f : kProbeFamilies) EXPECT_TRUE(families.insert(f.name).second) << f.name;
  for (const ProbeSpec& p : kProbes) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name << " is in the catalog twice";
    EXPECT_NE(find_family(p.family), nullptr) << p.name << ": unknown family " << p.family;
    EXPECT_FALSE(p.what.empty()) << p.name;
    EXPECT_EQ(find_probe(p.name), &p);
  }
  // A family never shares a name with another family's probe: `--probe NAME` is one or the other.
  for (const ProbeFamily& f : kProbeFamilies) {
    EXPECT_FALSE(probes_in(f.name).empty()) << f.name << " has no probe";
    const ProbeSpec* same = find_probe(f.name);
    if (same) {
      EXPECT_EQ(same->family, f.name) << f.name;
    }
  }
  EXPECT_EQ(find_probe("nope"), nullptr);
  EXPECT_EQ(find_family("nope"), nullptr);
}

// Within a family a profile name picks one probe; a family's list has a name for every probe or
// for none (peak: the section's presence is the probe).
TEST(ProbeCatalog, ProfileNamesPickOneProbeOfTheirFamily) {
  for (const ProbeFamily& f : kProbeFamilies) {
    const auto listed = profile_names_in(f.name);
    EXPECT_TRUE(listed.empty() || listed.size() == probes_in(f.name).size()) << f.name;
    EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()).size(), listed.size()) << f.name;
  }
}

// Only the streaming families run stream kernels, and a bandwidth probe runs its namesake.
TEST(ProbeCatalog, StreamKernelsBelongToStreamingFamilies) {
  for (const ProbeSpec& p : kProbes) {
    if (p.family == "bandwidth") {
      EXPECT_EQ(p.kernel, p.name);
    }
    if (!p.kernel.empty()) {
      EXPECT_TRUE(p.family == "bandwidth" || p.family == "cache") << p.name;
      const ProbeSpec* bandwidth = find_probe(p.kernel);
      ASSERT_NE(bandwidth, nullptr) << p.name << ": kernel " << p.kernel;
      EXPECT_EQ(bandwidth->family, "bandwidth") << p.name;
    }
  }
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
    out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return out;
}

// Names and families as results files write them: schema.md's probe table (a row may name
// several probes, "cache_read, cache_triad") lists exactly the catalog, in its families.
TEST(ProbeCatalog, MatchesTheSchemaProbeTable) {
  std::ifstream in(std::string(ridgeline::test::paths::kSourceDir) + "/results/schema.md");
  ASSERT_TRUE(in) << "results/schema.md";
  std::map<std::string, std::string> documented;  // probe -> family
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| probe | family |", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.rfind("|", 0) != 0) break;
    const auto row = cells(line);
    ASSERT_GE(row.size(), 2u) << line;
    std::stringstream names(row[0]);
    for (std::string name; std::getline(names, name, ',');) {
      if (name.front() == ' ') name.erase(0, 1);
      documented[name] = row[1];
    }
  }
  EXPECT_EQ(documented.size(), std::size(kProbes));
  for (const ProbeSpec& p : kProbes) {
    const auto it = documented.find(std::string(p.name));
    ASSERT_NE(it, documented.end()) << p.name << " is not in schema.md's probe table";
    EXPECT_EQ(it->second, p.family) << p.name;
  }
}

}  // namespace
}  // namespace ridgeline
