#include "cli/advise_machine.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/subprocess.h"

namespace rankmap::cli {
namespace {

// Slurm's tree of switches, when the cluster has one: `scontrol show
// topology` written to dir/slurm-topology.txt. "" when Slurm does not answer.
std::string SlurmTopology(const std::string& dir) {
  const std::string path = dir + "/slurm-topology.txt";
  base::SubprocessOptions o;
  o.stdout_path = path;
  o.stderr_path = dir + "/slurm-topology.err";
  o.timeout_seconds = 20;
  absl::StatusOr<base::SubprocessResult> r =
      base::RunSubprocess(std::vector<std::string>{"scontrol", "show",
                                                   "topology"},
                          o);
  if (!r.ok() || r->exit_code != 0) return "";
  absl::StatusOr<std::string> text = base::ReadFile(path, "scontrol output");
  if (!text.ok() || text->find("SwitchName=") == std::string::npos) return "";
  return path;
}

// A network spec of the hosts under one switch, each as `node` describes it
// (a node line's description: hwloc synthetic, XML file or tleaf).
std::string OneSwitchSpec(const std::vector<std::string>& hosts,
                          const std::string& node) {
  std::string spec = "network\nswitch job\n";
  for (const std::string& h : hosts)
    absl::StrAppend(&spec, "node ", h, " ", node, "\n");
  return spec;
}

// This machine's hardware as an XML export in dir (lstopo, hwloc's tool).
absl::StatusOr<std::string> ThisMachineXml(const std::string& dir) {
  const std::string path = dir + "/this-machine.xml";
  base::SubprocessOptions o;
  o.stdout_path = path;
  o.stderr_path = path + ".err";
  o.timeout_seconds = 60;
  absl::StatusOr<base::SubprocessResult> r = base::RunSubprocess(
      std::vector<std::string>{"lstopo-no-graphics", "--of", "xml", "-"}, o);
  if (!r.ok() || r->exit_code != 0) {
    return absl::FailedPreconditionError(
        "advise: cannot export this machine's hardware with lstopo-no-graphics "
        "(Debian package hwloc-nox); give --node or --topology");
  }
  return path;
}

}  // namespace

absl::StatusOr<AdviseMachine> LoadAdviseMachine(
    const MachineRequest& request, const std::vector<std::string>& hosts,
    const std::string& dir) {
  AdviseMachine m;
  Inputs in = request.inputs;
  const std::string node = in.node.empty() ? "this" : in.node;
  if (!in.topology.empty()) {
    m.sources.push_back(absl::StrCat("machine: ", in.topology));
  } else if (!request.network.empty()) {
    in.topology = request.network;
    m.sources.push_back(absl::StrCat("machine: network spec ", request.network));
  } else if (const std::string slurm = SlurmTopology(dir); !slurm.empty()) {
    in.topology = slurm;
    in.node = node;
    m.sources.push_back(absl::StrCat(
        "machine: Slurm's switches (scontrol show topology, kept in ", slurm,
        "), each node as ", node == "this" ? "this machine (hwloc)" : node));
  } else {
    std::string each = node;
    if (node == "this") {
      ASSIGN_OR_RETURN(each, ThisMachineXml(dir));
    }
    const std::string path = dir + "/machine.net";
    RETURN_IF_ERROR(base::WriteFile(path, OneSwitchSpec(hosts, each)));
    in.topology = path;
    in.node.clear();
    m.sources.push_back(absl::StrCat(
        "machine: the ", hosts.size(), " host", hosts.size() == 1 ? "" : "s",
        " of the profile (", absl::StrJoin(hosts, ", "), "), each as ",
        node == "this" ? "this machine (hwloc)" : node,
        ", under one switch (no --topology, --network or Slurm topology; ",
        path, ")"));
  }
  ASSIGN_OR_RETURN(m.tree, LoadTree(in));
  return m;
}

}  // namespace rankmap::cli
