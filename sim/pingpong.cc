// pingpong: rank 0 sends a message of --bytes to rank 1, which sends it back,
// --repeats times; rank 0 prints the one-way time (half a round trip). The
// hand check of the simulator: on an idle platform with SMPI's plain model one
// way takes the route's latency plus bytes over its bandwidth.
//
//   smpirun -np 2 ... ./pingpong_smpi.so --bytes=1000000 --repeats=4
//   one-way time: 1.020000000e-03 s
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "sim/program.h"

namespace rankmap::sim {
namespace {

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bytes = 0, repeats = 4;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool ok = false;
    if (arg.rfind("--bytes=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(8), &bytes) && bytes >= 0;
    } else if (arg.rfind("--repeats=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(10), &repeats) && repeats >= 1;
    }
    if (!ok) {
      if (rank == 0)
        std::fprintf(stderr, "pingpong: bad argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (size != 2) {
    if (rank == 0)
      std::fprintf(stderr, "pingpong: needs 2 ranks, got %d\n", size);
    return 2;
  }
  std::vector<char> buf(static_cast<size_t>(bytes) + 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int k = 0; k < repeats; ++k) {
    if (rank == 0) {
      MPI_Send(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) {
    std::printf("one-way time: %.9e s\n", elapsed / (2.0 * repeats));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int RunProgram(int argc, char** argv) { return Run(argc, argv); }

}  // namespace rankmap::sim
