#include <mpi.h>

#include <cstdio>

#include "sim/program.h"

namespace rankmap::sim {

void PrintTimePerIteration(double seconds) {
  std::printf("time per iteration: %.9e s\n", seconds);
  std::fflush(stdout);
}

}  // namespace rankmap::sim

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = rankmap::sim::RunProgram(argc, argv);
  MPI_Finalize();
  return rc;
}
