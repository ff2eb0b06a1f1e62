#include "reports/machines/host_match.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/text.hpp"

namespace ridgeline {
namespace {

// The vendor a model name starts with ("Intel(R) Xeon(R) …", "AMD EPYC 9R45"); empty for names
// that state none ("Common KVM processor", "QEMU Virtual CPU").
std::string vendor_of_model(const std::string& model) {
  static const char* kVendors[] = {"AMD", "Intel", "Ampere", "ARM", "Apple", "IBM", "Fujitsu"};
  std::string first = model.substr(0, model.find_first_of(" ("));
  for (const char* v : kVendors)
    if (lower_ascii(first) == lower_ascii(v)) return v;
  return {};
}

// A register's width in bits for the ISAs of fixed width; SVE's comes from the point's
// vector_bytes, and length-agnostic SVE has none (0).
int fixed_vector_bits(const std::string& isa) {
  if (isa == "avx512") return 512;
  if (isa == "avx2") return 256;
  if (isa == "sse2" || isa == "neon") return 128;
  if (isa == "scalar") return 64;
  return 0;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// What `sheet` needs that `host` does not have, one phrase per fact; "(not in the file)" where
// the file does not record the fact. Empty: the host is the machine the sheet describes.
std::vector<std::string> unmet_needs(const HostFacts& host, const MachineProfile& sheet) {
  const CpuSheetFacts& need = *sheet.cpu;
  std::vector<std::string> out;
  const auto check = [&out](bool known, bool agrees, const std::string& what) {
    if (!known)
      out.push_back(what + " (not in the file)");
    else if (!agrees)
      out.push_back(what);
  };
  check(!host.vendor.empty(), lower_ascii(host.vendor) == lower_ascii(sheet.vendor),
        "vendor " + sheet.vendor);
  // context.cpu.avx512 = false settles an AVX-512 sheet even where no point recorded an ISA.
  check(!host.isa.empty() || (need.isa == "avx512" && host.no_avx512), host.isa == need.isa,
        need.isa);
  if (need.vector_bits)
    check(host.vector_bits > 0, host.vector_bits == need.vector_bits,
          fmt::format("{}-bit vectors", need.vector_bits));
  if (need.cores)
    check(host.cores > 0, host.cores == need.cores, fmt::format("{} cores", need.cores));
  if (need.threads)
    check(host.threads > 0, host.threads == need.threads, fmt::format("{} threads", need.threads));
  return out;
}

}  // namespace

HostFacts host_facts(const Results& results) {
  HostFacts h;
  h.model = results.cpu_model;
  h.vendor = vendor_of_model(results.cpu_model);
  h.cores = results.cpu_cores;
  h.threads = results.cpu_threads;
  // The probes' ISA is what the build used; the widest one that ran is what the host has.
  for (const auto& p : results.points) {
    const auto it = p.params.find("isa");
    if (it == p.params.end() || !it->is_string() || *it == "gpu") continue;
    const std::string isa = it->get<std::string>();
    int bits = fixed_vector_bits(isa);
    if (isa == "sve") {
      const auto bytes = p.params.find("vector_bytes");
      if (bytes != p.params.end() && bytes->is_number_integer() && bytes->get<int>() > 0)
        bits = 8 * bytes->get<int>();
    }
    if (h.isa.empty() || bits > h.vector_bits) h.isa = isa, h.vector_bits = bits;
  }
  if (results.cpu_avx512.value_or(false) || h.isa == "avx512") {
    h.isa = "avx512";
    h.vector_bits = 512;
  } else if (results.cpu_avx512) {
    h.no_avx512 = true;
  }
  return h;
}

std::string describe_host(const HostFacts& host) {
  std::vector<std::string> parts = {
      host.vendor.empty() ? "vendor unknown" : host.vendor,
      host.isa.empty() ? (host.no_avx512 ? "no AVX-512" : "ISA unknown") : host.isa};
  if (host.vector_bits) parts.push_back(fmt::format("{}-bit", host.vector_bits));
  if (host.cores) parts.push_back(fmt::format("{} cores", host.cores));
  if (host.threads) parts.push_back(fmt::format("{} threads", host.threads));
  if (!host.cores && !host.threads) parts.push_back("core count unknown");
  return join(parts);
}

HostMatch match_host_profile(const HostFacts& host, const std::vector<MachineProfile>& profiles) {
  HostMatch m;
  for (const auto& sheet : profiles) {
    if (!sheet.cpu || host.model.empty() || !sheet.names_model(host.model)) continue;
    auto unmet = unmet_needs(host, sheet);
    if (unmet.empty()) {
      m.profile = sheet;
      m.misses.clear();
      return m;
    }
    m.misses.push_back({sheet.id, std::move(unmet)});
  }
  return m;
}

}  // namespace ridgeline
