// Calibrates the communication-time models of models/cost_model.h on the
// machine at hand and writes a model parameter file (format in
// models/channel_params.h).
//
//   mpirun -np N calibrate_mpi [--quick] OUT.params   measure, write OUT
//   calibrate_mpi --check FILE [TOPOLOGY]             parse FILE, resolve it on
//                                                     TOPOLOGY (default this)
//
// Rank 0 finds, for every other rank, the channel between them: `internode`
// for another host; on its own host the kind of the lowest common ancestor of
// the two bindings in the machine's hwloc tree (Package, L3Cache, ... ; `self`
// for a shared core) when both are bound to a core, else `intranode`. It then
// measures against one rank per distinct channel (the others only join the
// barriers): a ping-pong over message sizes gives one-way times, fitted by
// least squares to Hockney's alpha + beta m; tau = 1..4 concurrent transfers of
// m bytes each (posted at once, timed until the last arrives) give tau-Lop's
// L(m, tau). Point-to-point measurements cannot separate processor from
// network terms, so the per-level LMO and HLogGP lines put the whole latency on
// L and the whole per-byte time on the network (1 / rate, G). To cover every
// level, bind ranks to cores and spread them (e.g. `mpirun -np 8 --bind-to
// core --map-by core`, or --map-by node for the network).
//
// With 3 to 16 ranks it then runs LMO's experiments among all of them (seed
// 004 section 2.2; models/lmo_fit.h): a round trip of every pair and a
// one-to-two from every rank to every pair of others, with empty and M-byte
// messages, and writes each rank's C_i, t_i (`proc` lines) and each pair's
// L_ij, beta_ij (`pair` lines). A rank's processor is named by its leaf index
// in this machine's topology when all ranks share one host and each is bound
// to its own PU, by `host:pu` when they are bound on several hosts, by its host
// when it is alone there; otherwise processor r is leaf r (evaluate with ranks
// mapped onto the leaves in order), as the file says.
//
// Exit status: 0 on success, 2 on bad usage or a file that does not parse, 1
// when a fit fails.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/channel_params.h"
#include "models/cost_model_fit.h"
#include "models/cost_model_taulop.h"
#include "models/lmo_fit.h"
#include "topology/binding.h"
#include "topology/topology.h"
#include "topology/tree.h"

namespace {

using rankmap::models::ChannelParams;
using rankmap::models::FormatPairRule;
using rankmap::models::FormatParamRule;
using rankmap::models::FormatProcessorRule;
using rankmap::models::Model;
using rankmap::models::Sample;

constexpr int kMaxTau = 4;
constexpr int kTag = 11;

int Check(const char* path, const char* topology) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "calibrate_mpi: %s: cannot open\n", path);
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  auto rules = rankmap::models::ParseModelParams(buf.str(), path);
  if (!rules.ok()) {
    std::fprintf(stderr, "calibrate_mpi: %s\n",
                 std::string(rules.status().message()).c_str());
    return 2;
  }
  for (const auto& r : *rules) {
    std::string what = r.keyword == "level" ? r.selector : r.keyword;
    for (const std::string& p : r.processors) what += " " + p;
    std::printf("%s:%d: %s %s, %zu values\n", path, r.line, what.c_str(),
                rankmap::models::ModelName(r.model), r.values.size());
  }
  // Apply the rules to the topology so that selectors and tau-Lop tables are
  // checked too, and show what each level then predicts for one megabyte.
  auto tree = rankmap::topology::LoadTopology(topology);
  if (!tree.ok()) {
    std::fprintf(stderr, "calibrate_mpi: %s\n",
                 std::string(tree.status().message()).c_str());
    return 2;
  }
  auto params = rankmap::models::ResolveModelParams(*rules, *tree);
  if (!params.ok()) {
    std::fprintf(stderr, "calibrate_mpi: %s\n",
                 std::string(params.status().message()).c_str());
    return 2;
  }
  for (size_t d = 0; d < params->levels.size(); ++d) {
    const auto& c = params->levels[d];
    std::printf("depth %zu: Hockney 1 MB = %.6g s, tau-Lop 1 MB = %.6g s\n", d,
                c.hockney.alpha + c.hockney.beta * 1e6,
                rankmap::models::TauLopTime(c.taulop, 1e6, 1));
  }
  std::printf("%zu rules OK\n", rules->size());
  return 0;
}

// Median of `trials` measurements of the one-way time of an m-byte ping-pong
// between rank 0 and `peer` (reps round trips each); other ranks only join the
// barriers.
double PingPong(int rank, int peer, std::vector<char>& buf, int m, int reps,
                int trials) {
  std::vector<double> t;
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) {
      if (rank == 0) {
        MPI_Send(buf.data(), m, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), m, MPI_BYTE, peer, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == peer) {
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

// Median time for tau concurrent m-byte transfers 0 -> peer, measured on rank
// 0 until the peer's empty acknowledgement arrives, minus the one-way time of
// an empty message.
double Concurrent(int rank, int peer, std::vector<std::vector<char>>& bufs,
                  int m, int tau, int reps, int trials, double empty_one_way) {
  std::vector<double> t;
  std::vector<MPI_Request> req(tau);
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) {
      if (rank == 0) {
        for (int i = 0; i < tau; ++i) {
          MPI_Isend(bufs[i].data(), m, MPI_BYTE, peer, kTag + 1 + i,
                    MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(tau, req.data(), MPI_STATUSES_IGNORE);
        MPI_Recv(nullptr, 0, MPI_BYTE, peer, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == peer) {
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

// The channel between rank 0 and every rank, as a parameter-file selector:
// `internode` for another host; for the same host the kind of the lowest
// common ancestor of the two bindings in this machine's hwloc tree when both
// ranks are bound to one core or PU (`self` when they share it), otherwise
// `intranode`. Runs on rank 0.
std::vector<std::string> Selectors(const std::vector<std::string>& hosts,
                                   const std::vector<int>& first_pu,
                                   const std::vector<int>& last_pu) {
  const size_t n = hosts.size();
  std::vector<std::string> out(n, "intranode");
  auto tree = rankmap::topology::LoadTopology("this");
  std::vector<rankmap::topology::NodeId> place(n, -1);
  if (tree.ok()) {
    std::vector<int> leaf_of_pu;
    for (int l = 0; l < tree->num_leaves(); ++l) {
      const int os = tree->os_index(l);
      if (os < 0) continue;
      if (static_cast<int>(leaf_of_pu.size()) <= os) {
        leaf_of_pu.resize(os + 1, -1);
      }
      leaf_of_pu[os] = l;
    }
    auto leaf = [&](int os) {
      return os >= 0 && os < static_cast<int>(leaf_of_pu.size())
                 ? leaf_of_pu[os]
                 : -1;
    };
    for (size_t r = 0; r < n; ++r) {
      const int a = leaf(first_pu[r]), b = leaf(last_pu[r]);
      if (a < 0 || b < 0) continue;
      const auto p = tree->Lca(a, b);
      if (tree->is_leaf(p) || tree->kind(p) == "Core") place[r] = p;
    }
  }
  for (size_t r = 0; r < n; ++r) {
    if (hosts[r] != hosts[0]) {
      out[r] = "internode";
    } else if (place[0] >= 0 && place[r] >= 0) {
      const auto lca = tree->Lca(place[0], place[r]);
      out[r] = lca == place[0] || lca == place[r] ? "self" : tree->kind(lca);
    }
  }
  return out;
}

// Median of trials of reps repetitions, per repetition, measured on `me`.
template <typename F>
double Timed(int me, int initiator, int reps, int trials, F&& body) {
  std::vector<double> t;
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) body();
    t.push_back((MPI_Wtime() - t0) / reps);
  }
  std::sort(t.begin(), t.end());
  return me == initiator ? t[t.size() / 2] : 0.0;
}

// LMO's experiments among all ranks (models/lmo_fit.h): round trips i -> j
// -> i for i < j and one-to-two i -> {j, k} -> i, with empty and m-byte
// messages, the reply always empty. Every rank runs every experiment's
// barriers; the results are summed onto rank 0.
rankmap::models::LmoExperiments MeasureLmo(int rank, int size, int m, int reps,
                                           int trials) {
  std::vector<char> buf(2 * static_cast<size_t>(m) + 2, 3);
  std::vector<double> rt(2 * size * size, 0.0),
      o2t(2 * size * size * size, 0.0);
  for (int sz = 0; sz < 2; ++sz) {
    const int bytes = sz == 0 ? 0 : m;
    for (int i = 0; i < size; ++i) {
      for (int j = i + 1; j < size; ++j) {
        rt[(sz * size + i) * size + j] = Timed(rank, i, reps, trials, [&] {
          if (rank == i) {
            MPI_Send(buf.data(), bytes, MPI_BYTE, j, kTag, MPI_COMM_WORLD);
            MPI_Recv(nullptr, 0, MPI_BYTE, j, kTag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
          } else if (rank == j) {
            MPI_Recv(buf.data(), bytes, MPI_BYTE, i, kTag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(nullptr, 0, MPI_BYTE, i, kTag, MPI_COMM_WORLD);
          }
        });
      }
    }
    for (int i = 0; i < size; ++i) {
      for (int j = 0; j < size; ++j) {
        for (int k = j + 1; k < size; ++k) {
          if (j == i || k == i) continue;
          o2t[((sz * size + i) * size + j) * size + k] =
              Timed(rank, i, reps, trials, [&] {
                if (rank == i) {
                  MPI_Request req[2];
                  MPI_Isend(buf.data(), bytes, MPI_BYTE, j, kTag,
                            MPI_COMM_WORLD, &req[0]);
                  MPI_Isend(buf.data() + m + 1, bytes, MPI_BYTE, k, kTag,
                            MPI_COMM_WORLD, &req[1]);
                  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
                  MPI_Recv(nullptr, 0, MPI_BYTE, j, kTag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
                  MPI_Recv(nullptr, 0, MPI_BYTE, k, kTag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
                } else if (rank == j || rank == k) {
                  MPI_Recv(buf.data(), bytes, MPI_BYTE, i, kTag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
                  MPI_Send(nullptr, 0, MPI_BYTE, i, kTag, MPI_COMM_WORLD);
                }
              });
        }
      }
    }
  }
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : rt.data(), rt.data(),
             static_cast<int>(rt.size()), MPI_DOUBLE, MPI_SUM, 0,
             MPI_COMM_WORLD);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : o2t.data(), o2t.data(),
             static_cast<int>(o2t.size()), MPI_DOUBLE, MPI_SUM, 0,
             MPI_COMM_WORLD);
  rankmap::models::LmoExperiments e(size, m);
  for (int sz = 0; sz < 2; ++sz) {
    for (int i = 0; i < size; ++i) {
      for (int j = 0; j < size; ++j) {
        if (i < j) e.roundtrip(i, j, sz) = rt[(sz * size + i) * size + j];
        for (int k = j + 1; k < size; ++k) {
          if (j != i && k != i) {
            e.one_to_two(i, j, k, sz) =
                o2t[((sz * size + i) * size + j) * size + k];
          }
        }
      }
    }
  }
  return e;
}

// How the parameter file names each rank's processor (see the top of this
// file); `note` explains a fallback. Runs on rank 0.
std::vector<std::string> ProcessorNames(const std::vector<std::string>& hosts,
                                        const std::vector<int>& first_pu,
                                        const std::vector<int>& last_pu,
                                        std::string& note) {
  const size_t n = hosts.size();
  std::vector<std::string> names(n);
  bool bound = true, one_host = true, one_per_host = true;
  std::vector<std::string> keys;
  for (size_t r = 0; r < n; ++r) {
    bound &= first_pu[r] >= 0 && first_pu[r] == last_pu[r];
    one_host &= hosts[r] == hosts[0];
    keys.push_back(hosts[r] + ":" + std::to_string(first_pu[r]));
  }
  std::vector<std::string> sorted_hosts = hosts;
  std::sort(sorted_hosts.begin(), sorted_hosts.end());
  one_per_host = std::adjacent_find(sorted_hosts.begin(), sorted_hosts.end()) ==
                 sorted_hosts.end();
  std::sort(keys.begin(), keys.end());
  bound &= std::adjacent_find(keys.begin(), keys.end()) == keys.end();
  if (bound && one_host) {
    auto tree = rankmap::topology::LoadTopology("this");
    if (tree.ok()) {
      for (size_t r = 0; r < n; ++r) {
        for (int l = 0; l < tree->num_leaves(); ++l) {
          if (tree->os_index(l) == first_pu[r]) names[r] = std::to_string(l);
        }
      }
      if (std::none_of(names.begin(), names.end(),
                       [](const std::string& x) { return x.empty(); })) {
        return names;
      }
    }
  }
  if (bound && !one_host) {
    for (size_t r = 0; r < n; ++r) {
      names[r] = hosts[r] + ":" + std::to_string(first_pu[r]);
    }
    return names;
  }
  if (one_per_host && !one_host) return hosts;
  note =
      "# ranks are not bound one per PU: processor r below is leaf r (evaluate "
      "with rank r on leaf r)\n";
  for (size_t r = 0; r < n; ++r) names[r] = std::to_string(r);
  return names;
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
  // Where every rank runs: host name and the first and last PU it is bound to.
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  int pus[2] = {-1, -1};
  if (auto b = rankmap::topology::CurrentBindingPus(); b.ok() && !b->empty()) {
    pus[0] = b->front();
    pus[1] = b->back();
  }
  std::vector<char> names(rank == 0 ? size * MPI_MAX_PROCESSOR_NAME : 1);
  std::vector<int> all_pus(rank == 0 ? 2 * size : 1);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(),
             MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Gather(pus, 2, MPI_INT, all_pus.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);

  // One partner per distinct channel (the lowest rank that uses it).
  std::vector<std::string> selector;
  std::vector<int> partners;
  std::vector<std::string> hosts(size);
  std::vector<int> first(size), last(size);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      hosts[r] = std::string(&names[r * MPI_MAX_PROCESSOR_NAME]);
      first[r] = all_pus[2 * r];
      last[r] = all_pus[2 * r + 1];
    }
    const std::vector<std::string> all = Selectors(hosts, first, last);
    for (int r = 1; r < size; ++r) {
      if (std::find(selector.begin(), selector.end(), all[r]) ==
          selector.end()) {
        selector.push_back(all[r]);
        partners.push_back(r);
      }
    }
  }
  int num_partners = static_cast<int>(partners.size());
  MPI_Bcast(&num_partners, 1, MPI_INT, 0, MPI_COMM_WORLD);
  partners.resize(num_partners);
  MPI_Bcast(partners.data(), num_partners, MPI_INT, 0, MPI_COMM_WORLD);

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

  std::ofstream out;
  if (rank == 0) {
    out.open(out_path);
    if (!out)
      std::fprintf(stderr, "calibrate_mpi: %s: cannot write\n", out_path);
    out << "# rankmap model parameters measured by calibrate_mpi on " << name
        << ": ping-pong sizes 1.." << max_size << " bytes, tau = 1.." << kMaxTau
        << " concurrent transfers\n";
  }
  int status = 0;
  for (int k = 0; k < num_partners; ++k) {
    const int peer = partners[k];
    std::vector<Sample> pingpong;
    for (int m : sizes) {
      PingPong(rank, peer, buf, m, 2, 1);  // warm-up (connections, pages)
      pingpong.push_back({static_cast<double>(m),
                          PingPong(rank, peer, buf, m, reps_for(m), trials)});
    }
    const double empty = PingPong(rank, peer, buf, 0, reps_for(0), trials);
    std::vector<std::vector<Sample>> per_tau(kMaxTau);
    for (int tau = 1; tau <= kMaxTau; ++tau) {
      for (int m : sizes) {
        per_tau[tau - 1].push_back(
            {static_cast<double>(m),
             Concurrent(rank, peer, bufs, m, tau, reps_for(m), trials, empty)});
      }
    }
    if (rank != 0) continue;
    auto line = rankmap::models::FitLine(pingpong);
    auto hockney = rankmap::models::FitHockney(pingpong);
    auto taulop = rankmap::models::FitTauLop(per_tau);
    if (!hockney.ok() || !taulop.ok() || !line.ok()) {
      std::fprintf(stderr, "calibrate_mpi: fit failed for rank %d: %s %s\n",
                   peer, std::string(hockney.status().message()).c_str(),
                   std::string(taulop.status().message()).c_str());
      status = 1;
      continue;
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
    out << "# " << selector[k] << ": ranks 0 and " << peer
        << ", Hockney fit rms residual " << line->rms_residual << " s\n";
    for (Model m :
         {Model::kHockney, Model::kLmo, Model::kHLogGP, Model::kTauLop}) {
      out << FormatParamRule(selector[k], m, c) << "\n";
    }
    std::printf(
        "calibrate_mpi: %s (rank %d): alpha %.3g s, beta %.3g s/B (%.3g "
        "GB/s)\n",
        selector[k].c_str(), peer, hockney->alpha, hockney->beta,
        hockney->beta > 0 ? 1e-9 / hockney->beta : 0.0);
  }
  if (size >= 3 && size <= 16) {
    const int m = quick ? 1 << 14 : 1 << 16;
    const rankmap::models::LmoExperiments e =
        MeasureLmo(rank, size, m, quick ? 5 : 50, trials);
    if (rank == 0) {
      auto est = rankmap::models::EstimateLmo(e);
      if (!est.ok()) {
        std::fprintf(stderr, "calibrate_mpi: LMO estimate failed: %s\n",
                     std::string(est.status().message()).c_str());
        status = 1;
      } else {
        std::string note;
        const std::vector<std::string> names =
            ProcessorNames(hosts, first, last, note);
        out << "# LMO per processor and per pair (seed 004 section 2.2): round "
               "trips and one-to-two experiments of 0 and "
            << m << " bytes among " << size << " ranks; " << est->clamped
            << " negative estimates clamped to 0\n"
            << note;
        for (int i = 0; i < size; ++i) {
          rankmap::models::ProcessorParams pp;
          pp.lmo_c = est->C[i];
          pp.lmo_t = est->t[i];
          out << FormatProcessorRule(names[i], Model::kLmo, pp) << "\n";
        }
        for (int i = 0; i < size; ++i) {
          for (int j = i + 1; j < size; ++j) {
            rankmap::models::PairParams q;
            q.lmo_l = est->L[i * size + j];
            q.lmo_rate = est->rate[i * size + j];
            out << FormatPairRule(names[i], names[j], Model::kLmo, q) << "\n";
          }
        }
        std::printf(
            "calibrate_mpi: LMO from %d ranks: C_0 %.3g s, t_0 %.3g "
            "s/B\n",
            size, est->C[0], est->t[0]);
      }
    }
  } else if (rank == 0) {
    out << "# no per-processor LMO parameters: the triplet experiments run "
           "with 3 to 16 ranks\n";
  }
  if (rank == 0) {
    out.close();
    if (!out) return 2;
    std::printf("calibrate_mpi: wrote %s\n", out_path);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--check") == 0) {
    return Check(argv[2], argc == 4 ? argv[3] : "this");
  }
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
                 "       calibrate_mpi --check FILE [TOPOLOGY]\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  const int status = Calibrate(out, quick);
  MPI_Finalize();
  return status;
}
