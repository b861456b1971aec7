#include "cli/pictures/report_html.h"

#include <string>

#include "base/status_matchers.h"
#include "cli/pictures/mini_xml.h"
#include "cli/pictures/volume_svg.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli::pictures {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

TEST(LevelVolumeSvg, BarsProportionalToVolume) {
  auto doc = ParseXml(LevelVolumeSvg(
      {{"depth 0 level0", 400}, {"depth 1 level1", 200}, {"same leaf", 0}}));
  ASSERT_THAT(doc, IsOk());
  const auto bars = doc->FindAll("rect", "bar");
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(bars[0]->Number("width"), 460);
  EXPECT_EQ(bars[1]->Number("width"), 230);
  EXPECT_EQ(bars[2]->Number("width"), 0);
  EXPECT_EQ(bars[1]->Attr("data-label"), "depth 1 level1");
  EXPECT_THAT(doc->AllText(), HasSubstr("200 (33.3%)"));
}

TEST(ReportHtml, OnePageWithFactsLevelsAndPictures) {
  ReportPage page;
  page.title = "rankmap eval: m.txt <1>";
  page.facts = {{"J", "220"}, {"hop-bytes", "80"}};
  page.levels = {{"depth 0 level0", "20"}};
  page.pictures = {{"Tree",
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                    "width=\"10\" height=\"10\"></svg>"},
                   {"Volume", LevelVolumeSvg({{"a", 1}})}};
  const std::string html = ReportHtml(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // Nothing is fetched: no scripts, no links, no external references.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  auto doc = ParseXml(html);
  ASSERT_THAT(doc, IsOk());
  EXPECT_EQ(doc->FindAll("title")[0]->text, "rankmap eval: m.txt <1>");
  const auto facts = doc->FindAll("table", "facts");
  ASSERT_EQ(facts.size(), 1u);
  const auto rows = facts[0]->FindAll("tr");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]->FindAll("th")[0]->text, "J");
  EXPECT_EQ(rows[0]->FindAll("td")[0]->text, "220");
  EXPECT_EQ(doc->FindAll("svg").size(), 2u);
  EXPECT_EQ(doc->FindAll("h2").size(), 3u);  // levels, Tree, Volume
}

}  // namespace
}  // namespace rankmap::cli::pictures
