#include "reports/machines/device_slug.hpp"

#include <cctype>

#include "core/text.hpp"
#include "reports/machines/host_match.hpp"

namespace ridgeline {

std::string name_slug(const std::string& name) {
  std::string text = lower_ascii(name);
  // Marks, not words of the name: "Intel(R) Xeon(R)" is the Xeon, not an "r" model.
  for (const char* mark : {"(r)", "(tm)"})
    for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark))
      text.replace(at, std::string(mark).size(), " ");
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string device_slug(const Results& r, const std::vector<MachineProfile>& profiles) {
  if (const SpaceInfo* gpu = r.measured_device()) {
    if (const auto sheet = match_machine_profile(gpu->device->name, profiles)) return sheet->id;
    if (std::string slug = name_slug(gpu->device->name); !slug.empty()) return slug;
  }
  if (const HostMatch m = match_host_profile(host_facts(r), profiles); m.profile)
    return m.profile->id;
  for (const std::string& name : {r.cpu_model, r.hostname})
    if (std::string slug = name_slug(name); !slug.empty()) return slug;
  return "unknown-host";
}

}  // namespace ridgeline
