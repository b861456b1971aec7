// link_probe: what `rankmap calibrate` runs under the user's own launcher (or
// smpirun) to measure the links between its ranks: a short ping-pong between
// rank 0 and a rank at every distance from it, and concurrent streams that
// show what a shared link carries. It measures; models/link_fit.h fits.
//
//   mpirun -np 8 ... link_probe_mpi --out=probe.txt [--quick]
//       [--hardware=DIR]
//
// Where the ranks are: each rank's host (SLURMD_NODENAME under Slurm, else
// MPI_Get_processor_name: under SMPI the simulated host) and the CPUs it may
// run on (sched_getaffinity; under SMPI every CPU of this machine). With
// --hardware=DIR the lowest rank on each host exports its hwloc topology to
// DIR/<host>.xml.
//
// Experiments, rank 0 leading (every rank follows the same plan, broadcast
// step by step):
//   * ping-pong, rank 0 against every other rank on its host (up to 64) and
//     against the lowest rank of every other host: small messages (latency)
//     and large ones (bandwidth), one-way time = the median of a few trials'
//     half round trips;
//   * switches: hosts are grouped by small-message latency (two hosts share
//     a switch when their latency is within 25% of the smallest latency
//     between two hosts), measured from rank 0's host, then between the
//     leaders of the hosts left;
//   * streams: k flows at once, each sending `repeats` messages one way,
//     timed until the last arrives: the ranks of rank 0's host to those of a
//     host under its switch (the host's link), the hosts of rank 0's switch
//     to as many hosts of another switch (the switch's link), and the ranks
//     of rank 0's host in pairs (the host's loopback).
//
// Output (rank 0, text, one record a line):
//   link-probe 1 <ranks>
//   rank <r> <host> <cpu list>
//   group <host> <switch number>
//   pingpong <a> <b> <bytes> <seconds one way>
//   stream <kind> <flows> <bytes in all> <seconds> <a>:<b> ...
// kind: host, switch or loopback.
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "topology/machine_xml.h"

namespace {

constexpr int kTag = 7;
constexpr int kHostChars = 256;

// Under SMPI the buffers are shared by every rank (their content does not
// matter): SimGrid keeps all ranks in one process.
void* Allocate(size_t bytes) {
#ifdef SMPI_SHARED_MALLOC
  return SMPI_SHARED_MALLOC(std::max<size_t>(bytes, 1));
#else
  return std::calloc(std::max<size_t>(bytes, 1), 1);
#endif
}

void Release(void* p) {
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(p);
#else
  std::free(p);
#endif
}

struct Args {
  std::string out, hardware;
  bool quick = false;
};

// The CPUs this process may run on, as "0-3,8".
std::string CpuList() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return "0";
  std::string out;
  for (int c = 0; c < CPU_SETSIZE;) {
    if (!CPU_ISSET(c, &set)) {
      ++c;
      continue;
    }
    int d = c;
    while (d + 1 < CPU_SETSIZE && CPU_ISSET(d + 1, &set)) ++d;
    absl::StrAppend(&out, out.empty() ? "" : ",", c);
    if (d > c) absl::StrAppend(&out, "-", d);
    c = d + 1;
  }
  return out.empty() ? "0" : out;
}

std::string HostName() {
  if (const char* node = std::getenv("SLURMD_NODENAME"); node && *node)
    return node;
  char name[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, len);
}

// The plan every rank follows: rank 0 broadcasts each step.
class Probe {
 public:
  Probe(int rank, bool quick)
      : rank_(rank),
        quick_(quick),
        buf_(static_cast<char*>(Allocate(kLargest))),
        recv_(static_cast<char*>(Allocate(kStreamBytes * kMaxRepeats))) {}
  ~Probe() {
    Release(buf_);
    Release(recv_);
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  // One-way seconds of a `bytes` ping-pong between a and b (median of the
  // trials), on rank 0; every rank calls it.
  double PingPong(int a, int b, int bytes) {
    const int reps = bytes >= 65536 ? (quick_ ? 2 : 4) : (quick_ ? 10 : 40);
    const int trials = quick_ ? 3 : 5;
    std::vector<double> times;
    for (int t = 0; t < trials; ++t) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      for (int r = 0; r < reps; ++r) {
        if (rank_ == a) {
          MPI_Send(buf_, bytes, MPI_BYTE, b, kTag, MPI_COMM_WORLD);
          MPI_Recv(buf_, bytes, MPI_BYTE, b, kTag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        } else if (rank_ == b) {
          MPI_Recv(buf_, bytes, MPI_BYTE, a, kTag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
          MPI_Send(buf_, bytes, MPI_BYTE, a, kTag, MPI_COMM_WORLD);
        }
      }
      times.push_back((MPI_Wtime() - start) / (2.0 * reps));
    }
    return Result(a, Median(times));
  }

  // Seconds until the last of the flows (from[i] -> to[i], `repeats`
  // messages of `bytes` each, all at once) has arrived, on rank 0.
  double Stream(const std::vector<int>& from, const std::vector<int>& to,
                int bytes, int repeats) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    std::vector<MPI_Request> requests;
    for (size_t i = 0; i < from.size(); ++i) {
      for (int r = 0; r < repeats; ++r) {
        requests.emplace_back();
        if (rank_ == from[i]) {
          MPI_Isend(buf_, bytes, MPI_BYTE, to[i], kTag + 1,
                    MPI_COMM_WORLD, &requests.back());
        } else if (rank_ == to[i]) {
          // A region per message: receives in flight must not overlap.
          MPI_Irecv(recv_ + static_cast<size_t>(r) * bytes, bytes, MPI_BYTE,
                    from[i], kTag + 1, MPI_COMM_WORLD, &requests.back());
        } else {
          requests.pop_back();
        }
      }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                MPI_STATUSES_IGNORE);
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return slowest;
  }

  static constexpr int kLargest = 4 << 20;
  static constexpr int kStreamBytes = 1 << 20;
  static constexpr int kMaxRepeats = 4;

 private:
  static double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  // The measurement of rank a, on rank 0.
  double Result(int a, double mine) {
    if (a == 0) return mine;
    double got = 0;
    if (rank_ == a) MPI_Send(&mine, 1, MPI_DOUBLE, 0, kTag + 2, MPI_COMM_WORLD);
    if (rank_ == 0)
      MPI_Recv(&got, 1, MPI_DOUBLE, a, kTag + 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    return got;
  }

  int rank_;
  bool quick_;
  char* buf_;   // what is sent, and ping-pongs
  char* recv_;  // streams' receives
};

// Every rank's host and CPUs, on every rank.
void Gather(int size, std::vector<std::string>* hosts,
            std::vector<std::string>* cpus) {
  std::string mine = HostName();
  mine.resize(kHostChars, '\0');
  std::string all(static_cast<size_t>(kHostChars) * size, '\0');
  MPI_Allgather(mine.data(), kHostChars, MPI_CHAR, all.data(), kHostChars,
                MPI_CHAR, MPI_COMM_WORLD);
  std::string list = CpuList();
  list.resize(kHostChars, '\0');
  std::string lists(static_cast<size_t>(kHostChars) * size, '\0');
  MPI_Allgather(list.data(), kHostChars, MPI_CHAR, lists.data(), kHostChars,
                MPI_CHAR, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    hosts->push_back(all.substr(r * kHostChars, kHostChars).c_str());
    cpus->push_back(lists.substr(r * kHostChars, kHostChars).c_str());
  }
}

struct Plan {
  std::vector<std::string> hosts;   // distinct, in order of their first rank
  std::vector<int> leader;          // lowest rank of each host
  std::vector<std::vector<int>> on;  // ranks of each host
  std::vector<int> host_of;         // per rank
};

Plan MakePlan(const std::vector<std::string>& host_of_rank) {
  Plan p;
  for (size_t r = 0; r < host_of_rank.size(); ++r) {
    auto it = std::find(p.hosts.begin(), p.hosts.end(), host_of_rank[r]);
    if (it == p.hosts.end()) {
      p.hosts.push_back(host_of_rank[r]);
      p.leader.push_back(static_cast<int>(r));
      p.on.emplace_back();
      it = p.hosts.end() - 1;
    }
    const int h = static_cast<int>(it - p.hosts.begin());
    p.on[h].push_back(static_cast<int>(r));
    p.host_of.push_back(h);
  }
  return p;
}

// Switch numbers of the hosts, from small-message latencies between leaders
// (the top of this file). Every rank computes the same.
std::vector<int> GroupHosts(const Plan& p, Probe& probe) {
  const int hosts = static_cast<int>(p.hosts.size());
  std::vector<int> group(hosts, -1);
  if (hosts == 1) return {0};
  // From host 0: the smallest latency to another host is that of a switch.
  std::vector<double> from0(hosts, 0);
  for (int h = 1; h < hosts; ++h) from0[h] = probe.PingPong(0, p.leader[h], 8);
  MPI_Bcast(from0.data(), hosts, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const double nearest = *std::min_element(from0.begin() + 1, from0.end());
  const double same = 1.25 * nearest;
  group[0] = 0;
  for (int h = 1; h < hosts; ++h)
    if (from0[h] <= same) group[h] = 0;
  int groups = 1;
  for (int u = 1; u < hosts; ++u) {
    if (group[u] >= 0) continue;
    group[u] = groups;
    for (int v = u + 1; v < hosts; ++v) {
      if (group[v] >= 0) continue;
      double t = probe.PingPong(p.leader[u], p.leader[v], 8);
      MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (t <= same) group[v] = groups;
    }
    ++groups;
  }
  return group;
}

void PingPongs(FILE* out, int a, int b, Probe& probe) {
  const std::vector<int> small = {1, 8, 64, 128};
  const std::vector<int> large = {262144, 1048576, 4194304};
  for (const auto* sizes : {&small, &large}) {
    for (int bytes : *sizes) {
      const double t = probe.PingPong(a, b, bytes);
      if (out) std::fprintf(out, "pingpong %d %d %d %.9e\n", a, b, bytes, t);
    }
  }
}

void Streams(FILE* out, const char* kind, const std::vector<int>& from,
             const std::vector<int>& to, Probe& probe, bool quick) {
  if (from.empty()) return;
  const int bytes = Probe::kStreamBytes,
            repeats = quick ? 2 : Probe::kMaxRepeats;
  const double t = probe.Stream(from, to, bytes, repeats);
  if (!out) return;
  std::fprintf(out, "stream %s %zu %.0f %.9e", kind, from.size(),
               static_cast<double>(bytes) * repeats * from.size(), t);
  for (size_t i = 0; i < from.size(); ++i)
    std::fprintf(out, " %d:%d", from[i], to[i]);
  std::fprintf(out, "\n");
}

// Every experiment of the top of this file, written by rank 0 to `out`.
void Measure(FILE* out, const Plan& p, const std::vector<int>& group,
             Probe& probe, bool quick) {
  const int hosts = static_cast<int>(p.hosts.size());
  const std::vector<int>& home = p.on[0];
  for (size_t i = 1; i < home.size() && i <= 64; ++i)
    PingPongs(out, 0, home[i], probe);
  int near = -1, far = -1;
  for (int h = 1; h < hosts; ++h) {
    if (group[h] == 0 && near < 0) near = h;
    if (group[h] != 0 && far < 0) far = h;
  }
  if (near >= 0) PingPongs(out, 0, p.leader[near], probe);
  if (far >= 0) PingPongs(out, 0, p.leader[far], probe);
  // The host's link: its ranks to as many ranks of a near host (or any
  // other host).
  const int peer = near >= 0 ? near : far;
  if (peer >= 0) {
    std::vector<int> from, to;
    for (size_t i = 0; i < home.size() && i < p.on[peer].size(); ++i) {
      from.push_back(home[i]);
      to.push_back(p.on[peer][i]);
    }
    Streams(out, "host", from, to, probe, quick);
  }
  // The switch's link: the hosts of switch 0 to as many of another switch.
  if (far >= 0) {
    std::vector<int> from, to;
    for (int h = 0; h < hosts; ++h)
      if (group[h] == 0) from.push_back(p.leader[h]);
    for (int h = 0; h < hosts; ++h)
      if (group[h] == group[far]) to.push_back(p.leader[h]);
    const size_t k = std::min(from.size(), to.size());
    from.resize(k);
    to.resize(k);
    Streams(out, "switch", from, to, probe, quick);
  }
  // The loopback: the ranks of host 0 in pairs.
  std::vector<int> from, to;
  for (size_t i = 0; i + 1 < home.size(); i += 2) {
    from.push_back(home[i]);
    to.push_back(home[i + 1]);
  }
  Streams(out, "loopback", from, to, probe, quick);
}

// The lowest rank on each host exports its machine to dir/<host>.xml.
void ExportHardware(const std::string& dir, const Plan& p, int rank) {
  if (dir.empty() || p.leader[p.host_of[rank]] != rank) return;
  absl::StatusOr<std::string> xml = rankmap::topology::ThisMachineXml();
  const std::string path = dir + "/" + p.hosts[p.host_of[rank]] + ".xml";
  FILE* f = xml.ok() ? std::fopen(path.c_str(), "w") : nullptr;
  if (f == nullptr) {
    std::fprintf(stderr, "link_probe: %s not written\n", path.c_str());
    return;
  }
  std::fwrite(xml->data(), 1, xml->size(), f);
  std::fclose(f);
}

bool ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--out=", 0) == 0) {
      a->out = arg.substr(6);
    } else if (arg.rfind("--hardware=", 0) == 0) {
      a->hardware = arg.substr(11);
    } else if (arg == "--quick") {
      a->quick = true;
    } else {
      return false;
    }
  }
  return !a->out.empty();
}

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args a;
  if (!ParseArgs(argc, argv, &a)) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: link_probe --out=FILE [--quick] [--hardware=DIR]\n");
    return 2;
  }
  std::vector<std::string> hosts, cpus;
  Gather(size, &hosts, &cpus);
  const Plan plan = MakePlan(hosts);
  ExportHardware(a.hardware, plan, rank);
  Probe probe(rank, a.quick);
  const std::vector<int> group = GroupHosts(plan, probe);
  FILE* out = nullptr;
  int ok = 1;
  if (rank == 0) {
    out = std::fopen(a.out.c_str(), "w");
    ok = out != nullptr;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    if (rank == 0)
      std::fprintf(stderr, "link_probe: cannot write %s\n", a.out.c_str());
    return 2;
  }
  if (out) {
    std::fprintf(out, "link-probe 1 %d\n", size);
    for (int r = 0; r < size; ++r)
      std::fprintf(out, "rank %d %s %s\n", r, hosts[r].c_str(), cpus[r].c_str());
    for (size_t h = 0; h < plan.hosts.size(); ++h)
      std::fprintf(out, "group %s %d\n", plan.hosts[h].c_str(), group[h]);
  }
  Measure(out, plan, group, probe, a.quick);
  if (out) std::fclose(out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = Run(argc, argv);
  MPI_Finalize();
  return rc;
}
