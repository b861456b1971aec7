// The patches of an OpenFOAM mesh's `boundary` file (class
// polyBoundaryMesh): a list `N ( name { type ...; nFaces ...; startFace ...;
// ... } ... )` after the FoamFile header. Each patch keeps what the cell
// graph needs: its face range, and its partner for the coupled types
// (`neighbourPatch` of cyclic patches, `myProcNo`/`neighbProcNo` of processor
// patches, and `referPatch`, the cyclic patch a processorCyclic patch
// continues). Other entries (inGroups, transform, matchTolerance, ...) are
// skipped, nested lists and dictionaries included.
//
//   ASSIGN_OR_RETURN(std::vector<FoamPatch> patches,
//                    ReadFoamBoundary(text, "constant/polyMesh/boundary"));
#ifndef RANKMAP_GRAPHS_FOAM_BOUNDARY_H_
#define RANKMAP_GRAPHS_FOAM_BOUNDARY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::graphs {

struct FoamPatch {
  std::string name;
  std::string type;  // "wall", "cyclic", "processor", "processorCyclic", ...
  int64_t num_faces = 0;
  int64_t start_face = 0;
  std::string neighbour_patch;  // cyclic types; empty when not given
  std::string refer_patch;      // processorCyclic
  int32_t my_proc = -1;         // processor types
  int32_t neighb_proc = -1;
  int64_t line = 0;  // of the patch's name, for messages
};

// The patches in file order. Errors (`name:line: ...`): no FoamFile header, a
// list size that disagrees with the patches listed, a patch without type,
// nFaces or startFace, a negative or non-integer count, a processor id
// outside [0, 2^31), two patches of one name, unbalanced brackets, anything
// after the list. The size is checked against the bytes that follow before
// the list is sized by it.
absl::StatusOr<std::vector<FoamPatch>> ReadFoamBoundary(std::string_view text,
                                                        std::string_view name);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FOAM_BOUNDARY_H_
