// The probe catalog is consistent: one entry per name, known families, one profile name per probe
// of a family, and the names and families results/schema.md's probe table documents.
#include "results/probe_catalog.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "reports/fit/roof_roles.hpp"
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

// Only the streaming families run stream kernels: every bandwidth probe one of its own, with its
// counts and traffic here; a cache probe a bandwidth probe's, whose counts and traffic it has.
TEST(ProbeCatalog, StreamKernelsBelongToStreamingFamilies) {
  for (const ProbeSpec& p : kProbes) {
    SCOPED_TRACE(std::string(p.name));
    if (p.family == "bandwidth") {
      EXPECT_FALSE(p.kernel.empty());
      EXPECT_GT(p.counts.arrays, 0);
      EXPECT_TRUE(p.traffic.known());
      // Every array it touches is read or written, and none more than once per element.
      EXPECT_LE(p.counts.arrays, p.traffic.counted());
    } else {
      EXPECT_EQ(p.counts.arrays, 0) << "counts belong to a bandwidth probe's kernel";
    }
    if (!p.kernel.empty()) {
      EXPECT_TRUE(p.family == "bandwidth" || p.family == "cache");
    }
    if (p.family == "cache" && !p.kernel.empty()) {
      const ProbeSpec* bandwidth = find_probe(p.kernel);
      ASSERT_NE(bandwidth, nullptr) << "kernel " << p.kernel;
      EXPECT_EQ(bandwidth->family, "bandwidth");
      EXPECT_EQ(probe_traffic(p.name).counted(), bandwidth->traffic.counted());
      EXPECT_EQ(probe_traffic(p.name).allocating, bandwidth->traffic.allocating);
    }
  }
}

// The predicates answer what the name tests they replaced answered, family by family (an
// unknown family is none of them).
TEST(ProbeCatalog, FamilyPredicatesSayWhatTheNameTestsSaid) {
  for (const ProbeFamily& f : kProbeFamilies) {
    const std::string_view n = f.name;
    SCOPED_TRACE(std::string(n));
    EXPECT_EQ(defines_peak(n), n == "peak");
    EXPECT_EQ(defines_memory_roof(n), n == "bandwidth" || n == "fma");
    EXPECT_EQ(dram_stream(n), n == "bandwidth");
    EXPECT_EQ(graded_ladder(n), n == "fma");
    EXPECT_EQ(level_probe(n), n == "cache" || n == "sram");
    EXPECT_EQ(sweeps_working_set(n), n == "cache");
    EXPECT_EQ(on_chip(n), n == "sram");
    EXPECT_EQ(library_ceiling(n), n == "library");
  }
  for (const std::string_view unknown : {"nope", ""}) {
    EXPECT_FALSE(defines_peak(unknown) || defines_memory_roof(unknown) || dram_stream(unknown) ||
                 graded_ladder(unknown) || level_probe(unknown) || sweeps_working_set(unknown) ||
                 on_chip(unknown) || library_ceiling(unknown));
  }
}

std::set<std::string> probes_where(bool (*test)(std::string_view)) {
  std::set<std::string> out;
  for (const ProbeSpec& p : kProbes)
    if (test(p.name)) out.emplace(p.name);
  return out;
}

TEST(ProbeCatalog, ProbePredicatesSayWhatTheNameTestsSaid) {
  using Names = std::set<std::string>;
  EXPECT_EQ(probes_where(runs_at_gemm_rate), Names{"vendor_gemm"});
  // The pyramid's read paths (sram_read, cache_read) are among the read-only probes.
  EXPECT_EQ(probes_where(read_only_probe),
            (Names{"dot", "read", "cache_read", "sram_read", "lib_dot"}));
  // The ladder forms and the cache sweep's ladder (planned as kInPlace) are told apart by it.
  EXPECT_EQ(probes_where(in_place_probe),
            (Names{"update_xy", "fma", "cache_update", "sram_update", "axpby"}));
  EXPECT_FALSE(runs_at_gemm_rate("nope") || read_only_probe("nope") || in_place_probe("nope"));
  // Byte notes where the traffic says nothing.
  for (const ProbeSpec& p : kProbes)
    EXPECT_NE(bytes_note(p.name).empty(), !probe_traffic(p.name).known()) << p.name;
  EXPECT_EQ(host_setup("gemm"), HostSetup::kOneMatrix);
  EXPECT_EQ(host_setup("vendor_gemm"), HostSetup::kCountedBytes);
  for (const char* p : {"fma", "fma_xy", "axpby", "deep_copy", "lib_dot"})
    EXPECT_EQ(host_setup(p), HostSetup::kElements) << p;
  EXPECT_EQ(host_setup("copy"), HostSetup::kNone);
  EXPECT_EQ(host_setup("nope"), HostSetup::kNone);
}

// The traffic table the reporter kept before the catalog held it (reports/fit/roof_roles.cpp's
// kTraffic): the same reads, writes, allocating writes and words, so no roof moved.
TEST(ProbeCatalog, TrafficIsTheReportersOldTable) {
  struct Row {
    const char* probe;
    int reads, writes, allocating;
    const char* moved;
  };
  const Row rows[] = {
      {"copy", 1, 1, 1, "read a, write b"},
      {"scale", 1, 1, 1, "read a, write b"},
      {"add", 2, 1, 1, "read a and b, write c"},
      {"triad", 2, 1, 1, "read a and b, write c"},
      {"update_xy", 2, 1, 0, "x read, y read and written back in place"},
      {"fill", 0, 1, 1, "write only"},
      {"dot", 2, 0, 0, "read only"},
      {"read", 1, 0, 0, "read only"},
      {"fma", 1, 1, 0, "read and written back in place"},
      {"fma_xy", 1, 1, 1, "read x, write y"},
      {"deep_copy", 1, 1, 1, "read x, write y"},
      {"axpby", 2, 1, 0, "x read, y read and written back"},
      {"lib_dot", 2, 0, 0, "read only"},
      {"cache_read", 1, 0, 0, "read only"},
      {"cache_triad", 2, 1, 1, "read a and b, write c"},
      {"cache_update", 1, 1, 0, "read and written back in place"},
      {"sram_read", 1, 0, 0, "on-chip scratch: the fill's writes and the sweeps' reads"},
      {"sram_update", 1, 1, 0, "on-chip scratch: read and written back in place"},
  };
  for (const Row& r : rows) {
    const Traffic t = probe_traffic(r.probe);
    EXPECT_EQ(t.reads, r.reads) << r.probe;
    EXPECT_EQ(t.writes, r.writes) << r.probe;
    EXPECT_EQ(t.allocating, r.allocating) << r.probe;
    EXPECT_EQ(t.moved, r.moved) << r.probe;
  }
  for (const char* none : {"peak", "gemm", "vendor_gemm", "nope"})
    EXPECT_FALSE(probe_traffic(none).known()) << none;
}

// copy_nt reads a and writes b without reading b's lines first: a 1:1 kernel of B whose counted
// bytes are moved bytes on a write-allocate CPU too, where copy's are 2/3 of them.
TEST(ProbeCatalog, CopyNtIsAOneToOneKernelOfBThatHidesNoBytes) {
  Point nt;
  nt.probe = "copy_nt";
  nt.family = "bandwidth";
  Point copy = nt;
  copy.probe = "copy";
  EXPECT_EQ(traffic_mix(nt), TrafficMix::kOneToOne);
  EXPECT_EQ(roof_role(nt), RoofRole::kBandwidth);
  EXPECT_EQ(moved_per_counted(nt, false), 1.0);
  EXPECT_EQ(moved_per_counted(copy, false), 1.5);
  EXPECT_EQ(bytes_convention(nt, false),
            "moved (read a, write b with streaming stores: no line read first)");
  EXPECT_FALSE(in_place_probe("copy_nt"));
  // Not in the Methods' list of kernels per mix (the golden report's Methods is unchanged).
  EXPECT_EQ(find_probe("copy_nt")->methods.rank, 0);
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
