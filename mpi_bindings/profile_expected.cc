// The exact traffic matrices the profiler must report for
// profile_mpi_test_main.c ("c") and profile_mpi_test.f90 ("fortran"), derived
// from their calls and the model of profile.h.
//
//   profile_expected c|fortran N BYTES_OUT MSGS_OUT
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "mpi_bindings/profile_output.h"

namespace {

int n = 0;
std::vector<double> bytes, msgs;

void Add(int from, int to, double b) {
  bytes[static_cast<size_t>(from) * n + to] += b;
  msgs[static_cast<size_t>(from) * n + to] += 1;
}

void CProgram() {
  for (int r = 0; r < n; ++r) {
    Add(r, (r + 1) % n, 800);  // 100 doubles
    Add(r, (r + 2) % n, 40);   // 10 ints, Isend
    Add(r, (r + 3) % n, 3);    // persistent, started twice
    Add(r, (r + 3) % n, 3);
    Add(r, (r - 1 + n) % n, 20);  // Sendrecv, 5 floats
  }
  const int root = n > 1 ? 1 : 0;  // Bcast of 7 ints
  for (int j = 0; j < n; ++j) {
    if (j != root) Add(root, j, 28);
  }
  // Parity sub-communicators, members in descending world rank (key -r).
  for (int parity = 0; parity < 2; ++parity) {
    std::vector<int> members;
    for (int r = n - 1; r >= 0; --r) {
      if (r % 2 == parity) members.push_back(r);
    }
    const int m = static_cast<int>(members.size());
    for (int k = 1; k < m;
         ++k) {  // Allreduce of 4 doubles: reduce to sub-rank 0, bcast
      Add(members[k], members[0], 32);
      Add(members[0], members[k], 32);
    }
    for (int k = 0; k < m; ++k) Add(members[k], members[(k + 1) % m], 4);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) Add(i, j, 8);  // Alltoall, 2 ints per peer
    }
    if (i != 0) Add(i, 0, 8);  // Gather of one double
  }
  // Neighbourhood collectives on the distributed graph r -> r + 1, r + 3.
  for (int r = 0; r < n; ++r) {
    const int d0 = (r + 1) % n, d1 = (r + 3) % n;
    Add(r, d0, 12);  // Neighbor_alltoall, 3 ints per neighbour
    Add(r, d1, 12);
    Add(r, d0, 8);  // Neighbor_allgather, one double
    Add(r, d1, 8);
    Add(r, d0, 8);  // Ineighbor_alltoallv, 1 and 2 doubles
    Add(r, d1, 16);
    Add(r, d0, 4);  // Neighbor_alltoallw, one int and one double
    Add(r, d1, 8);
  }
  // Non-periodic 1D Cartesian alltoall of one int: r - 1 then r + 1.
  for (int r = 0; r < n; ++r) {
    if (r > 0) Add(r, r - 1, 4);
    if (r + 1 < n) Add(r, r + 1, 4);
  }
  // One-sided on a window whose rank w is world rank n - 1 - w.
  auto world = [&](int w) { return n - 1 - (w % n); };
  for (int w = 0; w < n; ++w) {
    const int me = world(w);
    Add(me, world(w + 1), 20);  // Put of 5 ints
    Add(world(w + 2), me, 24);  // Get of 3 doubles: target -> origin
    Add(me, world(w + 3), 8);   // Accumulate of 2 ints
    Add(me, world(w + 1), 4);   // Fetch_and_op: operand out, result back
    Add(world(w + 1), me, 4);
  }
  for (int i = 0; i < n; ++i) {
    if (i != 0) Add(i, 0, 4);         // Igather of one int
    if (i + 1 < n) Add(i, i + 1, 8);  // Iscan of one double
    for (int j = 0; j < n; ++j) {
      if (i != j) Add(i, j, 2);  // Alltoallw, one short per peer
    }
  }
}

void FortranProgram() {
  for (int r = 0; r < n; ++r) Add(r, (r + 1) % n, 32);
  for (int r = 1; r < n; ++r) {  // Allreduce of 2 doubles
    Add(r, 0, 16);
    Add(0, r, 16);
  }
  for (int r = 1; r < n; ++r) Add(0, r, 12);  // Bcast of 3 integers
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s c|fortran N BYTES_OUT MSGS_OUT\n", argv[0]);
    return 2;
  }
  n = std::atoi(argv[2]);
  bytes.assign(static_cast<size_t>(n) * n, 0.0);
  msgs.assign(bytes.size(), 0.0);
  if (std::string(argv[1]) == "c") {
    CProgram();
  } else {
    FortranProgram();
  }
  std::ofstream(argv[3]) << rankmap::mpi_bindings::FormatDenseMatrix(n, bytes);
  std::ofstream(argv[4]) << rankmap::mpi_bindings::FormatDenseMatrix(n, msgs);
  return 0;
}
