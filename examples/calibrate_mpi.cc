// Calibrates the communication-time models of core/cost_model.h on the machine
// at hand and writes a model parameter file (format in core/channel_params.h).
//
//   mpirun -np 2 calibrate_mpi [--quick] OUT.params     measure between ranks 0
//   and 1 calibrate_mpi --check FILE                           parse FILE,
//   print its rules
//
// Ranks 0 and 1 measure (other ranks only synchronise): a ping-pong over
// message sizes gives one-way times, fitted by least squares to Hockney's alpha
// + beta m; tau = 1..4 concurrent transfers of m bytes each from rank 0 to rank
// 1 (all posted at once, timed until the last arrives) give tau-Lop's L(m,
// tau). Point-to-point measurements cannot separate processor from network
// terms, so the LMO and HLogGP lines put the whole latency on L and the whole
// per-byte time on the network (1 / rate, G). The lines are written for
// `intranode` when both ranks run on one host (MPI processor name) and
// `internode` otherwise; run once per placement (e.g. with
// --map-by node) and concatenate the files to calibrate both.
//
// Exit status: 0 on success, 2 on bad usage or a file that does not parse, 1 on
// MPI errors.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/channel_params.h"
#include "core/cost_model_fit.h"
#include "core/cost_model_taulop.h"
#include "topology/tree.h"

namespace {

using rankmap::core::ChannelParams;
using rankmap::core::FormatParamRule;
using rankmap::core::Model;
using rankmap::core::Sample;

constexpr int kMaxTau = 4;
constexpr int kTag = 11;

int Check(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "calibrate_mpi: %s: cannot open\n", path);
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  auto rules = rankmap::core::ParseModelParams(buf.str(), path);
  if (!rules.ok()) {
    std::fprintf(stderr, "calibrate_mpi: %s\n",
                 std::string(rules.status().message()).c_str());
    return 2;
  }
  for (const auto& r : *rules) {
    std::printf("%s:%d: %s %s, %zu values\n", path, r.line, r.selector.c_str(),
                rankmap::core::ModelName(r.model), r.values.size());
  }
  // Apply the rules to a small cluster (switch -> 2 Machines -> 2 Cores) so
  // that selectors and tau-Lop tables are checked too, and show what they
  // predict for one megabyte.
  rankmap::topology::TreeBuilder b;
  const auto root = b.AddRoot("switch");
  for (int m = 0; m < 2; ++m) {
    const auto machine = b.AddChild(root, "Machine");
    for (int c = 0; c < 2; ++c) b.AddChild(machine, "Core");
  }
  auto tree = std::move(b).Build();
  auto params = tree.ok()
                    ? rankmap::core::ResolveModelParams(*rules, *tree)
                    : absl::StatusOr<rankmap::core::ModelParams>(tree.status());
  if (!params.ok()) {
    std::fprintf(stderr, "calibrate_mpi: %s\n",
                 std::string(params.status().message()).c_str());
    return 2;
  }
  const char* names[] = {"internode", "intranode"};
  for (int d = 0; d < 2; ++d) {
    const auto& h = params->levels[d].hockney;
    std::printf("%s: Hockney 1 MB = %.6g s, tau-Lop 1 MB = %.6g s\n", names[d],
                h.alpha + h.beta * 1e6,
                rankmap::core::TauLopTime(params->levels[d].taulop, 1e6, 1));
  }
  std::printf("%zu rules OK\n", rules->size());
  return 0;
}

// Median of `trials` measurements of the one-way time of an m-byte ping-pong
// (reps round trips each). Only ranks 0 and 1 take part.
double PingPong(int rank, std::vector<char>& buf, int m, int reps, int trials) {
  std::vector<double> t;
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) {
      if (rank == 0) {
        MPI_Send(buf.data(), m, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), m, MPI_BYTE, 1, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf.data(), m, MPI_BYTE, 0, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), m, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
      }
    }
    t.push_back((MPI_Wtime() - t0) / (2.0 * reps));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Median time for tau concurrent m-byte transfers 0 -> 1, measured on rank 0
// until rank 1's zero-byte acknowledgement arrives, minus the one-way time of
// an empty message.
double Concurrent(int rank, std::vector<std::vector<char>>& bufs, int m,
                  int tau, int reps, int trials, double empty_one_way) {
  std::vector<double> t;
  std::vector<MPI_Request> req(tau);
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) {
      if (rank == 0) {
        for (int i = 0; i < tau; ++i) {
          MPI_Isend(bufs[i].data(), m, MPI_BYTE, 1, kTag + 1 + i,
                    MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(tau, req.data(), MPI_STATUSES_IGNORE);
        MPI_Recv(nullptr, 0, MPI_BYTE, 1, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        for (int i = 0; i < tau; ++i) {
          MPI_Irecv(bufs[i].data(), m, MPI_BYTE, 0, kTag + 1 + i,
                    MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(tau, req.data(), MPI_STATUSES_IGNORE);
        MPI_Send(nullptr, 0, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
      }
    }
    t.push_back(std::max((MPI_Wtime() - t0) / reps - empty_one_way, 0.0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int Calibrate(const char* out_path, bool quick) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0)
      std::fprintf(stderr, "calibrate_mpi: needs at least 2 ranks\n");
    return 2;
  }
  // Same host?
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  char other[MPI_MAX_PROCESSOR_NAME] = {};
  if (rank == 1)
    MPI_Send(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, kTag, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(other, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, kTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }

  const int max_size = quick ? 1 << 16 : 1 << 22;
  const int trials = quick ? 3 : 7;
  std::vector<int> sizes;
  for (int m = 1; m <= max_size; m *= 8) sizes.push_back(m);
  if (sizes.back() != max_size) sizes.push_back(max_size);
  auto reps_for = [quick](int m) {
    const int base = quick ? 20 : 200;
    return std::max(2, base / (1 + m / 65536));
  };
  std::vector<char> buf(max_size, 1);
  std::vector<std::vector<char>> bufs(kMaxTau, std::vector<char>(max_size, 2));

  std::vector<Sample> pingpong;
  for (int m : sizes) {
    PingPong(rank, buf, m, 2, 1);  // warm-up (connection setup, page faults)
    pingpong.push_back(
        {static_cast<double>(m), PingPong(rank, buf, m, reps_for(m), trials)});
  }
  const double empty = PingPong(rank, buf, 0, reps_for(0), trials);
  std::vector<std::vector<Sample>> per_tau(kMaxTau);
  for (int tau = 1; tau <= kMaxTau; ++tau) {
    for (int m : sizes) {
      per_tau[tau - 1].push_back(
          {static_cast<double>(m),
           Concurrent(rank, bufs, m, tau, reps_for(m), trials, empty)});
    }
  }
  if (rank != 0) return 0;

  auto hockney = rankmap::core::FitHockney(pingpong);
  auto line = rankmap::core::FitLine(pingpong);
  auto taulop = rankmap::core::FitTauLop(per_tau);
  if (!hockney.ok() || !taulop.ok() || !line.ok()) {
    std::fprintf(stderr, "calibrate_mpi: fit failed: %s %s\n",
                 std::string(hockney.status().message()).c_str(),
                 std::string(taulop.status().message()).c_str());
    return 1;
  }
  ChannelParams c;
  c.hockney = *hockney;
  c.lmo = {hockney->alpha,
           0,
           0,
           0,
           0,
           hockney->beta > 0 ? 1.0 / hockney->beta : 1e30};
  c.hloggp = {hockney->alpha, 0, 0, 0, hockney->beta};
  c.taulop = *taulop;
  const std::string selector =
      std::strcmp(name, other) == 0 ? "intranode" : "internode";
  std::ofstream out(out_path);
  if (!out) {
    std::fprintf(stderr, "calibrate_mpi: %s: cannot write\n", out_path);
    return 2;
  }
  out << "# rankmap model parameters measured by calibrate_mpi between ranks 0 "
         "("
      << name << ") and 1 (" << other << ")\n";
  out << "# ping-pong sizes 1.." << max_size
      << " bytes, Hockney fit rms residual " << line->rms_residual << " s\n";
  for (Model m :
       {Model::kHockney, Model::kLmo, Model::kHLogGP, Model::kTauLop}) {
    out << FormatParamRule(selector, m, c) << "\n";
  }
  out.close();
  std::printf(
      "calibrate_mpi: %s: alpha %.3g s, beta %.3g s/B (%.3g GB/s); wrote %s\n",
      selector.c_str(), hockney->alpha, hockney->beta,
      hockney->beta > 0 ? 1e-9 / hockney->beta : 0.0, out_path);
  return out ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--check") == 0) return Check(argv[2]);
  bool quick = false;
  const char* out = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (argv[i][0] != '-' && out == nullptr) {
      out = argv[i];
    } else {
      out = nullptr;
      break;
    }
  }
  if (out == nullptr) {
    std::fprintf(stderr,
                 "usage: mpirun -np 2 calibrate_mpi [--quick] OUT.params\n"
                 "       calibrate_mpi --check FILE\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  const int status = Calibrate(out, quick);
  MPI_Finalize();
  return status;
}
