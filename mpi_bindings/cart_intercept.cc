// PMPI interception of MPI_Cart_create, part of librankmap_reorder.so: with
// reorder = 1 the ranks of the Cartesian communicator follow the engine's
// mapping of the grid's halo pattern onto the machine (MPICH and Open MPI 4
// both return the identity order).
//
// The grid's traffic: every process sends one unit to each of its 2 * ndims
// neighbours (periodic dimensions wrap; a dimension of extent 2 with wrap
// gives the same neighbour twice, 2 units). Processes beyond the grid (rank >=
// product of dims) take no part: they keep MPI_COMM_NULL, as without
// reordering. The grid's processes are reordered among themselves
// (ReorderFromEdges on their sub-communicator) and the Cartesian communicator
// is built on the result with reorder = 0, so MPI_Cart_coords, MPI_Cart_shift
// and neighbourhood collectives all see the new order. Invalid arguments and
// failed mappings fall back to the plain PMPI call.
#include <mpi.h>

#include <vector>

#include "mpi_bindings/intercept_plan.h"
#include "mpi_bindings/reorder.h"

namespace rankmap::mpi_bindings {
namespace {

// Out-edges of grid rank `me` (row-major coordinates, the last dimension
// varying fastest, as MPI_Cart_coords numbers them).
std::vector<LocalEdge> GridEdges(int me, int ndims, const int* dims,
                                 const int* periods) {
  std::vector<int> coords(ndims), stride(ndims, 1);
  for (int d = ndims - 1; d > 0; --d) stride[d - 1] = stride[d] * dims[d];
  for (int d = 0, rest = me; d < ndims; ++d) {
    coords[d] = rest / stride[d];
    rest %= stride[d];
  }
  std::vector<LocalEdge> edges;
  for (int d = 0; d < ndims; ++d) {
    for (int step : {-1, 1}) {
      int c = coords[d] + step;
      if (c < 0 || c >= dims[d]) {
        if (!periods[d]) continue;
        c = (c + dims[d]) % dims[d];
      }
      const int other = me + (c - coords[d]) * stride[d];
      if (other != me) edges.push_back({me, other, 1.0});
    }
  }
  return edges;
}

}  // namespace
}  // namespace rankmap::mpi_bindings

extern "C" {

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm* comm_cart) {
  using namespace rankmap::mpi_bindings;
  int size = 0, me = 0;
  long long cells = 1;
  bool valid = ndims > 0 && dims != nullptr && periods != nullptr;
  for (int d = 0; valid && d < ndims; ++d) {
    valid = dims[d] > 0;
    cells *= valid ? dims[d] : 1;
  }
  if (valid) valid = !IsIntercommunicator(comm_old);
  if (valid) {
    PMPI_Comm_size(comm_old, &size);
    valid = cells <= size;
  }
  if (!reorder || !valid) {
    return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  }
  PMPI_Comm_rank(comm_old, &me);
  MPI_Comm grid = MPI_COMM_NULL;
  PMPI_Comm_split(comm_old, me < cells ? 0 : MPI_UNDEFINED, me, &grid);
  if (grid == MPI_COMM_NULL) {
    *comm_cart = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  ReorderOutcome out;
  int rc;
  if (PlanReordering(grid, GridEdges(me, ndims, dims, periods),
                     absl::OkStatus(), &out)) {
    rc = PMPI_Cart_create(out.comm, ndims, dims, periods, 0, comm_cart);
    PMPI_Comm_free(&out.comm);
  } else {
    rc = PMPI_Cart_create(grid, ndims, dims, periods, 0, comm_cart);
  }
  PMPI_Comm_free(&grid);
  return rc;
}

}  // extern "C"
