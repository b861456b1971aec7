// One `rankmap advise` run's own files: a fresh directory inside --output
// that only this run writes (the job's profile, the machine advise built,
// what Slurm said), so that nothing an earlier run left there, or anyone
// planted, is ever read as this run's. The directory goes when the run ends
// (also when the command is stopped: base/leftovers.h); what the run keeps is
// published into --output through a FileBatch, all at once.
//
//   ASSIGN_OR_RETURN(AdviseRun run, AdviseRun::Start(cmd.output));
//   ... the job writes run.dir() + "/profile.*" ...
//   base::FileBatch files;
//   run.Publish("profile.", files);      // output/profile.* replaced as a set
//   RETURN_IF_ERROR(files.Commit());
#ifndef RANKMAP_CLI_ADVISE_RUN_H_
#define RANKMAP_CLI_ADVISE_RUN_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/file_batch.h"
#include "base/temp_dir.h"

namespace rankmap::cli {

class AdviseRun {
 public:
  // Makes --output (and its parents) when missing and the run's directory
  // "<output>/.rankmap-advise-XXXXXX" in it. Errors (InvalidArgument, one
  // line): an --output holding a control character (its path is printed and
  // written into launch files), one that is not a directory or cannot be
  // made.
  static absl::StatusOr<AdviseRun> Start(const std::string& output);

  const std::string& output() const { return output_; }   // absolute
  const std::string& dir() const { return dir_.path(); }  // absolute

  // output()/<name> for a file of the run.
  std::string Published(std::string_view name) const;

  // Every regular file and directory the run's directory holds now is adopted
  // by `files` to become output()/<same name>. Files of output() whose names
  // start with `family` ("profile.") and that this run did not write are
  // removed at the commit, so that the published profile is one run's set (an
  // old .msgs.mat is not read beside a new .mat).
  void Publish(std::string_view family, base::FileBatch& files) const;

 private:
  AdviseRun(std::string output, base::TempDir dir)
      : output_(std::move(output)), dir_(std::move(dir)) {}
  std::string output_;
  base::TempDir dir_;
};

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_ADVISE_RUN_H_
