#include "base/file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(FileTest, WriteThenReadBack) {
  const std::string path = TempPath("roundtrip.txt");
  ASSERT_TRUE(WriteFile(path, "a b\n1 2\n").ok());
  absl::StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "a b\n1 2\n");
  EXPECT_TRUE(IsRegularFile(path));
  EXPECT_FALSE(IsDirectory(path));
}

TEST(FileTest, MissingFileNamesPathWhatAndReason) {
  absl::StatusOr<std::string> text =
      ReadFile(TempPath("no-such-file"), "network spec");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(text.status().message().find("no-such-file: cannot open network "
                                         "spec: No such file or directory"),
            std::string::npos)
      << text.status();
}

TEST(FileTest, DirectoryIsNotARegularFile) {
  absl::StatusOr<std::string> text = ReadFile(TempPath(""), "tleaf file");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("not a regular file"),
            std::string::npos);
  EXPECT_FALSE(IsRegularFile(TempPath("")));
  EXPECT_TRUE(IsDirectory(TempPath("")));
  EXPECT_FALSE(IsDirectory(TempPath("no-such-dir")));
}

// Opening a FIFO for reading would block until a writer comes: it is refused
// before the open (a blocked test would time out instead of failing here).
TEST(FileTest, FifoIsRefusedWithoutBlocking) {
  const std::string path = TempPath("fifo");
  unlink(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  absl::StatusOr<std::string> text = ReadFile(path, "graph");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(),
            path + ": not a regular file (expected a graph)");
  EXPECT_FALSE(IsRegularFile(path));
}

TEST(FileTest, SizeLimitRefusedBeforeReading) {
  const std::string path = TempPath("big.txt");
  ASSERT_TRUE(WriteFile(path, std::string(100, 'x')).ok());
  absl::StatusOr<std::string> text = ReadFile(path, "graph", 99);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(text.status().message().find("100 bytes exceeds the limit of 99"),
            std::string::npos);
  EXPECT_TRUE(ReadFile(path, "graph", 100).ok());
}

TEST(FileTest, TailKeepsWholeLastLines) {
  const std::string path = TempPath("tail.txt");
  ASSERT_TRUE(WriteFile(path, "first line\nsecond\nthird\n").ok());
  // 13 bytes: "econd\nthird\n" cut inside "second", which is dropped.
  EXPECT_EQ(*ReadFileTail(path, 13), "third\n");
  EXPECT_EQ(*ReadFileTail(path, 14), "second\nthird\n");
  EXPECT_EQ(*ReadFileTail(path, 1000), "first line\nsecond\nthird\n");
  EXPECT_EQ(*ReadFileTail(path, 0), "");
  EXPECT_FALSE(ReadFileTail(TempPath("none"), 10).ok());
}

TEST(FileTest, UnwritablePathGivesReason) {
  absl::Status s = WriteFile(TempPath("no-dir/x.txt"), "x");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot open for writing: No such file or "
                             "directory"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace rankmap::base
