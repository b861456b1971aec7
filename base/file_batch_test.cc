#include "base/file_batch.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "base/file.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

std::string Dir(const std::string& name) {
  const std::string d = std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
  mkdir(d.c_str(), 0755);
  return d;
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  return names;
}

TEST(FileBatch, NothingVisibleBeforeCommitEverythingAfter) {
  const std::string d = Dir("commit");
  FileBatch files;
  ASSERT_TRUE(files.Write(d + "/a.txt", "a").ok());
  ASSERT_TRUE(files.Write(d + "/run.sh", "#!/bin/sh\n", true).ok());
  EXPECT_FALSE(IsRegularFile(d + "/a.txt"));
  ASSERT_TRUE(files.Commit().ok());
  EXPECT_EQ(*ReadFile(d + "/a.txt"), "a");
  struct stat st;
  ASSERT_EQ(stat((d + "/run.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  EXPECT_EQ(Entries(d).size(), 2u) << "no temporary left";
}

// A failure in the middle leaves the old file as it was and no new one.
TEST(FileBatch, AFailedWriteLeavesTheOldFilesAndNoTemporary) {
  const std::string d = Dir("fail");
  ASSERT_TRUE(WriteFile(d + "/m.txt", "old").ok());
  {
    FileBatch files;
    ASSERT_TRUE(files.Write(d + "/m.txt", "new").ok());
    const absl::Status s = files.Write(d + "/no-such-dir/r.html", "page");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message().substr(0, d.size() + 20),
              d + "/no-such-dir/r.html:");
  }
  EXPECT_EQ(*ReadFile(d + "/m.txt"), "old");
  EXPECT_EQ(Entries(d), std::vector<std::string>{"m.txt"});
}

TEST(FileBatch, ACommitThatCannotRenameRemovesTheRest) {
  const std::string d = Dir("rename");
  mkdir((d + "/taken").c_str(), 0755);
  FileBatch files;
  ASSERT_TRUE(files.Write(d + "/taken", "x").ok());
  ASSERT_TRUE(files.Write(d + "/later", "y").ok());
  EXPECT_FALSE(files.Commit().ok());
  EXPECT_EQ(Entries(d), std::vector<std::string>{"taken"});
}

// A device is written, not replaced (--output /dev/null).
TEST(FileBatch, DevicesAreWrittenAtTheCommit) {
  FileBatch files;
  ASSERT_TRUE(files.Write("/dev/null", "mapping").ok());
  ASSERT_TRUE(files.Commit().ok());
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(FileBatch, AdoptedFilesAndRemovalsHappenAtCommit) {
  const std::string d = Dir("adopt");
  ASSERT_TRUE(WriteFile(d + "/.run.mat", "fresh").ok());
  ASSERT_TRUE(WriteFile(d + "/p.msgs.mat", "stale").ok());
  {
    FileBatch dropped;
    dropped.Adopt(d + "/.run.mat", d + "/p.mat");
    dropped.RemoveAtCommit(d + "/p.msgs.mat");
  }
  EXPECT_FALSE(IsRegularFile(d + "/.run.mat")) << "dropped: removed";
  EXPECT_TRUE(IsRegularFile(d + "/p.msgs.mat")) << "dropped: nothing removed";
  ASSERT_TRUE(WriteFile(d + "/.run.mat", "fresh").ok());
  FileBatch files;
  files.Adopt(d + "/.run.mat", d + "/p.mat");
  files.RemoveAtCommit(d + "/p.msgs.mat");
  files.RemoveAtCommit(d + "/never-was");
  ASSERT_TRUE(files.Commit().ok());
  EXPECT_EQ(*ReadFile(d + "/p.mat"), "fresh");
  EXPECT_EQ(Entries(d), std::vector<std::string>{"p.mat"});
}

}  // namespace
}  // namespace rankmap::base
