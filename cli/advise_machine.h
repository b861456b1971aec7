// The machine `rankmap advise` prices a job on: the topology the user names,
// or one built from where the job ran and what the cluster says of itself.
//
// In order of preference:
//   1. --topology (or $RANKMAP_TOPOLOGY): taken as it is (it must name the
//      hosts the job ran on);
//   2. --network SPEC: a network spec over the hosts (topology/network.h);
//   3. Slurm: when `scontrol show topology` answers (the cluster runs the
//      topology/tree plugin), its switches over the nodes;
//   4. otherwise every host the job ran on under one switch.
// In 3 and 4 each host's hardware is --node's when given, else the job's
// own: the hwloc export the profiler kept of each host (the profile's
// .hwloc directory), so a login node prices a cluster of other machines, and
// hosts of different kinds, as they are; this machine's hardware only for a
// host the profile has no export of. The sources used are said, one line
// each.
//
//   ASSIGN_OR_RETURN(AdviseMachine m, LoadAdviseMachine(req, hosts, dir, log));
#ifndef RANKMAP_CLI_ADVISE_MACHINE_H_
#define RANKMAP_CLI_ADVISE_MACHINE_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/inputs.h"
#include "topology/tree.h"

namespace rankmap::cli {

struct MachineRequest {
  Inputs inputs;  // topology (empty: build one), node, leaf, level costs
  std::string network;
  // The job's own hardware: a directory of <host>.xml hwloc exports (the
  // profile's .hwloc), or "".
  std::string hardware;
};

struct AdviseMachine {
  topology::Tree tree;
  std::vector<std::string> sources;  // what it was built from, one line each
};

// `hosts`: where the job ran, in order of their first rank. `dir`: where the
// files it writes go (Slurm's description, this machine's export and the
// spec over them, which names the export by its name, so both can move
// together); `kept_dir`, when given, is where the sources say they are kept.
// A --node XML file or directory is written into the spec by its absolute
// path; a description a spec line cannot carry ('#', a line break) is
// refused. Errors: the loaders'; a machine
// without the job's hosts is the caller's to report (topology/
// process_leaves.h).
absl::StatusOr<AdviseMachine> LoadAdviseMachine(
    const MachineRequest& request, const std::vector<std::string>& hosts,
    const std::string& dir, const std::string& kept_dir = "");

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_ADVISE_MACHINE_H_
