#include "reports/render/markdown_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/utf8.hpp"

namespace ridgeline {
namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

bool is_alnum(const std::string& s, std::size_t i) {
  return i < s.size() && std::isalnum(static_cast<unsigned char>(s[i]));
}

}  // namespace

std::string md_text(const std::string& raw) {
  const std::string s = valid_utf8(raw);
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // An underscore between two letters or digits never starts emphasis (file_name.json).
    const bool intraword = c == '_' && i > 0 && is_alnum(s, i - 1) && is_alnum(s, i + 1);
    if (is_control(c))
      out += ' ';
    else if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (!intraword && std::strchr("\\`*_[]|~", c))
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string md_code(const std::string& raw) {
  const std::string s = valid_utf8(raw);
  // Code spans show HTML as text, but a raw tag is one careless renderer away from running:
  // text with HTML specials is escaped text instead (no harness name has them).
  if (s.find_first_of("<>&") != std::string::npos) return md_text(s);
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (is_control(c))
      body += ' ';
    else if (c == '|')
      body += "\\|";
    else
      body += c;
  }
  const std::string fence(longest + 1, '`');
  // A span that starts or ends with a backtick needs a space to keep it from joining the fence.
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string html_text(const std::string& s) {
  std::string out;
  for (char c : valid_utf8(s)) {
    if (is_control(c))
      out += ' ';
    else if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else if (c == '\'')
      out += "&#39;";
    else
      out += c;
  }
  return out;
}

}  // namespace ridgeline
