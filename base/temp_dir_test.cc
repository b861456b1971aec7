#include "base/temp_dir.h"

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

TEST(TempDir, MadeUnderTheTestDirectoryAndRemovedWithItsFiles) {
  std::string path;
  {
    auto dir = TempDir::Create("test");
    ASSERT_TRUE(dir.ok()) << dir.status();
    path = dir->path();
    EXPECT_EQ(path.rfind(TempBase() + "/rankmap-test-", 0), 0u) << path;
    ASSERT_TRUE(Exists(path));
    mkdir((path + "/sub").c_str(), 0755);
    std::ofstream(path + "/sub/file") << "x";
    std::ofstream(path + "/top") << "y";
    TempDir moved = std::move(*dir);
    EXPECT_EQ(moved.path(), path);
    EXPECT_TRUE(dir->path().empty());
  }
  EXPECT_FALSE(Exists(path));
}

TEST(TempDir, InsideAGivenDirectoryHidden) {
  const std::string parent = TempBase() + "/parent";
  mkdir(parent.c_str(), 0755);
  std::string path;
  {
    auto dir = TempDir::CreateIn(parent, "run");
    ASSERT_TRUE(dir.ok()) << dir.status();
    path = dir->path();
    EXPECT_EQ(path.rfind(parent + "/.rankmap-run-", 0), 0u) << path;
    EXPECT_TRUE(Exists(path));
  }
  EXPECT_FALSE(Exists(path));
}

TEST(TempDir, ErrorNamesThePath) {
  setenv("TEST_TMPDIR", "/nonexistent/dir", 1);
  auto dir = TempDir::Create("x");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(std::string(dir.status().message()).find("/nonexistent/dir"),
            std::string::npos);
}

}  // namespace
}  // namespace rankmap::base
