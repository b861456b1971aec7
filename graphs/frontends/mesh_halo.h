// Mesh halo front end: the communication of an unstructured-mesh code whose
// mesh (a graph: cells or nodes and their adjacency) is partitioned among
// processes. Every iteration, part p receives from each neighbouring part q
// the values of q's vertices that are adjacent to some vertex of p: each such
// vertex once per neighbouring part (a one-layer ghost region).
//
//   ASSIGN_OR_RETURN(CommGraph mesh, ReadGraphFile("4elt.graph"));
//   ASSIGN_OR_RETURN(std::vector<int32_t> part,
//                    ReadPartitionFile("4elt.graph.part.64",
//                    mesh.num_vertices()));
//   ASSIGN_OR_RETURN(MeshHalo halo, ComputeMeshHalo(mesh, part, 64));
//   ASSIGN_OR_RETURN(CommGraph g, MeshHaloGraph(halo, 8.0));  // doubles
//
// The partition file is METIS's (gpmetis) output: one part number per line,
// line i for vertex i - 1.
#ifndef RANKMAP_GRAPHS_FRONTENDS_MESH_HALO_H_
#define RANKMAP_GRAPHS_FRONTENDS_MESH_HALO_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

struct MeshHalo {
  int32_t num_parts = 0;
  // owned[p]: number of vertices of part p.
  std::vector<int64_t> owned;
  // sends[p]: for each neighbouring part q (increasing), the vertices of p
  // that q needs (increasing).
  std::vector<std::vector<std::pair<int32_t, std::vector<VertexId>>>> sends;
};

// Errors: part.size() != mesh vertices, a part outside [0, num_parts),
// num_parts < 1. O((n + m) log m) for the mesh's n vertices and m edges.
absl::StatusOr<MeshHalo> ComputeMeshHalo(const CommGraph& mesh,
                                         std::span<const int32_t> part,
                                         int32_t num_parts);

// The halo's communication graph over the parts: w(p, q) = bytes_per_value *
// (values p sends q + values q sends p), per iteration. Errors: a
// non-positive or non-finite bytes_per_value. O(parts + halo pairs).
absl::StatusOr<CommGraph> MeshHaloGraph(const MeshHalo& halo,
                                        double bytes_per_value);

// A partition in METIS's format (one non-negative part per line, `#` lines
// ignored), or as an OpenFOAM labelList (a FoamFile, e.g. decomposePar
// -cellDist's cellDecomposition; graphs/foam_file.h). Errors name the file
// and line: a non-integer or negative part, a count of lines (labels) other
// than num_vertices.
absl::StatusOr<std::vector<int32_t>> ParsePartition(std::string_view text,
                                                    std::string_view source,
                                                    int64_t num_vertices);
absl::StatusOr<std::vector<int32_t>> ReadPartitionFile(const std::string& path,
                                                       int64_t num_vertices);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_MESH_HALO_H_
