// stencil3d: a 3D 7-point Jacobi solver decomposed the way real codes do it:
// MPI_Dims_create picks the process grid, MPI_Cart_create (no reordering)
// numbers ranks row-major over it, each rank owns a block of the grid (the
// first extent % dims blocks of a dimension one cell longer) and exchanges
// its six faces (8-byte cells) with its neighbours every iteration.
//
//   mpirun -np 64 ./stencil3d_mpi --grid=128x128x128 --iterations=10
//   smpirun -np 384 ... ./stencil3d_smpi.so --grid=256x256x256
//
// Output (rank 0):
//   stencil3d: grid 128x128x128, processes 4x4x4, 7-point, 10 iterations
//   time per iteration: 1.234567890e-03 s
//
// Under SMPI (SMPI_SHARED_MALLOC defined) the arrays are shared allocations
// (their content does not matter to the simulation) and the update is
// simulated as --flops-per-cell floating-point operations per owned cell at
// the host's speed; with a real MPI the program packs the faces, exchanges
// them and runs the Jacobi update, and --check prints the grid's sum so runs
// can be compared. Plain MPI C++ without globals: it compiles with smpicxx
// and mpicxx alike.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim/program.h"

namespace rankmap::sim {
namespace {

struct Args {
  long long grid[3] = {64, 64, 64};
  long long iterations = 10;
  double flops_per_cell = 8;
  bool check = false;
};

bool ParsePositive(const char* text, long long& out) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || v < 1) return false;
  out = v;
  return *end == '\0' || *end == 'x';
}

bool ParseArgs(int argc, char** argv, Args& a, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool ok = false;
    if (arg.rfind("--grid=", 0) == 0) {
      const char* p = argv[i] + 7;
      ok = true;
      for (int d = 0; d < 3 && ok; ++d) {
        ok = ParsePositive(p, a.grid[d]);
        const char* x = std::strchr(p, 'x');
        if (d < 2) {
          ok = ok && x != nullptr;
          p = x ? x + 1 : p;
        } else {
          ok = ok && x == nullptr;
        }
      }
    } else if (arg.rfind("--iterations=", 0) == 0) {
      ok = ParsePositive(argv[i] + 13, a.iterations) && a.iterations <= 1000000;
    } else if (arg.rfind("--flops-per-cell=", 0) == 0) {
      char* end = nullptr;
      a.flops_per_cell = std::strtod(argv[i] + 17, &end);
      ok = *end == '\0' && a.flops_per_cell >= 0;
    } else if (arg == "--check") {
      a.check = ok = true;
    }
    if (!ok) {
      error = "stencil3d: bad argument '" + arg +
              "' (usage: stencil3d [--grid=NXxNYxNZ] [--iterations=K] "
              "[--flops-per-cell=F] [--check])";
      return false;
    }
  }
  return true;
}

// The usual block distribution: the first n % p parts one longer.
void Block(long long n, int p, int c, long long& lo, long long& len) {
  const long long base = n / p, extra = n % p;
  len = base + (c < extra ? 1 : 0);
  lo = c * base + std::min<long long>(c, extra);
}

double* AllocateCells(size_t cells) {
#ifdef SMPI_SHARED_MALLOC
  return static_cast<double*>(SMPI_SHARED_MALLOC(cells * sizeof(double)));
#else
  return static_cast<double*>(std::calloc(cells, sizeof(double)));
#endif
}

void FreeCells(double* p) {
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(p);
#else
  std::free(p);
#endif
}

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args a;
  std::string error;
  if (!ParseArgs(argc, argv, a, error)) {
    if (rank == 0) std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
  MPI_Dims_create(size, 3, dims);
  for (int d = 0; d < 3; ++d) {
    if (dims[d] > a.grid[d]) {
      if (rank == 0) {
        std::fprintf(stderr,
                     "stencil3d: %d processes along dimension %d of %lld "
                     "cells\n",
                     dims[d], d, a.grid[d]);
      }
      return 2;
    }
  }
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  int coords[3];
  MPI_Cart_coords(cart, rank, 3, coords);
  long long lo[3], n[3];
  for (int d = 0; d < 3; ++d) Block(a.grid[d], dims[d], coords[d], lo[d], n[d]);
  // Local block with a one-cell halo; x (dimension 0) slowest.
  const long long sx = (n[1] + 2) * (n[2] + 2), sy = n[2] + 2;
  const size_t cells = static_cast<size_t>((n[0] + 2) * sx);
  auto at = [&](long long x, long long y, long long z) {
    return static_cast<size_t>(x * sx + y * sy + z);
  };
  // Faces: per dimension and side, the neighbour and the face's cell count.
  int peer[3][2];
  long long face[3];
  for (int d = 0; d < 3; ++d) {
    MPI_Cart_shift(cart, d, 1, &peer[d][0], &peer[d][1]);
    face[d] = n[(d + 1) % 3] * n[(d + 2) % 3];
  }
  // One allocation for the two grids and the twelve face buffers: under SMPI
  // every shared allocation of every rank is a memory mapping, and the
  // kernel's limit on mappings (vm.max_map_count) is reached above a few
  // thousand ranks otherwise.
  const size_t largest =
      static_cast<size_t>(std::max({face[0], face[1], face[2]}));
  double* memory = AllocateCells(2 * cells + 12 * largest);
  double* u = memory;
  [[maybe_unused]] double* next = memory + cells;
  std::vector<double*> send(6), recv(6);
  for (int k = 0; k < 6; ++k) {
    send[k] = memory + 2 * cells + (2 * k) * largest;
    recv[k] = memory + 2 * cells + (2 * k + 1) * largest;
  }
#ifndef SMPI_SHARED_MALLOC
  for (long long x = 1; x <= n[0]; ++x)
    for (long long y = 1; y <= n[1]; ++y)
      for (long long z = 1; z <= n[2]; ++z)
        u[at(x, y, z)] = static_cast<double>(
            ((lo[0] + x) * 7 + (lo[1] + y) * 3 + (lo[2] + z)) % 11);
#endif
#ifndef SMPI_SHARED_MALLOC
  // Visits the cells of face (d, side) at layer `layer` (1 or n[d]: the
  // owned boundary; 0 or n[d] + 1: the halo).
  auto for_face = [&](int d, long long layer, auto&& f) {
    const int e = (d + 1) % 3, g = (d + 2) % 3;
    long long c[3], k = 0;
    c[d] = layer;
    for (c[e] = 1; c[e] <= n[e]; ++c[e])
      for (c[g] = 1; c[g] <= n[g]; ++c[g]) f(at(c[0], c[1], c[2]), k++);
  };
#endif
  std::vector<MPI_Request> requests;
  MPI_Barrier(cart);
  double start = 0;
  for (long long it = -1; it < a.iterations; ++it) {
    // One untimed iteration first (see sim/replay.cc).
    if (it == 0) start = MPI_Wtime();
    requests.clear();
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        const int p = peer[d][side];
        if (p == MPI_PROC_NULL) continue;
        const int k = 2 * d + side;
        requests.emplace_back();
        MPI_Irecv(recv[k], static_cast<int>(face[d]), MPI_DOUBLE, p, k ^ 1,
                  cart, &requests.back());
#ifndef SMPI_SHARED_MALLOC
        for_face(d, side == 0 ? 1 : n[d],
                 [&](size_t i, long long j) { send[k][j] = u[i]; });
#endif
        requests.emplace_back();
        MPI_Isend(send[k], static_cast<int>(face[d]), MPI_DOUBLE, p, k, cart,
                  &requests.back());
      }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                MPI_STATUSES_IGNORE);
#ifdef SMPI_SHARED_MALLOC
    smpi_execute_flops(a.flops_per_cell *
                       static_cast<double>(n[0] * n[1] * n[2]));
#else
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        if (peer[d][side] == MPI_PROC_NULL) continue;
        const int k = 2 * d + side;
        for_face(d, side == 0 ? 0 : n[d] + 1,
                 [&](size_t i, long long j) { u[i] = recv[k][j]; });
      }
    }
    for (long long x = 1; x <= n[0]; ++x)
      for (long long y = 1; y <= n[1]; ++y)
        for (long long z = 1; z <= n[2]; ++z)
          next[at(x, y, z)] =
              (u[at(x, y, z)] + u[at(x - 1, y, z)] + u[at(x + 1, y, z)] +
               u[at(x, y - 1, z)] + u[at(x, y + 1, z)] + u[at(x, y, z - 1)] +
               u[at(x, y, z + 1)]) /
              7.0;
    std::swap(u, next);
#endif
  }
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
  double sum = 0, total = 0;
  if (a.check) {
    for (long long x = 1; x <= n[0]; ++x)
      for (long long y = 1; y <= n[1]; ++y)
        for (long long z = 1; z <= n[2]; ++z) sum += u[at(x, y, z)];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  }
  if (rank == 0) {
    std::printf(
        "stencil3d: grid %lldx%lldx%lld, processes %dx%dx%d, 7-point, %lld "
        "iterations\n",
        a.grid[0], a.grid[1], a.grid[2], dims[0], dims[1], dims[2],
        a.iterations);
    if (a.check) std::printf("grid sum: %.12e\n", total);
    PrintTimePerIteration(slowest / static_cast<double>(a.iterations));
  }
  FreeCells(memory);
  MPI_Comm_free(&cart);
  return 0;
}

}  // namespace

int RunProgram(int argc, char** argv) { return Run(argc, argv); }

}  // namespace rankmap::sim
