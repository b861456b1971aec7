// summa: heterogeneous SUMMA, C = A x B, on a partition of the block grid into
// rectangles of speed-proportional area (graphs/frontends/partition.h), the
// communication core of examples/summa_mpi made to run under SMPI.
//
//   summa PARTITION [--flow=one-to-all|ring] [--iterations=K]
//   smpirun -np 64 ... ./summa_smpi.so grid.summa --flow=ring
//
// PARTITION is a text file:
//   summa <blocks> <block_size>        # blocks x blocks blocks of b x b
//   doubles rect <row> <col> <height> <width> <owner>    (one line per
//   rectangle, in
//                                                 blocks; owner = rank)
// At block step k the owners of block column k of A and of block row k of B
// send every rectangle the pieces it needs (one-to-all, the default: point to
// point, non-blocking, a piece of A is overlap-rows x b x b doubles), or pass
// them around rings (ring, on column-based partitions: the pivot column's
// piece of each band travels left to right around the band, the pivot row's
// piece of each column top to bottom around the column; Malik's ring flow, the
// one Algorithm 2 arranges for); then every rectangle adds
// the product of its two panels: 2 * h * w * b^3 floating-point operations,
// run for real with a real MPI and simulated at the host's speed under SMPI.
// Rank r owns the rectangles whose owner is r, so the partition fixes both
// the work of each rank and who talks to whom; the hostfile (or mpirun's
// placement) says where each rank runs. With a real MPI the product of two
// integer matrices is checked on rank 0 against a serial multiply ("product
// OK" / "product WRONG"; small n only). Output (rank 0):
//   summa: 128 x 128 blocks of 64, 64 rectangles, 1 iterations
//   time per iteration: 1.234e+00 s
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/program.h"

namespace rankmap::sim {
namespace {

struct Rect {
  long long row, col, height, width;
  int owner;
};

struct Problem {
  long long blocks = 0, b = 0;
  std::vector<Rect> rects;
};

#ifndef SMPI_SHARED_MALLOC
double AValue(long long i, long long j) { return (i + 2 * j) % 7 - 3; }
double BValue(long long i, long long j) { return (2 * i + j) % 5 - 2; }
#endif

// Reads and checks the partition: rectangles inside the grid, covering it
// exactly once, owners in [0, ranks). Returns an error message or "".
std::string Load(const std::string& path, int ranks, Problem& p) {
  std::ifstream in(path);
  if (!in) return path + ": cannot open";
  std::string line, word;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream s(line);
    if (!(s >> word)) continue;
    const std::string at = path + ":" + std::to_string(number) + ": ";
    if (word == "summa") {
      if (!(s >> p.blocks >> p.b) || p.blocks < 1 || p.b < 1 ||
          p.blocks > 65536 || p.b > 65536) {
        return at + "expected 'summa <blocks> <block_size>' (1 to 65536)";
      }
    } else if (word == "rect") {
      Rect r;
      if (!(s >> r.row >> r.col >> r.height >> r.width >> r.owner) ||
          p.blocks == 0 || r.row < 0 || r.col < 0 || r.height < 1 ||
          r.width < 1 || r.row + r.height > p.blocks ||
          r.col + r.width > p.blocks || r.owner < 0 || r.owner >= ranks) {
        return at +
               "expected 'rect <row> <col> <height> <width> <owner>' inside "
               "the grid (after the summa line) with an owner below " +
               std::to_string(ranks);
      }
      p.rects.push_back(r);
    } else {
      return at + "unknown directive '" + word + "'";
    }
    std::string extra;
    if (s >> extra) return at + "unexpected '" + extra + "'";
  }
  if (p.blocks == 0) return path + ": no 'summa' line";
  long long area = 0;
  for (const Rect& r : p.rects) area += r.height * r.width;
  if (area != p.blocks * p.blocks) {
    return path + ": the rectangles cover " + std::to_string(area) +
           " blocks of " + std::to_string(p.blocks * p.blocks);
  }
  for (size_t i = 0; i < p.rects.size(); ++i) {
    for (size_t j = i + 1; j < p.rects.size(); ++j) {
      const Rect &a = p.rects[i], &c = p.rects[j];
      if (a.row < c.row + c.height && c.row < a.row + a.height &&
          a.col < c.col + c.width && c.col < a.col + a.width) {
        return path + ": rectangles " + std::to_string(i) + " and " +
               std::to_string(j) + " overlap";
      }
    }
  }
  return "";
}

// The ring flow's structure of a column-based partition: columns left to
// right, each a stack of full-width rectangles; bands (the row intervals
// between consecutive row cuts of all rectangles), each crossing every column
// in one rectangle.
struct Rings {
  std::vector<std::vector<int>> column;  // rect ids, top to bottom
  std::vector<int> column_of;            // per rect
  std::vector<long long> band_row, band_height;
  std::vector<std::vector<int>> at;  // at[band][column]: the rect
};

std::string MakeRings(const Problem& p, Rings& g) {
  std::vector<std::pair<long long, long long>> spans;  // (col, width)
  for (const Rect& r : p.rects) spans.emplace_back(r.col, r.width);
  std::sort(spans.begin(), spans.end());
  spans.erase(std::unique(spans.begin(), spans.end()), spans.end());
  long long next = 0;
  for (const auto& [col, width] : spans) {
    if (col != next) return "--flow=ring needs a column-based partition";
    next = col + width;
  }
  g.column.assign(spans.size(), {});
  g.column_of.assign(p.rects.size(), -1);
  std::vector<long long> cuts = {p.blocks};
  for (size_t r = 0; r < p.rects.size(); ++r) {
    const size_t c =
        std::lower_bound(spans.begin(), spans.end(),
                         std::make_pair(p.rects[r].col, p.rects[r].width)) -
        spans.begin();
    g.column[c].push_back(static_cast<int>(r));
    g.column_of[r] = static_cast<int>(c);
    cuts.push_back(p.rects[r].row);
  }
  for (auto& col : g.column) {
    std::sort(col.begin(), col.end(),
              [&](int a, int c) { return p.rects[a].row < p.rects[c].row; });
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    g.band_row.push_back(cuts[i]);
    g.band_height.push_back(cuts[i + 1] - cuts[i]);
    std::vector<int> row(g.column.size(), -1);
    for (size_t c = 0; c < g.column.size(); ++c) {
      for (int r : g.column[c]) {
        if (p.rects[r].row <= cuts[i] &&
            cuts[i] < p.rects[r].row + p.rects[r].height)
          row[c] = r;
      }
      if (row[c] < 0) return "--flow=ring needs a column-based partition";
    }
    g.at.push_back(std::move(row));
  }
  return "";
}

double* Allocate(size_t doubles) {
#ifdef SMPI_SHARED_MALLOC
  return static_cast<double*>(SMPI_SHARED_MALLOC((doubles + 1) * 8));
#else
  return new double[doubles + 1]();
#endif
}

void Release(double* p) {
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(p);
#else
  delete[] p;
#endif
}

// Every own rectangle adds the product of its panels: 2 h w b flops.
void Multiply(const Problem& p, const std::vector<int>& mine, double* memory,
              const std::vector<size_t>& c_at, const std::vector<size_t>& ap_at,
              const std::vector<size_t>& bp_at) {
  const long long b = p.b;
  for (int r : mine) {
    const long long h = p.rects[r].height * b, w = p.rects[r].width * b;
#ifdef SMPI_SHARED_MALLOC
    (void)memory, (void)c_at, (void)ap_at, (void)bp_at;
    smpi_execute_flops(2.0 * static_cast<double>(h) * static_cast<double>(w) *
                       static_cast<double>(b));
#else
    const double* ap = memory + ap_at[r];
    const double* bp = memory + bp_at[r];
    double* c = memory + c_at[r];
    for (long long i = 0; i < h; ++i) {
      for (long long j = 0; j < w; ++j) {
        double sum = 0;
        for (long long t = 0; t < b; ++t) sum += ap[i * b + t] * bp[j * b + t];
        c[i * w + j] += sum;
      }
    }
#endif
  }
}

// Whether rectangle S holds block column k (kind 0, A) or block row k (kind
// 1, B) and shares rows (A) or columns (B) with R: [lo, hi) in blocks.
bool Overlap(const Rect& R, const Rect& S, int kind, long long k, long long& lo,
             long long& hi) {
  const bool holds = kind == 0 ? S.col <= k && k < S.col + S.width
                               : S.row <= k && k < S.row + S.height;
  if (!holds) return false;
  lo = kind == 0 ? std::max(R.row, S.row) : std::max(R.col, S.col);
  hi = kind == 0 ? std::min(R.row + R.height, S.row + S.height)
                 : std::min(R.col + R.width, S.col + S.width);
  return lo < hi;
}

// One step of the ring flow: in every band the piece of A's pivot column
// travels from the column holding it to the right, around the band; in every
// column the piece of B's pivot row travels down from the rectangle holding
// it, around the column. Each rectangle forwards what it receives as soon as
// it arrives (event-driven, so no order of arrival can deadlock).
void RingStep(const Problem& p, const Rings& g, const std::vector<int>& mine,
              long long k, double* memory, const std::vector<size_t>& a_at,
              const std::vector<size_t>& b_at, const std::vector<size_t>& ap_at,
              const std::vector<size_t>& bp_at) {
  const long long b = p.b;
  const int columns = static_cast<int>(g.column.size());
  const int bands = static_cast<int>(g.band_row.size());
  int pivot_column = 0;
  while (p.rects[g.column[pivot_column][0]].col +
             p.rects[g.column[pivot_column][0]].width <=
         k)
    ++pivot_column;
  // Tags: A pieces by band, B pieces by column.
  auto a_tag = [](int band) { return 2 * band; };
  auto b_tag = [](int column) { return 2 * column + 1; };
  struct Hop {
    int rect;   // own rectangle receiving it
    int kind;   // 0: A (band), 1: B (column)
    int index;  // band or column
  };
  std::vector<MPI_Request> receives, sends;
  std::vector<Hop> hops;
  auto a_piece = [&](int r, int band, double*& data, int& count) {
    data = memory + ap_at[r] + (g.band_row[band] - p.rects[r].row) * b * b;
    count = static_cast<int>(g.band_height[band] * b * b);
  };
  auto b_piece = [&](int r, double*& data, int& count) {
    data = memory + bp_at[r];
    count = static_cast<int>(p.rects[r].width * b * b);
  };
  // Sends piece (kind, index) of own rect r on to the next rectangle of its
  // ring, unless that one is where the piece started.
  auto forward = [&](int r, int kind, int index) {
    double* data = nullptr;
    int count = 0, to = -1, tag = 0;
    if (kind == 0) {
      const int next = (g.column_of[r] + 1) % columns;
      if (next == pivot_column) return;
      a_piece(r, index, data, count);
      to = p.rects[g.at[index][next]].owner;
      tag = a_tag(index);
    } else {
      const std::vector<int>& col = g.column[index];
      const size_t pos = std::find(col.begin(), col.end(), r) - col.begin();
      const int next = col[(pos + 1) % col.size()];
      const Rect& N = p.rects[next];
      if (N.row <= k && k < N.row + N.height) return;
      b_piece(r, data, count);
      to = N.owner;
      tag = b_tag(index);
    }
    sends.emplace_back();
    MPI_Isend(data, count, MPI_DOUBLE, to, tag, MPI_COMM_WORLD, &sends.back());
  };
  for (int r : mine) {
    const Rect& R = p.rects[r];
    const int c = g.column_of[r];
    // A: the bands of r.
    for (int band = 0; band < bands; ++band) {
      if (g.at[band][c] != r) continue;
      if (c == pivot_column) continue;
      const int prev = g.at[band][(c + columns - 1) % columns];
      double* data = nullptr;
      int count = 0;
      a_piece(r, band, data, count);
      receives.emplace_back();
      MPI_Irecv(data, count, MPI_DOUBLE, p.rects[prev].owner, a_tag(band),
                MPI_COMM_WORLD, &receives.back());
      hops.push_back({r, 0, band});
    }
    // B: from the rectangle above in the column ring, unless r holds row k.
    if (!(R.row <= k && k < R.row + R.height)) {
      const std::vector<int>& col = g.column[c];
      const size_t pos = std::find(col.begin(), col.end(), r) - col.begin();
      const int prev = col[(pos + col.size() - 1) % col.size()];
      double* data = nullptr;
      int count = 0;
      b_piece(r, data, count);
      receives.emplace_back();
      MPI_Irecv(data, count, MPI_DOUBLE, p.rects[prev].owner, b_tag(c),
                MPI_COMM_WORLD, &receives.back());
      hops.push_back({r, 1, c});
    }
  }
  // Sources: pack the own panels and start the rings.
  for (int r : mine) {
    const Rect& R = p.rects[r];
    [[maybe_unused]] const long long w = R.width * b;
    const int c = g.column_of[r];
    if (c == pivot_column) {
#ifndef SMPI_SHARED_MALLOC
      for (long long i = 0; i < R.height * b; ++i)
        for (long long j = 0; j < b; ++j)
          memory[ap_at[r] + i * b + j] =
              memory[a_at[r] + i * w + (k * b - R.col * b) + j];
#endif
      for (int band = 0; band < bands; ++band) {
        if (g.at[band][c] == r) forward(r, 0, band);
      }
    }
    if (R.row <= k && k < R.row + R.height) {
#ifndef SMPI_SHARED_MALLOC
      for (long long j = 0; j < w; ++j)
        for (long long i = 0; i < b; ++i)
          memory[bp_at[r] + j * b + i] =
              memory[b_at[r] + (k * b - R.row * b + i) * w + j];
#endif
      forward(r, 1, c);
    }
  }
  (void)a_at, (void)b_at;
  for (size_t done = 0; done < receives.size(); ++done) {
    int index = 0;
    MPI_Waitany(static_cast<int>(receives.size()), receives.data(), &index,
                MPI_STATUS_IGNORE);
    forward(hops[index].rect, hops[index].kind, hops[index].index);
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(),
              MPI_STATUSES_IGNORE);
}

int Run(int argc, char** argv) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string path, error;
  long long iterations = 1;
  bool ring = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--flow=ring" || arg == "--flow=one-to-all") {
      ring = arg == "--flow=ring";
    } else if (arg.rfind("--iterations=", 0) == 0) {
      iterations = std::atoll(arg.c_str() + 13);
      if (iterations < 1 || iterations > 1000000) error = "bad --iterations";
    } else if (arg.rfind("--", 0) == 0 || !path.empty()) {
      error = "unexpected argument '" + arg + "'";
    } else {
      path = arg;
    }
  }
  if (path.empty() && error.empty())
    error = "usage: summa PARTITION [--iterations=K]";
  // Every rank reads the (small) partition file: same input, same verdict.
  Problem p;
  if (error.empty()) error = Load(path, size, p);
  if (!error.empty()) {
    if (me == 0) std::fprintf(stderr, "summa: %s\n", error.c_str());
    return 2;
  }
  const long long b = p.b;
  [[maybe_unused]] const long long n = p.blocks * b;
  const int num_rects = static_cast<int>(p.rects.size());
  Rings rings;
  if (ring) {
    error = MakeRings(p, rings);
    if (!error.empty()) {
      if (me == 0) std::fprintf(stderr, "summa: %s\n", error.c_str());
      return 2;
    }
  }
  std::vector<int> mine;
  for (int r = 0; r < num_rects; ++r) {
    if (p.rects[r].owner == me) mine.push_back(r);
  }
  // One allocation per rank: A, B, C and the two panels of every own
  // rectangle.
  std::vector<size_t> a_at(num_rects), b_at(num_rects), c_at(num_rects),
      ap_at(num_rects), bp_at(num_rects);
  size_t total = 0;
  for (int r : mine) {
    const size_t h = p.rects[r].height * b, w = p.rects[r].width * b;
    a_at[r] = total;
    b_at[r] = total += h * w;
    c_at[r] = total += h * w;
    ap_at[r] = total += h * w;
    bp_at[r] = total += h * b;
    total += w * b;
  }
  double* memory = Allocate(total);
#ifndef SMPI_SHARED_MALLOC
  for (int r : mine) {
    const Rect& R = p.rects[r];
    const long long h = R.height * b, w = R.width * b;
    for (long long i = 0; i < h; ++i) {
      for (long long j = 0; j < w; ++j) {
        memory[a_at[r] + i * w + j] = AValue(R.row * b + i, R.col * b + j);
        memory[b_at[r] + i * w + j] = BValue(R.row * b + i, R.col * b + j);
        memory[c_at[r] + i * w + j] = 0;
      }
    }
  }
#endif
  // Unique tag per (sender rect, receiver rect, matrix): MPI keeps the order
  // of equal tags between steps.
  auto tag = [&](int s, int r, int kind) {
    return (s * num_rects + r) * 2 + kind;
  };
  int max_tag = 0;
  {
    int flag = 0;
    void* value = nullptr;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
    max_tag = flag ? *static_cast<int*>(value) : 32767;
  }
  if (tag(num_rects - 1, num_rects - 1, 1) > max_tag) {
    if (me == 0)
      std::fprintf(stderr, "summa: %d rectangles need tags above MPI_TAG_UB\n",
                   num_rects);
    return 2;
  }
  std::vector<MPI_Request> requests;
  std::deque<std::vector<double>> send_buffers;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long long it = 0; it < iterations; ++it) {
    for (long long k = 0; k < p.blocks; ++k) {
      requests.clear();
      send_buffers.clear();
      if (ring) {
        RingStep(p, rings, mine, k, memory, a_at, b_at, ap_at, bp_at);
        Multiply(p, mine, memory, c_at, ap_at, bp_at);
        continue;
      }
      // Receives: every rectangle S holding block column k of A overlapping
      // my rows, or block row k of B overlapping my columns.
      for (int r : mine) {
        const Rect& R = p.rects[r];
        for (int s = 0; s < num_rects; ++s) {
          const Rect& S = p.rects[s];
          for (int kind = 0; kind < 2; ++kind) {
            long long lo = 0, hi = 0;
            if (!Overlap(R, S, kind, k, lo, hi)) continue;
            const long long first = kind == 0 ? R.row : R.col;
            requests.emplace_back();
            MPI_Irecv(memory + (kind == 0 ? ap_at[r] : bp_at[r]) +
                          (lo - first) * b * b,
                      static_cast<int>((hi - lo) * b * b), MPI_DOUBLE, S.owner,
                      tag(s, r, kind), MPI_COMM_WORLD, &requests.back());
          }
        }
      }
      // Sends: the pieces of my rectangles every rectangle R needs (A pieces
      // row-major h x b, B pieces transposed w x b).
      for (int s : mine) {
        const Rect& S = p.rects[s];
        [[maybe_unused]] const long long sw = S.width * b;
        for (int r = 0; r < num_rects; ++r) {
          const Rect& R = p.rects[r];
          for (int kind = 0; kind < 2; ++kind) {
            long long lo = 0, hi = 0;
            if (!Overlap(R, S, kind, k, lo, hi)) continue;
            const size_t count = static_cast<size_t>((hi - lo) * b * b);
            const double* data = memory + a_at[s];
#ifndef SMPI_SHARED_MALLOC
            send_buffers.emplace_back(count);
            std::vector<double>& buf = send_buffers.back();
            size_t x = 0;
            for (long long i = lo * b; i < hi * b; ++i) {
              for (long long j = 0; j < b; ++j) {
                buf[x++] = kind == 0
                               ? memory[a_at[s] + (i - S.row * b) * sw +
                                        (k * b - S.col * b) + j]
                               : memory[b_at[s] + (k * b - S.row * b + j) * sw +
                                        (i - S.col * b)];
              }
            }
            data = buf.data();
#endif
            requests.emplace_back();
            MPI_Isend(data, static_cast<int>(count), MPI_DOUBLE, R.owner,
                      tag(s, r, kind), MPI_COMM_WORLD, &requests.back());
          }
        }
      }
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                  MPI_STATUSES_IGNORE);
      Multiply(p, mine, memory, c_at, ap_at, bp_at);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int ok = 1;
#ifndef SMPI_SHARED_MALLOC
  // Compare C (accumulated `iterations` times) with the serial product.
  long long bad = 0;
  for (int r : mine) {
    const Rect& R = p.rects[r];
    const long long h = R.height * b, w = R.width * b;
    for (long long i = 0; i < h && n <= 2048; ++i) {
      for (long long j = 0; j < w; ++j) {
        double want = 0;
        for (long long t = 0; t < n; ++t)
          want += AValue(R.row * b + i, t) * BValue(t, R.col * b + j);
        bad += memory[c_at[r] + i * w + j] != want * iterations;
      }
    }
  }
  long long all_bad = 0;
  MPI_Reduce(&bad, &all_bad, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  ok = all_bad == 0;
#endif
  if (me == 0) {
    std::printf(
        "summa: %lld x %lld blocks of %lld, %d rectangles, %lld "
        "iterations\n",
        p.blocks, p.blocks, b, num_rects, iterations);
#ifndef SMPI_SHARED_MALLOC
    std::printf(n <= 2048 ? (ok ? "product OK\n" : "product WRONG\n")
                          : "product not checked (n above 2048)\n");
#endif
    PrintTimePerIteration(slowest / static_cast<double>(iterations));
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  Release(memory);
  return ok ? 0 : 1;
}

}  // namespace

int RunProgram(int argc, char** argv) { return Run(argc, argv); }

}  // namespace rankmap::sim
