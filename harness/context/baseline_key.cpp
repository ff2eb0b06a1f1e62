#include "harness/context/baseline_key.hpp"

#include <algorithm>
#include <vector>

namespace ridgeline {
namespace {

// The string at context[a][b], or "" where it is absent, null or not a string.
std::string text_at(const nlohmann::json& j, const char* a, const char* b) {
  if (!j.is_object() || !j.contains(a) || !j[a].is_object() || !j[a].contains(b)) return "";
  const auto& v = j[a][b];
  return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace

std::string slug(const std::string& text) {
  std::string s;
  for (const char c : text) {
    const char lower = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    const bool kept = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (kept)
      s += lower;
    else if (!s.empty() && s.back() != '-')
      s += '-';
  }
  if (!s.empty() && s.back() == '-') s.pop_back();
  return s;
}

BaselineKey baseline_key(const nlohmann::json& context) {
  BaselineKey k;
  k.host = text_at(context, "host", "hostname");
  if (k.host.empty()) k.host = "unknown-host";
  std::vector<std::string> devices;
  if (context.is_object() && context.contains("spaces") && context["spaces"].is_array())
    for (const auto& space : context["spaces"]) {
      const std::string name = text_at(space, "device", "name");
      if (!name.empty() && std::find(devices.begin(), devices.end(), name) == devices.end())
        devices.push_back(name);
    }
  std::string what;
  for (const auto& d : devices) what += (what.empty() ? "" : " + ") + d;
  if (devices.empty()) {
    what = text_at(context, "cpu", "model");
    if (what.empty()) what = "cpu";
  }
  k.key = slug(k.host) + "-" + slug(what);
  k.machine = devices.empty() ? "CPU " + what : what;
  return k;
}

}  // namespace ridgeline
