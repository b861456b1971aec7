/* The report programs' output: every rank's one line, printed by rank 0 in
 * rank order (so that the launcher tests read them in a fixed order).
 *
 *   PrintInRankOrder(line, sizeof line);   // collective on MPI_COMM_WORLD
 */
#ifndef RANKMAP_MPI_BINDINGS_RANK_LINES_H_
#define RANKMAP_MPI_BINDINGS_RANK_LINES_H_

#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* line: this rank's text (NUL-terminated); capacity: its buffer's size, which
 * every rank must share. Rank 0 reuses the buffer to receive the others. */
static inline void PrintInRankOrder(char* line, int capacity) {
  int rank, size, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    printf("%s\n", line);
    for (i = 1; i < size; ++i) {
      MPI_Recv(line, capacity, MPI_CHAR, i, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      printf("%s\n", line);
    }
    fflush(stdout);
  } else {
    MPI_Send(line, (int)strlen(line) + 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
}

#endif /* RANKMAP_MPI_BINDINGS_RANK_LINES_H_ */
