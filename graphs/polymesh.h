// Front door for OpenFOAM meshes: the cell graph of a case's polyMesh (one
// vertex per cell, one edge per pair of cells sharing faces, weighted by the
// number of faces; graphs/polymesh_graph.h says which faces join cells).
//
//   ASSIGN_OR_RETURN(PolyMeshGraph m, ReadPolyMesh("cavity"));
//   m.graph;       // the cell graph, cells numbered as in the mesh
//   m.uncoupled;   // patches coupled by geometry (cyclicAMI), not in it
//
// Files read: <case>/constant[/<region>]/polyMesh/{owner, neighbour,
// boundary}, each plain or gzip-compressed (`owner.gz`, OpenFOAM's
// writeCompression), ASCII or binary, labels of 32 or 64 bits. A case without
// that mesh but with processor0, processor1, ... directories (a decomposed
// case, OpenFOAM's uncollated layout) is read piece by piece from
// processorN/constant[/<region>]/polyMesh and joined through its processor
// and processorCyclic patches, cells numbered by cellProcAddressing when every
// piece has it (the undecomposed mesh's numbering). The collated layout
// (processorsN/) is refused with a message.
//
// Memory: the label lists' sizes are read from the files' heads and checked
// against the budget before the lists are read; the graph's size is checked
// (with options.read.consumer_bytes) before it is built. Errors name the file
// and the line (NotFound for missing files, ResourceExhausted over budget,
// InvalidArgument for everything in the files).
#ifndef RANKMAP_GRAPHS_POLYMESH_H_
#define RANKMAP_GRAPHS_POLYMESH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/graph_readers.h"
#include "graphs/polymesh_graph.h"

namespace rankmap::graphs {

struct PolyMeshOptions {
  // The mesh region (constant/<region>/polyMesh); empty: the default region.
  std::string region;
  ReadOptions read;
};

absl::StatusOr<PolyMeshGraph> ReadPolyMesh(const std::string& case_dir,
                                           const PolyMeshOptions& options = {});

namespace internal {

// One polyMesh directory's files in memory (plain or gzip), with the names
// their messages use; `addressing` empty when the piece has no
// cellProcAddressing.
struct PieceTexts {
  std::string owner, neighbour, boundary, addressing;
  std::string owner_name, neighbour_name, boundary_name, addressing_name;
};

// ReadPolyMesh after the files were read: pieces 0, 1, ... of the mesh.
absl::StatusOr<PolyMeshGraph> CellGraphFromTexts(std::vector<PieceTexts> pieces,
                                                 const ReadOptions& options);

}  // namespace internal
}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_POLYMESH_H_
