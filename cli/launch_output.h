// `rankmap map --format rankfile|ompi5|slurm|hydra|hwloc`: the mapping written
// as what a launcher reads (launch/launch.h), and the command that reads it.
//
//   RETURN_IF_ERROR(WriteLaunchFormat("slurm", "auto", tree, mapping,
//                                     "job.hosts", std::cout));
//   // writes job.hosts (and job.hosts.bind.sh when a wrapper binds), prints
//   // "launch: SLURM_HOSTFILE=job.hosts srun ... ./app"
#ifndef RANKMAP_CLI_LAUNCH_OUTPUT_H_
#define RANKMAP_CLI_LAUNCH_OUTPUT_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "base/file_batch.h"
#include "cli/inputs.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

// True for the formats launch/ writes.
bool IsLaunchFormat(const std::string& format);

// OK unless `inputs` name a tleaf (inline or in a file): its host names n0,
// n1, ... are made up by the reader (topology/tleaf.h), so a launcher handed
// them would fail or, worse, reach real machines of those names. Checked
// before mapping, so the refusal costs nothing. Errors: InvalidArgument
// naming `format` and what to map onto instead.
absl::Status CheckLaunchableTopology(const Inputs& inputs,
                                     const std::string& format);

// With `output`, stages the files there in `files` and prints "launch: <command> ./app"
// on `out`; without, prints the single file of rankfile, ompi5 and hwloc on
// `out` (slurm and hydra, whose command names their files, need `output`).
// `bind`: auto | mask | wrapper | none (launch/binding_mode.h). Errors: bad
// format or binding, the launch/ writer's (a tree that is not a real
// machine), unwritable files.
absl::Status WriteLaunchFormat(const std::string& format,
                               const std::string& bind,
                               const topology::Tree& tree,
                               const core::Mapping& mapping,
                               const std::string& output,
                               base::FileBatch& files, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_LAUNCH_OUTPUT_H_
