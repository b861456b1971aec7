/* A plain MPI program (it knows nothing of rankmap) that builds a distributed
 * graph communicator with reorder = 1 and checks its neighbours. Run by
 * dist_graph_mpi_test.sh with librankmap_reorder.so preloaded.
 *
 *   dist_graph_mpi_test_main adjacent|general EDGES_FILE
 *
 * EDGES_FILE holds lines "u v w" (rank u sends w to rank v). Checks on every
 * rank: the neighbours of the graph communicator are, in world ranks, exactly
 * the declared ones, and MPI_Neighbor_allgather delivers each neighbour's world
 * rank in that order. Rank 0 prints the new ranks as "new_rank=a,b,c" (index =
 * world rank). Exit status 0 when all checks pass. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, n, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "rank %d: FAILED %s\n", me, what);
  }
}

static int read_edges(const char* path, int** u, int** v, int** w) {
  FILE* f = fopen(path, "r");
  int cap = 64, m = 0, a, b, c;
  if (f == NULL) return -1;
  *u = malloc(cap * sizeof(int));
  *v = malloc(cap * sizeof(int));
  *w = malloc(cap * sizeof(int));
  while (fscanf(f, "%d %d %d", &a, &b, &c) == 3) {
    if (m == cap) {
      cap *= 2;
      *u = realloc(*u, cap * sizeof(int));
      *v = realloc(*v, cap * sizeof(int));
      *w = realloc(*w, cap * sizeof(int));
    }
    (*u)[m] = a;
    (*v)[m] = b;
    (*w)[m] = c;
    ++m;
  }
  fclose(f);
  return m;
}

/* World ranks of `count` ranks of `comm`. */
static void to_world(MPI_Comm comm, int count, const int* ranks, int* world) {
  MPI_Group g, wg;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(g, count, ranks, wg, world);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
}

int main(int argc, char** argv) {
  int *u = NULL, *v = NULL, *w = NULL, m, i, k;
  int indeg = 0, outdeg = 0;
  MPI_Comm graph;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  m = argc == 3 ? read_edges(argv[2], &u, &v, &w) : -1;
  if (m < 0) {
    if (me == 0)
      fprintf(stderr, "usage: %s adjacent|general EDGES_FILE\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int adjacent = strcmp(argv[1], "adjacent") == 0;
  int* src = malloc((m + 1) * sizeof(int));
  int* srcw = malloc((m + 1) * sizeof(int));
  int* dst = malloc((m + 1) * sizeof(int));
  int* dstw = malloc((m + 1) * sizeof(int));
  for (i = 0; i < m; ++i) {
    if (v[i] == me) {
      src[indeg] = u[i];
      srcw[indeg++] = w[i];
    }
    if (u[i] == me) {
      dst[outdeg] = v[i];
      dstw[outdeg++] = w[i];
    }
  }
  if (adjacent) {
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, src, srcw, outdeg,
                                   dst, dstw, MPI_INFO_NULL, 1, &graph);
  } else {
    /* Rank 0 declares every edge, one source block per edge. */
    int* deg = malloc((m + 1) * sizeof(int));
    for (i = 0; i < m; ++i) deg[i] = 1;
    MPI_Dist_graph_create(MPI_COMM_WORLD, me == 0 ? m : 0, u, deg, v, w,
                          MPI_INFO_NULL, 1, &graph);
    free(deg);
  }

  int new_rank;
  MPI_Comm_rank(graph, &new_rank);
  int gin, gout, weighted;
  MPI_Dist_graph_neighbors_count(graph, &gin, &gout, &weighted);
  check(gin == indeg && gout == outdeg, "neighbour counts");
  int* gsrc = malloc((gin + 1) * sizeof(int));
  int* gsw = malloc((gin + 1) * sizeof(int));
  int* gdst = malloc((gout + 1) * sizeof(int));
  int* gdw = malloc((gout + 1) * sizeof(int));
  MPI_Dist_graph_neighbors(graph, gin, gsrc, gsw, gout, gdst, gdw);
  int* wsrc = malloc((gin + 1) * sizeof(int));
  to_world(graph, gin, gsrc, wsrc);

  /* Each process sends its world rank to its out-neighbours. */
  int* got = malloc((gin + 1) * sizeof(int));
  MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, graph);
  for (k = 0; k < gin; ++k) {
    check(got[k] == wsrc[k], "allgather value comes from the listed source");
  }
  if (adjacent) {
    /* The sources keep the declared order: position k is old rank src[k]. */
    for (k = 0; k < gin && k < indeg; ++k) {
      check(wsrc[k] == src[k], "source k is the declared process");
      check(got[k] == src[k],
            "allgather delivers the declared neighbour's data");
    }
  } else {
    /* Same multiset of in-neighbours (order is the implementation's). */
    for (k = 0; k < gin && k < indeg; ++k) {
      int found = 0;
      for (i = 0; i < indeg; ++i) {
        if (src[i] == wsrc[k] && srcw[i] != -1) {
          srcw[i] = -1;
          found = 1;
          break;
        }
      }
      check(found, "source is a declared in-neighbour");
    }
  }

  int* all = malloc(n * sizeof(int));
  MPI_Gather(&new_rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    printf("new_rank=");
    for (i = 0; i < n; ++i) printf("%d%s", all[i], i + 1 < n ? "," : "\n");
    printf("%s %s n=%d\n", argv[1], total == 0 ? "OK" : "FAILED", n);
  }
  MPI_Comm_free(&graph);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
