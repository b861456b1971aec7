/* The rankmap engine from C, as a partitioner would call it: a METIS-style CSR
 * graph in, a leaf per vertex out. bazel run //examples:c_api, or against an
 * installed rankmap:
 *   gcc c_api.c -o c_api $(pkg-config --cflags --libs rankmap)
 */
#include <rankmap/rankmap.h>
#include <stdio.h>

int main(void) {
  /* An 8-vertex ring 0-1-...-7-0 whose edges (0,4), (1,5), (2,6), (3,7) are
   * heavy. */
  enum { kN = 8 };
  int64_t xadj[kN + 1];
  int32_t adjncy[3 * kN];
  double adjwgt[3 * kN];
  int64_t k = 0;
  for (int32_t v = 0; v < kN; ++v) {
    xadj[v] = k;
    const int32_t nbrs[3] = {(v + kN - 1) % kN, (v + 1) % kN,
                             (v + kN / 2) % kN};
    for (int i = 0; i < 3; ++i) {
      adjncy[k] = nbrs[i];
      adjwgt[k++] = i == 2 ? 1000.0 : 1.0;
    }
  }
  xadj[kN] = k;

  rankmap_options opts;
  rankmap_options_init(&opts);
  int32_t mapping[kN];
  double j = 0.0;
  char err[256];
  /* Two nodes of two sockets of two cores: distances 1, 11, 111. */
  if (rankmap_map("tleaf 3 2 100 2 10 2 1", kN, xadj, adjncy, adjwgt, NULL,
                  &opts, mapping, &j, err, sizeof err) != 0) {
    fprintf(stderr, "rankmap: %s\n", err);
    return 2;
  }
  opts.algorithm = "identity";
  int32_t identity[kN];
  double j_identity = 0.0;
  if (rankmap_map("tleaf 3 2 100 2 10 2 1", kN, xadj, adjncy, adjwgt, NULL,
                  &opts, identity, &j_identity, err, sizeof err) != 0) {
    fprintf(stderr, "rankmap: %s\n", err);
    return 2;
  }
  printf("J = %g (identity %g)\n", j, j_identity);
  for (int32_t v = 0; v < kN; ++v)
    printf("vertex %d -> leaf %d\n", v, mapping[v]);
  return 0;
}
