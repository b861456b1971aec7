#include "base/runfiles.h"

#include <string>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

using ::testing::Not;

// This test's own source is among its runfiles (BUILD: data).
TEST(FindBesideSelf, FindsARunfileAndSaysWhereItLooked) {
  auto found = FindBesideSelf("base/runfiles_test.cc");
  ASSERT_THAT(found, IsOk());
  EXPECT_NE(found->find("/rankmap/base/runfiles_test.cc"), std::string::npos);
  EXPECT_FALSE(SelfExe().empty());
  const std::string installed[] = {"../nowhere"};
  auto missing = FindBesideSelf("base/no_such_file", installed);
  ASSERT_THAT(missing, Not(IsOk()));
  EXPECT_NE(
      std::string(missing.status().message()).find("../nowhere/no_such_file"),
      std::string::npos);
}

}  // namespace
}  // namespace rankmap::base
