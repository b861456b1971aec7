#include "cli/advise_machine.h"

#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/subprocess.h"
#include "topology/topology.h"

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
  absl::StatusOr<base::SubprocessResult> r = base::RunSubprocess(
      std::vector<std::string>{"scontrol", "show", "topology"}, o);
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
  const bool padded =
      !text.empty() &&
      (text.front() == ' ' || text.back() == ' ' || text.back() == '\t');
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

// The job's own export of `host` in `hardware`, or "".
std::string OwnExport(const std::string& hardware, const std::string& host) {
  if (hardware.empty()) return "";
  const std::string xml = absl::StrCat(hardware, "/", host, ".xml");
  if (!base::IsRegularFile(xml)) return "";
  return std::filesystem::absolute(xml).string();
}

// "2 PUs, 2 cores, 1 package" of an hwloc export, or "?" when it does not
// load.
std::string Summary(const std::string& xml) {
  absl::StatusOr<topology::Tree> t = topology::LoadTopology(xml);
  if (!t.ok()) return "?";
  int64_t cores = 0, packages = 0;
  for (topology::NodeId v = 0; v < t->num_nodes(); ++v) {
    for (absl::string_view part : absl::StrSplit(t->kind(v), '+')) {
      cores += part == "Core";
      packages += part == "Package";
    }
  }
  return absl::StrCat(t->num_leaves(), " PUs, ", cores, " cores, ", packages,
                      packages == 1 ? " package" : " packages");
}

// The hosts grouped by their hardware: "n0, n1 (2 PUs, 2 cores, 1 package);
// n2 (...)", hosts without an export as "this machine (hwloc)".
std::string HostKinds(const std::vector<std::string>& hosts,
                      const std::string& hardware) {
  std::vector<std::pair<std::string, std::vector<std::string>>> kinds;
  for (const std::string& h : hosts) {
    const std::string xml = OwnExport(hardware, h);
    const std::string kind =
        xml.empty() ? "this machine's hardware (hwloc)" : Summary(xml);
    auto it = std::find_if(kinds.begin(), kinds.end(),
                           [&](const auto& k) { return k.first == kind; });
    if (it == kinds.end()) it = kinds.insert(kinds.end(), {kind, {}});
    it->second.push_back(h);
  }
  std::vector<std::string> parts;
  for (const auto& [kind, names] : kinds)
    parts.push_back(absl::StrCat(absl::StrJoin(names, ", "), ": ", kind));
  return absl::StrCat(kinds.size(), kinds.size() == 1 ? " kind" : " kinds",
                      " of node; ", absl::StrJoin(parts, "; "));
}

// A network spec of the hosts under one switch, each its own export when the
// job left one (by absolute path), else as `node` describes it. Host names
// follow the hostname grammar (the placement's reader checked them); what
// would change the spec's meaning is refused.
absl::StatusOr<std::string> OneSwitchSpec(const std::vector<std::string>& hosts,
                                          const std::string& node,
                                          const std::string& hardware) {
  std::string spec = "network\nswitch job\n";
  for (const std::string& h : hosts) {
    const std::string own = OwnExport(hardware, h);
    const std::string desc = own.empty() ? NodeDescription(node, h) : own;
    RETURN_IF_ERROR(
        CheckSpecText(desc, own.empty() ? "--node" : "the job's export"));
    absl::StrAppend(&spec, "node ", h, " ", desc, "\n");
  }
  return spec;
}

// Whether the job left an export of every host.
bool HasEveryHost(const std::vector<std::string>& hosts,
                  const std::string& hardware) {
  for (const std::string& h : hosts)
    if (OwnExport(hardware, h).empty()) return false;
  return !hosts.empty();
}

}  // namespace

absl::StatusOr<AdviseMachine> LoadAdviseMachine(
    const MachineRequest& request, const std::vector<std::string>& hosts,
    const std::string& dir, const std::string& kept_dir) {
  // The files are named where they are kept.
  auto kept = [&](const std::string& path) {
    return kept_dir.empty() ? path : kept_dir + path.substr(path.rfind('/'));
  };
  AdviseMachine m;
  Inputs in = request.inputs;
  // --node wins; else the job's own hardware.
  const bool own = in.node.empty() && HasEveryHost(hosts, request.hardware);
  const std::string node = in.node.empty() ? "this" : in.node;
  const std::string each_is =
      !in.node.empty() ? node
      : !request.hardware.empty()
          ? absl::StrCat("its own hardware (", request.hardware, ": ",
                         HostKinds(hosts, request.hardware), ")")
          : "this machine (hwloc)";
  if (!in.topology.empty()) {
    m.sources.push_back(absl::StrCat("machine: ", in.topology));
  } else if (!request.network.empty()) {
    in.topology = request.network;
    m.sources.push_back(
        absl::StrCat("machine: network spec ", request.network));
  } else if (const std::string slurm = SlurmTopology(dir); !slurm.empty()) {
    in.topology = slurm;
    in.node = own ? request.hardware : node;
    absl::StatusOr<topology::Tree> t = LoadTree(in);
    // Slurm names every node of the cluster; the job exported its own only.
    if (own && !t.ok()) in.node = "this";
    m.sources.push_back(absl::StrCat(
        "machine: Slurm's switches (scontrol show topology, kept in ",
        kept(slurm), "), each node as ",
        own && t.ok() ? each_is
        : own         ? "this machine (hwloc: the cluster has nodes the job "
                        "left no export of)"
                      : (node == "this" ? "this machine (hwloc)" : node)));
  } else {
    if (node == "this" && !own) RETURN_IF_ERROR(ThisMachineXml(dir).status());
    const std::string path = dir + "/machine.net";
    ASSIGN_OR_RETURN(
        const std::string spec,
        OneSwitchSpec(hosts, node, in.node.empty() ? request.hardware : ""));
    RETURN_IF_ERROR(base::WriteFile(path, spec));
    in.topology = path;
    in.node.clear();
    m.sources.push_back(absl::StrCat(
        "machine: the ", hosts.size(), " host", hosts.size() == 1 ? "" : "s",
        " of the profile (", absl::StrJoin(hosts, ", "), "), each as ", each_is,
        ", under one switch (no --topology, --network or Slurm topology; ",
        kept(path), ")"));
  }
  ASSIGN_OR_RETURN(m.tree, LoadTree(in));
  return m;
}

}  // namespace rankmap::cli
