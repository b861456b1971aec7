// What every SMPI program (replay, stencil3d, mesh_halo, summa, pingpong,
// link_probe) shares: main (program_main.cc: MPI_Init, the program's
// RunProgram, MPI_Finalize) and rank 0's last line, the one Simulator and the
// tests read.
// smpi_program (smpi.bzl) compiles both into each program, for SMPI and for
// Open MPI alike.
//
//   int RunProgram(int argc, char** argv) {
//     ...
//     if (rank == 0) PrintTimePerIteration(slowest / iterations);
//     return 0;
//   }
#ifndef RANKMAP_SIM_PROGRAM_H_
#define RANKMAP_SIM_PROGRAM_H_

namespace rankmap::sim {

// The program between MPI_Init and MPI_Finalize: its exit status. Each
// program defines it.
int RunProgram(int argc, char** argv);

// "time per iteration: <seconds, %.9e> s\n" on stdout, flushed.
void PrintTimePerIteration(double seconds);

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_PROGRAM_H_
