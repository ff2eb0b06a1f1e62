#pragma once
// Which machine a nightly baseline belongs to, from the machine context: the host and the
// devices its spaces ran on (or the CPU). Decided here once; scripts/nightly and scripts/gate-aa
// read it from `ridgeline info --json` ("baseline") instead of deriving it themselves.
#include <nlohmann/json.hpp>

#include <string>

namespace ridgeline {

struct BaselineKey {
  std::string key;      // "<host>-<GPU names, or the CPU model>", slugged: a file name
  std::string host;     // the hostname as reported ("unknown-host" when there is none)
  std::string machine;  // readable: "NVIDIA H200 + ..." or "CPU <model>"
};

// Reads context["host"]["hostname"], each context["spaces"][i]["device"]["name"] and
// context["cpu"]["model"]; absent or null fields fall back as documented above.
BaselineKey baseline_key(const nlohmann::json& context);

// Lower-case ASCII letters and digits; every other run of bytes becomes one '-', none at the ends.
std::string slug(const std::string& text);

}  // namespace ridgeline
