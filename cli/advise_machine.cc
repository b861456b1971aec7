#include "cli/advise_machine.h"

#include <limits.h>
#include <unistd.h>

#include "absl/strings/match.h"
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

// `path` made absolute against the current directory.
std::string Absolute(const std::string& path) {
  if (path.starts_with('/')) return path;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == nullptr) return path;
  return absl::StrCat(cwd, "/", path);
}

// A node line's description as the spec reads it back (topology/network.h):
// the rest of the line, '#' starting a comment, spaces at either end dropped.
absl::Status CheckSpecText(const std::string& text, const std::string& what) {
  const bool padded = !text.empty() && (text.front() == ' ' ||
                                        text.back() == ' ' || text.back() == '\t');
  bool control = false;
  for (const char c : text)
    control = control || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  if (text.empty() || padded || control || text.find('#') != text.npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "advise: ", what, " '", text.substr(0, 200),
        "' cannot be written into a network spec (no '#', line break, "
        "control character or space at either end)"));
  }
  return absl::OkStatus();
}

// How host `host` is described on its node line, for --node `node`: an XML
// file by its absolute path, a directory by <dir>/<host>.xml, anything else
// (a synthetic or tleaf description) as given.
std::string NodeDescription(const std::string& node, const std::string& host) {
  if (node == "this") return "this-machine.xml";  // beside the spec
  if (base::IsDirectory(node)) return Absolute(node + "/" + host + ".xml");
  if (absl::EndsWith(node, ".xml")) return Absolute(node);
  return node;
}

// A network spec of the hosts under one switch, each as `node` describes it. Host names follow the
// hostname grammar (the placement's reader checked them).
absl::StatusOr<std::string> OneSwitchSpec(const std::vector<std::string>& hosts,
                                          const std::string& node) {
  std::string spec = "network\nswitch job\n";
  for (const std::string& h : hosts) {
    const std::string desc = NodeDescription(node, h);
    RETURN_IF_ERROR(CheckSpecText(desc, "--node"));
    absl::StrAppend(&spec, "node ", h, " ", desc, "\n");
  }
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
    const std::string& dir, const std::string& kept_dir) {
  // The files are named where they are kept.
  auto kept = [&](const std::string& path) {
    return kept_dir.empty() ? path
                            : kept_dir + path.substr(path.rfind('/'));
  };
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
        "machine: Slurm's switches (scontrol show topology, kept in ",
        kept(slurm),
        "), each node as ", node == "this" ? "this machine (hwloc)" : node));
  } else {
    if (node == "this") RETURN_IF_ERROR(ThisMachineXml(dir).status());
    const std::string path = dir + "/machine.net";
    ASSIGN_OR_RETURN(const std::string spec, OneSwitchSpec(hosts, node));
    RETURN_IF_ERROR(base::WriteFile(path, spec));
    in.topology = path;
    in.node.clear();
    m.sources.push_back(absl::StrCat(
        "machine: the ", hosts.size(), " host", hosts.size() == 1 ? "" : "s",
        " of the profile (", absl::StrJoin(hosts, ", "), "), each as ",
        node == "this" ? "this machine (hwloc)" : node,
        ", under one switch (no --topology, --network or Slurm topology; ",
        kept(path), ")"));
  }
  ASSIGN_OR_RETURN(m.tree, LoadTree(in));
  return m;
}

}  // namespace rankmap::cli
