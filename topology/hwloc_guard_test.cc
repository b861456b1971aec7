#include "topology/hwloc_guard.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "base/file.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

// A two-PU machine as lstopo writes it (attributes trimmed to the sets).
const char kSmall[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x1" complete_nodeset="0x1">
    <!-- a comment with <object> inside -->
    <object type="Core" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003">
      <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001"/>
      <object type="PU" os_index='1' cpuset="0x00000002" complete_cpuset="0x00000002"/>
    </object>
  </object>
</topology>
)";

std::string Replace(std::string s, const std::string& from,
                    const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(HwlocGuardTest, CountsObjectsSiblingsAndWidth) {
  absl::StatusOr<HwlocCost> c = CheckHwlocXml(kSmall, "s.xml");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->objects, 4);
  // Machine: 1 sibling (itself); Core: 1; the two PUs: 2 each.
  EXPECT_EQ(c->sibling_sum, 1 + 1 + 2 * 2);
  EXPECT_EQ(c->bitmap_bits, 32);
  EXPECT_EQ(HwlocWork(*c), 6 * 32 + 16 * 4 * 32);
  EXPECT_EQ(HwlocBytes(*c), 4 * (512 + 8));
}

// A few hundred bytes that crashed hwloc's libxml reader: a declared entity
// referenced in element content or in an attribute value.
TEST(HwlocGuardTest, EntityReferencesAndDeclarationsAreRefused) {
  const std::string declared =
      Replace(kSmall, R"(<!DOCTYPE topology SYSTEM "hwloc2.dtd">)",
              R"(<!DOCTYPE topology [ <!ENTITY a "x"> ]>)");
  absl::StatusOr<HwlocCost> c = CheckHwlocXml(declared, "d.xml");
  EXPECT_EQ(c.status().message(),
            "d.xml:2: a DOCTYPE with declarations ('[...]'): hwloc exports "
            "declare no entities (hwloc's reader crashes on some)");
  c = CheckHwlocXml(Replace(kSmall, "    <!-- a comment", "&a;<!-- a comment"),
                    "c.xml");
  EXPECT_EQ(c.status().message(),
            "c.xml:5: entity reference '&a;': hwloc XML holds only &lt; &gt; "
            "&amp; &quot; &apos; and character references (hwloc's reader "
            "crashes on others)");
  c = CheckHwlocXml(Replace(kSmall, R"(os_index='1')", R"(os_index='&one;')"),
                    "a.xml");
  EXPECT_THAT(c.status().message(),
              HasSubstr("a.xml:8: entity reference '&one;'"));
  // Unterminated, long and binary names are shown cut and escaped.
  c = CheckHwlocXml(Replace(kSmall, "    <!-- a comment",
                            "&\n" + std::string(100, 'z') + "<!-- a comment"),
                    "b.xml");
  EXPECT_THAT(c.status().message(),
              HasSubstr("b.xml:5: entity reference '&\\nzzzzzzzzzzz...'"));
  // The five predefined entities and character references pass.
  c = CheckHwlocXml(
      Replace(kSmall, "    <!-- a comment",
              "&lt;&gt;&amp;&quot;&apos;&#65;&#x41;<!-- a comment"),
      "ok.xml");
  EXPECT_THAT(c, IsOk());
}

TEST(HwlocGuardTest, HostNameInfoMustBeAHostName) {
  const std::string info = R"(<info name="HostName" value="node01"/>
    <!-- a comment)";
  EXPECT_THAT(
      CheckHwlocXml(Replace(kSmall, "    <!-- a comment", info), "h.xml"),
      IsOk());
  for (const auto& [value, why] :
       std::vector<std::pair<std::string, std::string>>{
           {"../etc/x", "empty label at character 1"},
           {"-oProxyCommand", "a label starts or ends with '-'"},
           {"a&#10;b", "character 2 is not a letter"}}) {
    absl::StatusOr<HwlocCost> c =
        CheckHwlocXml(Replace(kSmall, "    <!-- a comment",
                              R"(<info name="HostName" value=")" + value +
                                  R"("/><!-- a comment)"),
                      "h.xml");
    EXPECT_THAT(c.status().message(), HasSubstr("h.xml:5: HostName info: "))
        << value;
    EXPECT_THAT(c.status().message(), HasSubstr(why)) << value;
  }
}

TEST(HwlocGuardTest, EveryExportOfHwlocsTestSuitePasses) {
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("tests/data/hwloc-xml")) {
    if (entry.path().extension() != ".xml") continue;
    ++files;
    absl::StatusOr<std::string> text = base::ReadFile(entry.path());
    ASSERT_THAT(text, IsOk());
    absl::StatusOr<HwlocCost> c = CheckHwlocXml(*text, entry.path().string());
    ASSERT_THAT(c, IsOk());
    EXPECT_GT(c->objects, 8) << entry.path();
    EXPECT_THAT(CheckHwlocCost("x", *c, int64_t{1} << 30), IsOk());
  }
  EXPECT_GE(files, 20);
}

TEST(HwlocGuardTest, RefusesWhatCrashesOrHangsHwloc) {
  const std::string no_complete =
      Replace(kSmall, R"(cpuset="0x00000002" complete_cpuset="0x00000002")",
              R"(cpuset="0x00000002")");
  EXPECT_EQ(CheckHwlocXml(no_complete, "a.xml").status().message(),
            "a.xml:8: object PU has a cpuset but no complete_cpuset (hwloc "
            "crashes on such files; lstopo --of xml writes both)");
  const std::string no_complete_nodeset =
      Replace(kSmall, R"(complete_nodeset="0x1")", "");
  EXPECT_THAT(CheckHwlocXml(no_complete_nodeset, "b.xml").status().message(),
              HasSubstr("b.xml:4: object Machine has a nodeset but no "
                        "complete_nodeset"));
  for (const std::string& os :
       {std::string(R"(os_index="-1" )"), std::string(R"(os_index="x" )"),
        std::string("")}) {
    const std::string bad =
        Replace(kSmall, R"(os_index="0" cpuset="0x00000001")",
                os + R"(cpuset="0x00000001")");
    EXPECT_THAT(CheckHwlocXml(bad, "c.xml").status().message(),
                HasSubstr("c.xml:7: object PU needs an os_index in [0, 2^31)"));
  }
  EXPECT_THAT(CheckHwlocXml(Replace(kSmall, "    </object>\n", ""), "d.xml")
                  .status()
                  .message(),
              HasSubstr("d.xml:11: an <object> is not closed"));
  // Found by the mutation test: a bitmap that is not one, with the machine
  // closed early so a second object sits at the top (hwloc 2.9: SIGSEGV).
  EXPECT_EQ(
      CheckHwlocXml(Replace(kSmall, R"(cpuset="0x00000003" complete)",
                            R"(cpuset="Core" complete)"),
                    "f.xml")
          .status()
          .message(),
      "f.xml:4: object Machine: cpuset 'Core' is not an hwloc bitmap (0x words "
      "separated by commas)");
  EXPECT_THAT(
      CheckHwlocXml(
          kSmall + std::string("<object type=\"Machine\" "
                               "cpuset=\"0x1\" complete_cpuset=\"0x1\"/>"),
          "g.xml")
          .status()
          .message(),
      HasSubstr("g.xml:12: a second top-level <object>"));
  EXPECT_THAT(CheckHwlocXml(Replace(kSmall, R"(nodeset="0x1")",
                                    R"(nodeset="0xf...f,0x1" xxxxxx="y")"),
                            "i.xml"),
              IsOk());
  EXPECT_THAT(
      CheckHwlocXml("<topology></topology>", "h.xml").status().message(),
      HasSubstr("h.xml:1: no <object> in the topology"));
  EXPECT_THAT(CheckHwlocXml("<topology><object type=\"PU\" os_index", "e.xml")
                  .status()
                  .message(),
              HasSubstr("e.xml:1: not well-formed XML"));
}

TEST(HwlocGuardTest, WideMachinesAreRefusedBeforeHwlocRuns) {
  // 20,000 PUs under one Machine: hwloc would compare each with 20,000
  // siblings over 20,000-bit cpusets.
  std::string xml =
      R"(<topology version="2.0"><object type="Machine" cpuset="0x1" complete_cpuset="0x1">)";
  for (int i = 0; i < 20000; ++i) {
    xml += "<object type=\"PU\" os_index=\"" + std::to_string(i) +
           "\" cpuset=\"0x1\" complete_cpuset=\"0x1\"/>";
  }
  xml += "</object></topology>";
  absl::StatusOr<HwlocCost> c = CheckHwlocXml(xml, "w.xml");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->bitmap_bits, 20000);
  const absl::Status s = CheckHwlocCost("w.xml", *c, int64_t{1} << 40);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(s.message(),
              HasSubstr("w.xml: hwloc's load time grows with objects x PUs; "
                        "20001 objects over 20000 PU indexes would take about "
                        "8e+12 steps"));
  // The same PUs fit the time limit in 400 groups of 50; memory is checked
  // too (20401 objects x (512 + 5000) bytes).
  const HwlocCost groups = {20401, 20000 * 50 + 400 * 400, 20000};
  EXPECT_EQ(HwlocWork(groups), 1160000LL * 20000 + 16LL * 20401 * 20000);
  EXPECT_THAT(CheckHwlocCost("g", groups, int64_t{1} << 30), IsOk());
  EXPECT_EQ(CheckHwlocCost("g", groups, int64_t{100} << 20).message(),
            "g: hwloc's 20401 objects needs about 107.2 MiB, above the memory "
            "budget of 100.0 MiB");
}

}  // namespace
}  // namespace rankmap::topology
