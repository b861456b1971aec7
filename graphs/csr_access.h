// Trusted CSR construction for producers inside graphs/ (readers that have
// already checked every CommGraph invariant with file:line messages, and
// contraction, whose output is correct by construction). Skips
// CommGraph::FromCsr's O(m log deg) re-validation; debug builds still run it.
// Not for use outside graphs/ (the BUILD target is package-private).
#ifndef RANKMAP_GRAPHS_CSR_ACCESS_H_
#define RANKMAP_GRAPHS_CSR_ACCESS_H_

#include <cassert>
#include <utility>
#include <vector>

#include "graphs/comm_graph.h"

namespace rankmap::graphs::internal {

struct CsrAccess {
  // Contract: the arrays satisfy every invariant listed in comm_graph.h. O(1)
  // in release.
  static CommGraph Make(std::vector<ArcIndex> xadj,
                        std::vector<VertexId> adjncy,
                        std::vector<double> adjwgt, std::vector<double> vwgt,
                        std::vector<double> adjmsg = {}) {
    CommGraph g;
    g.xadj_ = std::move(xadj);
    g.adjncy_ = std::move(adjncy);
    g.adjwgt_ = std::move(adjwgt);
    g.vwgt_ = std::move(vwgt);
    g.adjmsg_ = std::move(adjmsg);
#ifndef NDEBUG
    assert(CommGraph::FromCsr(g.xadj_, g.adjncy_, g.adjwgt_, g.vwgt_, g.adjmsg_)
               .ok());
#endif
    return g;
  }
};

}  // namespace rankmap::graphs::internal

#endif  // RANKMAP_GRAPHS_CSR_ACCESS_H_
