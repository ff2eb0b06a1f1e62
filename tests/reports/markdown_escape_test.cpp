// Point names, labels and reasons come from input files and end up in CI job summaries: none may
// inject HTML, a heading, a line or a table column.
#include "reports/render/markdown_text.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "core/utf8.hpp"

#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;

TEST(MarkdownText, EscapesWhatMarkdownAndHtmlWouldInterpret) {
  EXPECT_EQ(md_text("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  // Newlines become spaces, so a '#' can never start a heading.
  EXPECT_EQ(md_text("a|b\n## head\r`x` *y* [l](u) ~z~ \\"),
            "a\\|b ## head \\`x\\` \\*y\\* \\[l\\](u) \\~z\\~ \\\\");
  EXPECT_EQ(md_text("cpu_run_a.json _lead trail_"), "cpu_run_a.json \\_lead trail\\_");
  EXPECT_EQ(md_text("AT&T"), "AT&amp;T");
}

TEST(MarkdownText, CodeSpansSurviveBackticksPipesAndNewlines) {
  EXPECT_EQ(md_code("triad/OpenMP/fp64/n:8"), "`triad/OpenMP/fp64/n:8`");
  EXPECT_EQ(md_code("a`b"), "``a`b``");
  EXPECT_EQ(md_code("``x"), "``` ``x ```");
  EXPECT_EQ(md_code("a|b\nc"), "`a\\|b c`");
  EXPECT_EQ(md_code("<script>"), "&lt;script&gt;");  // no raw tag, not even in code
}

TEST(MarkdownText, HtmlTextEscapesTheFiveSpecials) {
  EXPECT_EQ(html_text("<b a=\"1\" c='2'>&</b>"),
            "&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;&lt;/b&gt;");
}

// Bytes that are not UTF-8 (a kernel name from a profiler's CSV) become U+FFFD, one per byte;
// well-formed text, multi-byte characters included, is left as it is.
TEST(MarkdownText, InvalidUtf8IsReplacedSoTheReportStaysUtf8) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_utf8("µs × ∞ 𝄞"), "µs × ∞ 𝄞");
  EXPECT_EQ(valid_utf8("a\xff"
                       "b"),
            "a" + fffd + "b");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);                        // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);             // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // above U+10FFFF
  EXPECT_EQ(valid_utf8("\xE2\x88"), fffd + fffd);                        // cut short
  EXPECT_EQ(md_text("k\xfe"), "k" + fffd);
  EXPECT_EQ(md_code("k\xfe"), "`k" + fffd + "`");
  EXPECT_EQ(html_text("k\xfe"), "k" + fffd);
}

// Every table row has as many cell separators as the table's header.
void expect_tables_keep_their_columns(const std::string& md) {
  std::istringstream in(md);
  std::string line;
  int columns = -1;
  auto separators = [](const std::string& l) {
    int n = 0;
    for (std::size_t i = 0; i < l.size(); ++i) n += l[i] == '|' && (i == 0 || l[i - 1] != '\\');
    return n;
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') {
      columns = -1;
      continue;
    }
    if (columns < 0) columns = separators(line);
    EXPECT_EQ(separators(line), columns) << line;
  }
}

const std::string kHostile = "evil<script>alert(1)</script>\n## injected heading\n| x | `y`";

nlohmann::json hostile_run() {
  nlohmann::json doc = fixture("cpu_run_a.json");
  doc["points"][1]["name"] = kHostile;
  doc["points"][2]["verified"] = false;
  doc["points"][2]["verify_error"] = "<img src=x onerror=alert(1)>\n# bad";
  doc["context"]["host"]["hostname"] = "devbox";
  return doc;
}

void expect_no_injection(const std::string& md) {
  EXPECT_EQ(md.find("<script"), std::string::npos);
  EXPECT_EQ(md.find("<img"), std::string::npos);
  EXPECT_FALSE(std::regex_search(md, std::regex("(^|\n)#+ (injected|bad)"))) << md;
  expect_tables_keep_their_columns(md);
}

TEST(MarkdownText, CompareReportCannotBeInjected) {
  TempDir dir;
  const nlohmann::json doc = hostile_run();
  write_json(dir.path + "/a.json", doc);
  nlohmann::json cur = doc;
  cur["points"][1]["verified"] = false;  // shown in the first table
  write_json(dir.path + "/b.json", cur);
  const auto r = run_command(kBin + " compare " + dir.path + "/a.json " + dir.path + "/b.json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("| evil&lt;script&gt;alert(1)&lt;/script&gt; ## injected heading \\| x \\| "
                       "\\`y\\` |"),
            std::string::npos)
      << r.out;
  expect_no_injection(r.out);
}

TEST(MarkdownText, ReportCannotBeInjected) {
  TempDir dir;
  write_json(dir.path + "/a.json", hostile_run());
  const auto r = run_command(kBin + " report " + dir.path + "/a.json --out " + dir.path + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/out/report.md");
  EXPECT_NE(md.find("&lt;img src=x onerror=alert(1)&gt; # bad"), std::string::npos);
  expect_no_injection(md);
}

}  // namespace
}  // namespace ridgeline
