#include "cli/bind_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "cli/mapping_reader.h"
#include "core/model/mapping.h"
#include "launch/launch.h"
#include "topology/binding.h"
#include "topology/tree.h"

namespace rankmap::cli {
namespace {

const char* GetEnv(const char* name) { return std::getenv(name); }

std::string ThisHost() {
  char name[256] = "";
  gethostname(name, sizeof(name) - 1);
  return name;
}

// Host names compared without their domain: hwloc's HostName and a
// launcher's node name may differ only there.
std::string ShortName(const std::string& host) {
  return host.substr(0, host.find('.'));
}

// The checks of the flags, then what to bind.
absl::StatusOr<topology::BindWhat> CheckBindRequest(const BindCommand& cmd) {
  if (cmd.program.empty()) {
    return absl::InvalidArgumentError(
        "bind: no program: put it after --, e.g. rankmap bind --mapping m.txt "
        "-- ./app");
  }
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError(
        "bind: --mapping: a mapping file is required");
  ASSIGN_OR_RETURN(const topology::BindWhat what,
                   topology::ParseBindWhat(cmd.bind));
  const int32_t k = cmd.threads_per_process;
  if (k < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bind: --threads-per-process ", k, ": must be at least 1"));
  }
  return what;
}

// The PU os indexes of each of the k leaves of `rank`, which must all be on
// one host and exist in `tree`.
absl::StatusOr<std::vector<std::vector<int32_t>>> RankLeaves(
    const BindCommand& cmd, const topology::Tree& tree,
    const core::Mapping& mapping, const launch::ProcessRank& rank) {
  const int32_t k = cmd.threads_per_process;
  // Every rank of a job started with the wrong count fails alike: none
  // starts the program to wait for ranks that will never come.
  if (rank.size >= 0 && rank.size != static_cast<int64_t>(mapping.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("bind: the job has ", rank.size, " processes but ",
                     cmd.mapping, " maps ", mapping.size()));
  }
  if (rank.rank >= static_cast<int64_t>(mapping.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bind: rank ", rank.rank, " (", rank.variable, ") is past the ",
        mapping.size(), " processes of ", cmd.mapping));
  }
  const int32_t first = mapping[rank.rank];
  if (first < 0 || first + k > tree.num_leaves()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bind: --threads-per-process ", k, ": rank ", rank.rank,
                     " needs leaves ", first, "..", first + k - 1,
                     " but the topology has ", tree.num_leaves()));
  }
  const std::string& host = tree.host(first);
  std::vector<std::vector<int32_t>> leaves;
  for (int32_t l = first; l < first + k; ++l) {
    if (tree.host(l) != host) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bind: rank ", rank.rank, "'s leaves ", first, "..", first + k - 1,
          " span hosts ", host, " and ", tree.host(l)));
    }
    std::span<const int32_t> leaf_pus = tree.pus(l);
    if (leaf_pus.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("bind: leaf ", l,
                       " has no PU os indexes (a tleaf or network tleaf "
                       "node); use --topology this or an hwloc XML export"));
    }
    leaves.emplace_back(leaf_pus.begin(), leaf_pus.end());
  }
  return leaves;
}

// Places describe this rank's own binding, so a value exported to every
// rank cannot be right; thread count and policy are the user's to choose.
void SetOpenMpPlaces(const std::vector<std::vector<int32_t>>& leaves) {
  const launch::ThreadPlaces places = launch::ThreadPlacesOf(leaves);
  setenv("OMP_PLACES", places.places.c_str(), 1);
  setenv("OMP_NUM_THREADS", absl::StrCat(places.num_threads).c_str(), 0);
  setenv("OMP_PROC_BIND", places.proc_bind.c_str(), 0);
}

// --verbose: what was bound; otherwise only a memory binding refused.
std::string BindLine(const BindCommand& cmd, const launch::ProcessRank& rank,
                     const topology::BindReport& report,
                     topology::BindWhat what) {
  std::string line;
  if (cmd.verbose) {
    line = absl::StrCat("rankmap bind: rank ", rank.rank, " (", rank.variable,
                        ") ", topology::FormatBindReport(report));
    if (what != topology::BindWhat::kNone) {
      absl::StrAppend(&line,
                      " OMP_NUM_THREADS=", std::getenv("OMP_NUM_THREADS"),
                      " OMP_PLACES=", std::getenv("OMP_PLACES"));
    }
  } else if (what == topology::BindWhat::kCpuMem && report.numa_nodes.empty()) {
    line = absl::StrCat("rankmap bind: rank ", rank.rank,
                        ": memory not bound: ", report.memory_note);
  }
  return line;
}

// Returns only when `program` cannot be executed.
absl::Status Exec(const std::vector<std::string>& program) {
  std::vector<char*> argv;
  for (const std::string& a : program)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  return absl::NotFoundError(absl::StrCat("bind: cannot run '", program[0],
                                          "': ", std::strerror(errno)));
}

}  // namespace

absl::Status RunBind(const BindCommand& cmd, std::ostream& err) {
  ASSIGN_OR_RETURN(const topology::BindWhat what, CheckBindRequest(cmd));
  absl::StatusOr<launch::ProcessRank> found =
      launch::RankFromEnvironment(GetEnv);
  if (!found.ok()) {
    return absl::Status(found.status().code(),
                        absl::StrCat("bind: ", found.status().message()));
  }
  const launch::ProcessRank& rank = *found;
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(const core::Mapping mapping,
                   ReadAnyMappingFile(cmd.mapping, tree));
  ASSIGN_OR_RETURN(const std::vector<std::vector<int32_t>> leaves,
                   RankLeaves(cmd, tree, mapping, rank));
  const std::string& host = tree.host(mapping[rank.rank]);
  const std::string here = ThisHost();
  if (!host.empty() && ShortName(host) != ShortName(here)) {
    return absl::InvalidArgumentError(absl::StrCat("bind: rank ", rank.rank,
                                                   " is mapped to host ", host,
                                                   " but runs on ", here));
  }
  std::vector<int32_t> pus;
  for (const std::vector<int32_t>& leaf : leaves)
    pus.insert(pus.end(), leaf.begin(), leaf.end());
  ASSIGN_OR_RETURN(const topology::BindReport report,
                   topology::BindProcess(pus, what));
  if (what != topology::BindWhat::kNone) SetOpenMpPlaces(leaves);
  // One write per line: ranks share the launcher's stderr.
  if (const std::string line = BindLine(cmd, rank, report, what);
      !line.empty()) {
    err << line + "\n";
  }
  err.flush();
  std::fflush(nullptr);
  return Exec(cmd.program);
}

}  // namespace rankmap::cli
