// Heterogeneous SUMMA, C = A x B, with real data on rectangles sized by
// processor speed and ordered by the topology-aware arrangement (Malik's
// Algorithm 2), checked against a serial multiply.
//
//   mpirun -np 4 summa_mpi [--speeds=3,2,2,1] [--clusters=0,1,1,0] [--n=64]
//                          [--block=4]
//
// World rank p is processor p with speed speeds[p]. The processors form two
// clusters joined by a slow link (bandwidth 100 inside a cluster, 10 between);
// by default processor p is in cluster ((p + 1) / 2) % 2, i.e. 0 1 1 0 0 1 ...,
// which the default column-based partition of 3,2,2,1 leaves mixed so that the
// arrangement has something to improve. Two runs:
//   1. MPI_COMM_WORLD on the column-based partition as computed (start);
//   2. the communicator from MPI_Comm_split in the front end's rank order
//      (new rank r runs on processor rank_order[r]) on the arranged partition.
// A, B and C share one partition: the owner of a C rectangle owns the same
// rectangles of A and B. At block step k the owners of block column k of A and
// block row k of B send each rectangle the pieces it needs (point to point),
// and every rectangle adds the product of its two panels. C is gathered on rank
// 0 and compared exactly with a serial multiply (small integers in doubles).
// Rank 0 prints the front-end report (arrangement cost before/after) and one
// "product OK" line per run; the exit status is 1 when a product is wrong.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "graphs/frontends/matrix_frontend.h"
#include "tiling/partition.h"

namespace rankmap::examples {
namespace {

using tiling::Partition;
using tiling::Rect;

constexpr int kTagA = 0;
constexpr int kTagB = 1;

struct Options {
  std::vector<double> speeds;
  std::vector<int32_t> clusters;  // 0 or 1 per processor
  int64_t n = 64;
  int64_t block = 4;
};

double AValue(int64_t i, int64_t j) { return (i + 2 * j) % 7 - 3; }
double BValue(int64_t i, int64_t j) { return (2 * i + j) % 5 - 2; }

// Parses --speeds=a,b,..., --clusters=c,d,..., --n=N, --block=B. Without
// --speeds, processor p gets the p-th entry of 3,2,2,1 repeated. Errors: bad
// numbers, lists not one entry per process, n above 4096, more than 64
// processes (message tags stay below MPI's guaranteed 32767).
absl::StatusOr<Options> ParseOptions(int argc, char** argv, int size) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "--speeds") {
      for (absl::string_view piece : absl::StrSplit(value, ',')) {
        double s = 0;
        if (!absl::SimpleAtod(piece, &s)) {
          return absl::InvalidArgumentError("summa_mpi: bad speed '" +
                                            std::string(piece) + "'");
        }
        o.speeds.push_back(s);
      }
    } else if (key == "--clusters") {
      for (absl::string_view piece : absl::StrSplit(value, ',')) {
        int32_t c = 0;
        if (!absl::SimpleAtoi(piece, &c) || c < 0 || c > 1) {
          return absl::InvalidArgumentError("summa_mpi: bad cluster '" +
                                            std::string(piece) + "' (0 or 1)");
        }
        o.clusters.push_back(c);
      }
    } else if (key == "--n" && absl::SimpleAtoi(value, &o.n)) {
    } else if (key == "--block" && absl::SimpleAtoi(value, &o.block)) {
    } else {
      return absl::InvalidArgumentError("summa_mpi: bad argument '" + arg +
                                        "'");
    }
  }
  if (o.speeds.empty()) {
    constexpr double kDefault[] = {3, 2, 2, 1};
    for (int p = 0; p < size; ++p) o.speeds.push_back(kDefault[p % 4]);
  }
  if (o.clusters.empty()) {
    for (int p = 0; p < size; ++p) o.clusters.push_back(((p + 1) / 2) % 2);
  }
  if (static_cast<int>(o.clusters.size()) != size) {
    return absl::InvalidArgumentError(
        "summa_mpi: " + std::to_string(o.clusters.size()) + " clusters for " +
        std::to_string(size) + " processes");
  }
  if (static_cast<int>(o.speeds.size()) != size) {
    return absl::InvalidArgumentError(
        "summa_mpi: " + std::to_string(o.speeds.size()) + " speeds for " +
        std::to_string(size) + " processes");
  }
  if (size > 64) {
    return absl::InvalidArgumentError("summa_mpi: more than 64 processes");
  }
  if (o.n > 4096) {
    return absl::InvalidArgumentError("summa_mpi: n above 4096");
  }
  return o;
}

// The element-level extent of a block rectangle.
struct Box {
  int64_t row, col, height, width;
};
Box Elements(const Rect& r, int64_t b) {
  return {r.row * b, r.col * b, r.height * b, r.width * b};
}

// Distributed SUMMA on `comm`: processor (owner) p is rank rank_of[p]. Returns
// the full C on rank 0 (empty elsewhere).
std::vector<double> Multiply(MPI_Comm comm, const Partition& part,
                             const std::vector<int>& rank_of, int64_t n,
                             int64_t b) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  const int num_rects = static_cast<int>(part.rects.size());
  std::vector<int> mine;
  for (int r = 0; r < num_rects; ++r) {
    if (rank_of[part.rects[r].owner] == me) mine.push_back(r);
  }
  // Local A, B, C of each rectangle, row-major, indexed by rectangle id.
  std::vector<std::vector<double>> a(num_rects), bm(num_rects), c(num_rects);
  for (int r : mine) {
    const Box x = Elements(part.rects[r], b);
    a[r].resize(x.height * x.width);
    bm[r].resize(x.height * x.width);
    c[r].assign(x.height * x.width, 0.0);
    for (int64_t i = 0; i < x.height; ++i) {
      for (int64_t j = 0; j < x.width; ++j) {
        a[r][i * x.width + j] = AValue(x.row + i, x.col + j);
        bm[r][i * x.width + j] = BValue(x.row + i, x.col + j);
      }
    }
  }
  // Panels of each own rectangle: A panel height x b row-major, B panel stored
  // transposed (width x b) so that a column range is contiguous.
  std::vector<std::vector<double>> a_panel(num_rects), b_panel(num_rects);
  for (int r : mine) {
    const Box x = Elements(part.rects[r], b);
    a_panel[r].resize(x.height * b);
    b_panel[r].resize(x.width * b);
  }
  // Unique tag per (sender rect, receiver rect, matrix); MPI keeps the order
  // of equal tags between steps.
  auto tag = [&](int s, int r, int kind) {
    return (s * num_rects + r) * 2 + kind;
  };
  const int64_t steps = n / b;
  for (int64_t k = 0; k < steps; ++k) {
    std::vector<MPI_Request> requests;
    std::deque<std::vector<double>> send_buffers;  // stable addresses
    // Receives the overlap of my block range [r0, r0 + rn) with the sender's
    // [s0, s0 + sn) into `panel` (b x b elements per block).
    auto receive = [&](std::vector<double>& panel, int64_t r0, int64_t rn,
                       int64_t s0, int64_t sn, int from, int t) {
      const int64_t lo = std::max(r0, s0);
      const int64_t hi = std::min(r0 + rn, s0 + sn);
      if (lo >= hi) return;
      requests.emplace_back();
      MPI_Irecv(panel.data() + (lo - r0) * b * b,
                static_cast<int>((hi - lo) * b * b), MPI_DOUBLE, from, t, comm,
                &requests.back());
    };
    // Receives: every rectangle S holding block column k (A) overlapping my
    // rows, or block row k (B) overlapping my columns.
    for (int r : mine) {
      const Rect& R = part.rects[r];
      for (int s = 0; s < num_rects; ++s) {
        const Rect& S = part.rects[s];
        const int from = rank_of[S.owner];
        if (S.col <= k && k < S.col + S.width) {
          receive(a_panel[r], R.row, R.height, S.row, S.height, from,
                  tag(s, r, kTagA));
        }
        if (S.row <= k && k < S.row + S.height) {
          receive(b_panel[r], R.col, R.width, S.col, S.width, from,
                  tag(s, r, kTagB));
        }
      }
    }
    // Sends: the pieces of my rectangles every rectangle R needs.
    for (int s : mine) {
      const Rect& S = part.rects[s];
      const Box xs = Elements(S, b);
      for (int r = 0; r < num_rects; ++r) {
        const Rect& R = part.rects[r];
        const int to = rank_of[R.owner];
        if (S.col <= k && k < S.col + S.width) {
          const int64_t lo = std::max(R.row, S.row) * b;
          const int64_t hi = std::min(R.row + R.height, S.row + S.height) * b;
          if (lo < hi) {
            std::vector<double> buf;
            const int64_t c0 = k * b - xs.col;
            for (int64_t i = lo; i < hi; ++i) {
              for (int64_t j = 0; j < b; ++j) {
                buf.push_back(a[s][(i - xs.row) * xs.width + c0 + j]);
              }
            }
            send_buffers.push_back(std::move(buf));
            requests.emplace_back();
            MPI_Isend(send_buffers.back().data(),
                      static_cast<int>(send_buffers.back().size()), MPI_DOUBLE,
                      to, tag(s, r, kTagA), comm, &requests.back());
          }
        }
        if (S.row <= k && k < S.row + S.height) {
          const int64_t lo = std::max(R.col, S.col) * b;
          const int64_t hi = std::min(R.col + R.width, S.col + S.width) * b;
          if (lo < hi) {
            std::vector<double> buf;
            const int64_t r0 = k * b - xs.row;
            for (int64_t j = lo; j < hi; ++j) {
              for (int64_t i = 0; i < b; ++i) {
                buf.push_back(bm[s][(r0 + i) * xs.width + (j - xs.col)]);
              }
            }
            send_buffers.push_back(std::move(buf));
            requests.emplace_back();
            MPI_Isend(send_buffers.back().data(),
                      static_cast<int>(send_buffers.back().size()), MPI_DOUBLE,
                      to, tag(s, r, kTagB), comm, &requests.back());
          }
        }
      }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                MPI_STATUSES_IGNORE);
    for (int r : mine) {
      const Box x = Elements(part.rects[r], b);
      for (int64_t i = 0; i < x.height; ++i) {
        for (int64_t j = 0; j < x.width; ++j) {
          double sum = 0;
          for (int64_t kk = 0; kk < b; ++kk) {
            sum += a_panel[r][i * b + kk] * b_panel[r][j * b + kk];
          }
          c[r][i * x.width + j] += sum;
        }
      }
    }
  }
  // Gather C on rank 0, in a tag range of its own.
  auto c_tag = [&](int r) { return 2 * num_rects * num_rects + r; };
  std::vector<MPI_Request> requests;
  for (int r : mine) {
    requests.emplace_back();
    MPI_Isend(c[r].data(), static_cast<int>(c[r].size()), MPI_DOUBLE, 0,
              c_tag(r), comm, &requests.back());
  }
  std::vector<double> full;
  if (me == 0) {
    full.assign(n * n, 0.0);
    for (int r = 0; r < num_rects; ++r) {
      const Box x = Elements(part.rects[r], b);
      std::vector<double> buf(x.height * x.width);
      MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE,
               rank_of[part.rects[r].owner], c_tag(r), comm, MPI_STATUS_IGNORE);
      for (int64_t i = 0; i < x.height; ++i) {
        for (int64_t j = 0; j < x.width; ++j) {
          full[(x.row + i) * n + x.col + j] = buf[i * x.width + j];
        }
      }
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
              MPI_STATUSES_IGNORE);
  return full;
}

// Serial reference product.
std::vector<double> SerialProduct(int64_t n) {
  std::vector<double> c(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) {
      const double aik = AValue(i, k);
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += aik * BValue(k, j);
    }
  }
  return c;
}

// Multiplies on `comm`, checks on rank 0 and prints one line there; returns
// the verdict on every rank.
bool RunAndCheck(MPI_Comm comm, const Partition& part,
                 const std::vector<int>& rank_of, const Options& o,
                 const std::string& label) {
  const std::vector<double> c = Multiply(comm, part, rank_of, o.n, o.block);
  int me = 0;
  MPI_Comm_rank(comm, &me);
  int ok = 1;
  if (me == 0) {
    const std::vector<double> want = SerialProduct(o.n);
    int64_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += c[i] != want[i];
    double trace = 0;
    for (int64_t i = 0; i < o.n; ++i) trace += c[i * o.n + i];
    ok = bad == 0;
    if (ok) {
      std::printf("%s: product OK (n=%lld, trace %.0f)\n", label.c_str(),
                  static_cast<long long>(o.n), trace);
    } else {
      std::printf("%s: product WRONG in %lld elements\n", label.c_str(),
                  static_cast<long long>(bad));
    }
    std::fflush(stdout);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

int MpiMain(int argc, char** argv) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Every rank parses and computes the same partitions (deterministic), so
  // every rank takes the same error branch.
  absl::StatusOr<Options> o = ParseOptions(argc, argv, size);
  graphs::MatrixFrontendOptions fo;
  absl::StatusOr<graphs::MatrixFrontendResult> start =
      absl::InvalidArgumentError("unset");
  absl::StatusOr<graphs::MatrixFrontendResult> arranged = start;
  if (o.ok()) {
    fo.speeds = o->speeds;
    fo.n = o->n;
    fo.block = o->block;
    start = graphs::SummaFrontend(fo);
    fo.num_clusters = 2;
    fo.clusters = o->clusters;
    fo.bandwidth = {100, 10, 10, 100};
    arranged = graphs::SummaFrontend(fo);
  }
  const absl::Status status = !o.ok()       ? o.status()
                              : !start.ok() ? start.status()
                                            : arranged.status();
  if (!status.ok()) {
    if (me == 0) {
      std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
    }
    return 2;
  }
  if (me == 0) {
    std::printf("%s", arranged->report.c_str());
    std::fflush(stdout);
  }

  std::vector<int> identity(size);
  for (int p = 0; p < size; ++p) identity[p] = p;
  bool ok = RunAndCheck(MPI_COMM_WORLD, start->partition, identity, *o,
                        "world (start partition)");

  // New rank r runs on processor rank_order[r]: split with that key.
  std::vector<int> rank_of(size);
  for (int r = 0; r < size; ++r) rank_of[arranged->rank_order[r]] = r;
  MPI_Comm work = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank_of[me], &work);
  int new_rank = 0;
  MPI_Comm_rank(work, &new_rank);
  int agree = new_rank == rank_of[me], all_agree = 0;
  MPI_Allreduce(&agree, &all_agree, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (me == 0) {
    std::printf("reordered ranks follow rank_order: %s\n",
                all_agree ? "yes" : "no");
  }
  ok = RunAndCheck(work, arranged->partition, rank_of, *o,
                   "reordered (arranged partition)") &&
       ok && all_agree;
  MPI_Comm_free(&work);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace rankmap::examples

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = rankmap::examples::MpiMain(argc, argv);
  MPI_Finalize();
  return rc;
}
