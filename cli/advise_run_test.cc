#include "cli/advise_run.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/file.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

std::string Tmp() { return std::getenv("TEST_TMPDIR"); }

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  while (const dirent* e = d == nullptr ? nullptr : readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  if (d != nullptr) closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AdviseRun, AFreshDirectoryInsideTheOutputRemovedAfter) {
  const std::string out = Tmp() + "/a/b/advice";
  std::string dir;
  {
    auto run = AdviseRun::Start(out);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(run->output(), out);
    dir = run->dir();
    EXPECT_EQ(dir.rfind(out + "/.rankmap-advise-", 0), 0u) << dir;
    EXPECT_TRUE(base::IsDirectory(dir));
    EXPECT_EQ(run->Published("job.hosts"), out + "/job.hosts");
  }
  EXPECT_FALSE(base::IsDirectory(dir));
  EXPECT_TRUE(base::IsDirectory(out));
}

TEST(AdviseRun, RelativeOutputsBecomeAbsolute) {
  ASSERT_EQ(chdir(Tmp().c_str()), 0);
  auto run = AdviseRun::Start("rel");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->output()[0], '/');
  EXPECT_EQ(run->output().substr(run->output().size() - 4), "/rel");
}

TEST(AdviseRun, RefusesWhatCannotBeAnOutputDirectory) {
  EXPECT_EQ(AdviseRun::Start(Tmp() + "/x\nn9").status().message(),
            "--output: the path holds a control character (a line break "
            "would split the lines of the files and commands that name it)");
  ASSERT_TRUE(base::WriteFile(Tmp() + "/plain", "").ok());
  EXPECT_FALSE(AdviseRun::Start(Tmp() + "/plain").ok());
  EXPECT_FALSE(AdviseRun::Start(Tmp() + "/plain/sub").ok());
  EXPECT_FALSE(AdviseRun::Start("").ok());
}

// An earlier run's profile is replaced as a set: its .msgs.mat and rows are
// not left beside the new .mat; files of other names stay.
TEST(AdviseRun, PublishReplacesTheProfileAsASet) {
  const std::string out = Tmp() + "/publish";
  auto run = AdviseRun::Start(out);
  ASSERT_TRUE(run.ok());
  for (const char* old : {"profile.mat", "profile.msgs.mat", "profile.part.3",
                          "job.rankfile"}) {
    ASSERT_TRUE(base::WriteFile(out + "/" + old, "old").ok());
  }
  ASSERT_TRUE(base::WriteFile(run->dir() + "/profile.mat", "new").ok());
  ASSERT_TRUE(base::WriteFile(run->dir() + "/profile.placement", "new").ok());
  base::FileBatch files;
  run->Publish("profile.", files);
  EXPECT_EQ(*base::ReadFile(out + "/profile.msgs.mat"), "old")
      << "nothing before the commit";
  ASSERT_TRUE(files.Commit().ok());
  const std::vector<std::string> kept = Entries(out);
  EXPECT_EQ(kept.size(), 4u);  // the run's directory, job.rankfile, 2 new
  EXPECT_EQ(*base::ReadFile(out + "/profile.mat"), "new");
  EXPECT_EQ(*base::ReadFile(out + "/profile.placement"), "new");
  EXPECT_FALSE(base::IsRegularFile(out + "/profile.msgs.mat"));
  EXPECT_FALSE(base::IsRegularFile(out + "/profile.part.3"));
  EXPECT_EQ(*base::ReadFile(out + "/job.rankfile"), "old");
  EXPECT_TRUE(Entries(run->dir()).empty());
}

}  // namespace
}  // namespace rankmap::cli
