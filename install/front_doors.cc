// librankmap.so exports the C and C++ front doors. Bazel hands the libraries
// below to the linker as lazy archives (--start-lib), which keep only the
// objects something references; one reference per front-door object keeps
// each whole object, hence every function its installed header declares.
#include "api/c_api.h"
#include "api/load_topology.h"
#include "api/map_outcome.h"
#include "api/named_options.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "topology/topology.h"
#include "topology/tree.h"

namespace rankmap::install {
namespace {

[[gnu::used]] const void* const kFrontDoors[] = {
    reinterpret_cast<const void*>(&rankmap_map),          // c_api
    reinterpret_cast<const void*>(&api::ResolveOptions),  // named_options
    reinterpret_cast<const void*>(                        // load_topology
        static_cast<absl::StatusOr<topology::Tree> (*)(
            const api::TopologySpec&)>(&api::LoadTree)),
    reinterpret_cast<const void*>(&api::MapChecked),  // map_outcome
    reinterpret_cast<const void*>(                    // mapper
        static_cast<absl::StatusOr<core::Mapping> (*)(
            const topology::Tree&, const graphs::CommGraph&,
            const core::MappingOptions&)>(&core::Map)),
    reinterpret_cast<const void*>(&core::Cost),                  // mapping
    reinterpret_cast<const void*>(&core::ParseAlgorithm),        // options
    reinterpret_cast<const void*>(&graphs::CommGraph::FromCsr),  // comm_graph
    reinterpret_cast<const void*>(&graphs::ReadGraphFile),       // graphs
    reinterpret_cast<const void*>(&topology::LoadTopology),      // topology
    reinterpret_cast<const void*>(&topology::Tree::FromLevels),  // tree
};

}  // namespace
}  // namespace rankmap::install
