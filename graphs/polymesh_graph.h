// The cell graph of an OpenFOAM mesh from its parsed files: one vertex per
// cell, one edge per pair of cells that share faces, weighted by the number
// of faces they share (a cell pair joined by a face of the interior and by a
// cyclic face pair weighs 2). Faces that join cells:
//   * internal faces: owner[f] and neighbour[f], f < nInternalFaces;
//   * cyclic patches (types cyclic and cyclicSlip): face i of a patch and
//     face i of its neighbourPatch, as OpenFOAM matches them; a cyclic patch
//     without neighbourPatch (the pre-2.0 form holding both halves) pairs
//     face i with face i + nFaces/2;
//   * processor and processorCyclic patches, when the mesh comes in pieces
//     (a decomposed case: one piece per processor directory): face i of the
//     patch of piece a towards piece b pairs with face i of the patch of b
//     towards a; for processorCyclic patches, the one whose referPatch is
//     the neighbourPatch of this one's referPatch.
// Patches coupled through interpolation (cyclicAMI, cyclicACMI and other
// *AMI types, nonConformalCyclic) pair faces by geometry, not by index, and
// are left out of the graph: the result lists them, so the caller can say
// so. In a single piece, processor patches are its boundary and are listed
// the same way.
//
// Cells are numbered as in the whole mesh: piece by piece in processor order,
// or, when every piece has its cellProcAddressing, by those addresses (the
// numbering of the undecomposed mesh, which `decomposePar` reads back).
//
// Every count and index is checked with an error naming the file and line:
// patch face ranges that are not contiguous after the internal faces or pass
// the end of owner, a face with one cell on both sides, a cyclic patch whose
// partner is missing, not cyclic, not pointing back or of another size, a
// processor patch of the wrong piece or without partner, addresses that are
// not a permutation of the cells.
#ifndef RANKMAP_GRAPHS_POLYMESH_GRAPH_H_
#define RANKMAP_GRAPHS_POLYMESH_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/foam_boundary.h"

namespace rankmap::graphs {

// One polyMesh directory, parsed (graphs/foam_file.h, foam_boundary.h).
struct MeshPiece {
  std::vector<int32_t> owner;      // one cell per face
  std::vector<int32_t> neighbour;  // one cell per internal face
  std::vector<FoamPatch> patches;
  int32_t num_cells = 0;             // every cell index is below it
  std::vector<int32_t> global_cell;  // cellProcAddressing, or empty
  // The files' names, and the lines where the owner and neighbour lists
  // open, for messages.
  std::string owner_name, neighbour_name, boundary_name, addressing_name;
  int64_t owner_line = 0, neighbour_line = 0;
};

struct PolyMeshGraph {
  CommGraph graph;
  int64_t cells = 0;
  int64_t internal_faces = 0;   // inside one piece
  int64_t cyclic_faces = 0;     // cyclic face pairs
  int64_t processor_faces = 0;  // face pairs joining two pieces
  int32_t pieces = 1;
  bool cell_addressing = false;  // cells numbered by cellProcAddressing
  // Patches whose faces join no cells in the graph, one line each:
  // "inlet_half0 (cyclicAMI, 40 faces): paired by geometry".
  std::vector<std::string> uncoupled;
};

// The cell graph of `pieces` (one: an undecomposed mesh; several: processor
// 0, 1, ... of a decomposed case). Errors as listed above. O(faces log deg).
absl::StatusOr<PolyMeshGraph> BuildCellGraph(
    const std::vector<MeshPiece>& pieces);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_POLYMESH_GRAPH_H_
