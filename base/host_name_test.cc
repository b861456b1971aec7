#include "base/host_name.h"

#include <string>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

using ::testing::Not;

TEST(CheckHostName, AcceptsHostnamesAndClusterNames) {
  for (const char* ok : {"vm", "node-12.lan", "tux0", "c-0.me", "node_7",
                         "a", "1host", "Tremblay", "x.y.z"}) {
    EXPECT_THAT(CheckHostName(ok), IsOk()) << ok;
  }
  EXPECT_THAT(CheckHostName(std::string(63, 'a')), IsOk());
  std::string longest;
  for (int i = 0; i < 4; ++i) longest += std::string(i ? 62 : 61, 'b') + ".";
  longest.pop_back();  // 61 + 3 * 63 = 250 characters
  EXPECT_THAT(CheckHostName(longest), IsOk());
}

TEST(CheckHostName, RefusesWhatCouldInjectOrEscape) {
  for (const char* bad :
       {"", "-oProxyCommand=x", "host-", "a..b", ".a", "a.", "../x", "a/b",
        "a b", "a\nb", "$(id)", "a;b", "h\xc3\xa9", "a\tb", "x`y`"}) {
    EXPECT_THAT(CheckHostName(bad), Not(IsOk())) << bad;
  }
  EXPECT_THAT(CheckHostName(std::string(64, 'a')), Not(IsOk()));
  EXPECT_THAT(CheckHostName(std::string(254, 'a')), Not(IsOk()));
}

TEST(CheckHostName, MessagesAreOneLineAndSayWhy) {
  const absl::Status s = CheckHostName("a\nb");
  EXPECT_EQ(s.message(),
            "host name 'a\\nb': character 2 is not a letter, digit, '-', '_' "
            "or '.' (the hostname grammar)");
  EXPECT_EQ(CheckHostName("-x").message(),
            "host name '-x': a label starts or ends with '-'");
  EXPECT_EQ(CheckHostName("a..b").message(),
            "host name 'a..b': empty label at character 3 (two dots, or a dot "
            "at an end)");
  const absl::Status long_name = CheckHostName(std::string(300, 'z'));
  EXPECT_NE(long_name.message().find("...' is longer than 253"),
            std::string::npos);
}

}  // namespace
}  // namespace rankmap::base
