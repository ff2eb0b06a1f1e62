#pragma once
// Text from input files reaches markdown and SVG, which must be valid UTF-8 (an invalid byte makes
// GitHub show the whole report.md as binary, and an XML parser refuse the chart). Bytes that do not
// form a well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF)
// are each replaced by U+FFFD, as the Unicode standard's "maximal subpart" practice does.
#include <string>

namespace ridgeline {

// The length of the well-formed UTF-8 sequence at `i`, 0 when the byte there does not start one.
inline std::size_t utf8_sequence_length(const std::string& s, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  return n;
}

// `s` with every byte that is not part of a well-formed sequence replaced by U+FFFD.
inline std::string valid_utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace ridgeline
