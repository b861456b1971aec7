#include "cli/mapping_io.h"

#include <cmath>

#include "base/status_matchers.h"
#include "base/version.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::cli {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(MappingIo, ParsesPlainWithCommentsAndBlankLines) {
  auto m =
      ParseMapping("# leaf of process i\n3\n\n 1 \n0 # trailing\r\n2", "m.txt");
  ASSERT_THAT(m, IsOk());
  EXPECT_THAT(*m, ElementsAre(3, 1, 0, 2));
}

TEST(MappingIo, ErrorsNameFileAndLine) {
  auto m = ParseMapping("0\n1\nx\n", "m.txt");
  EXPECT_THAT(std::string(m.status().message()), HasSubstr("m.txt:3"));
  EXPECT_THAT(ParseMapping("-1\n", "m"), Not(IsOk()));
  EXPECT_THAT(ParseMapping("1 2\n", "m"), Not(IsOk()));
  EXPECT_THAT(ParseMapping("99999999999\n", "m"), Not(IsOk()));
  EXPECT_EQ(ReadMappingFile("/nonexistent/file").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(MappingIo, FormatsRoundTrip) {
  topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  core::Mapping m = {2, 0, 3};
  const std::string plain =
      FormatMapping(t, m, MappingFormat::kPlain, "tm", 5.0).value();
  EXPECT_EQ(plain, "2\n0\n3\n");
  EXPECT_THAT(*ParseMapping(plain, "p"), ElementsAre(2, 0, 3));
  EXPECT_EQ(FormatMapping(t, m, MappingFormat::kJson, "tm", 5.0).value(),
            "{\"algorithm\": \"tm\", \"j\": 5, \"processes\": 3, \"mapping\": "
            "[2, 0, 3], \"version\": \"" +
                base::VersionString() + "\"}\n");
  EXPECT_THAT(ParseMappingFormat("xml"), Not(IsOk()));
  // JSON has no inf: a J that is not finite is null.
  EXPECT_EQ(FormatMapping(t, m, MappingFormat::kJson, "tm", INFINITY).value(),
            "{\"algorithm\": \"tm\", \"j\": null, \"processes\": 3, "
            "\"mapping\": [2, 0, 3], \"version\": \"" +
                base::VersionString() + "\"}\n");
  // Launch formats are launch/'s (cli/launch_output.h).
  EXPECT_THAT(ParseMappingFormat("rankfile"), Not(IsOk()));
  // SMPI hostfiles need host names: a tleaf with link levels has them.
  EXPECT_EQ(*ParseMappingFormat("smpi"), MappingFormat::kSmpi);
  EXPECT_THAT(FormatMapping(t, m, MappingFormat::kSmpi, "tm", 5.0),
              Not(IsOk()));
  auto hosts = topology::ParseTleaf("tleaf 2 2 1Gbps:1us 2 10GBps:0s");
  ASSERT_THAT(hosts, IsOk());
  EXPECT_EQ(FormatMapping(*hosts, m, MappingFormat::kSmpi, "tm", 5.0).value(),
            "n1\nn0\nn1\n");
}

}  // namespace
}  // namespace rankmap::cli
