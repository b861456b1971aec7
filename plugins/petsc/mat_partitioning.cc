// MatPartitioning type "rankmap": the adjacency's rows (with edge weights
// when the caller asks for them, vertex weights where given) partitioned by
// PartitionJob onto the machine the job runs on.
#include <petsc/private/matimpl.h>

#include <cmath>
#include <vector>

#include "plugins/petsc/job_partition.h"
#include "plugins/petsc/petsc_glue.h"
#include "plugins/petsc/rankmap_petsc.h"

namespace rankmap::plugins::petsc {
namespace {

RankmapState* StateOf(MatPartitioning part) {
  return static_cast<RankmapState*>(part->data);
}

// The adjacency's local rows (MATMPIADJ, converted when it is another type:
// PETSc's own partitioners do the same), without self loops.
PetscErrorCode LocalRows(MatPartitioning part, LocalGraph* g) {
  Mat adj = nullptr;
  PetscBool is_adj = PETSC_FALSE;
  PetscInt start = 0, end = 0;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)part->adj, MATMPIADJ, &is_adj));
  if (is_adj) {
    adj = part->adj;
    PetscCall(PetscObjectReference((PetscObject)adj));
  } else {
    PetscCall(MatConvert(part->adj, MATMPIADJ, MAT_INITIAL_MATRIX, &adj));
  }
  PetscCall(MatGetOwnershipRange(adj, &start, &end));
  for (PetscInt row = start; row < end; ++row) {
    PetscInt ncols = 0;
    const PetscInt* cols = nullptr;
    const PetscScalar* vals = nullptr;
    PetscCall(MatGetRow(adj, row, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; ++k) {
      if (cols[k] == row) continue;
      g->adjncy.push_back(cols[k]);
      if (part->use_edge_weights)
        g->adjwgt.push_back(vals ? std::abs(PetscRealPart(vals[k])) : 1.0);
    }
    g->xadj.push_back(static_cast<int64_t>(g->adjncy.size()));
    PetscCall(MatRestoreRow(adj, row, &ncols, &cols, &vals));
  }
  if (part->vertex_weights) {
    for (PetscInt i = 0; i < end - start; ++i)
      g->vwgt.push_back(static_cast<double>(part->vertex_weights[i]));
  }
  PetscCall(MatDestroy(&adj));
  PetscFunctionReturn(0);
}

// Target part weights other than equal ones cannot be honoured: the parts'
// shares are the machine's.
PetscErrorCode CheckPartWeights(MatPartitioning part) {
  PetscFunctionBegin;
  PetscCheck(part->ncon <= 1, PetscObjectComm((PetscObject)part), PETSC_ERR_SUP,
             "rankmap: one vertex weight per vertex (ncon %d)",
             (int)part->ncon);
  if (part->part_weights) {
    for (PetscInt p = 1; p < part->n; ++p) {
      PetscCheck(std::abs(part->part_weights[p] - part->part_weights[0]) <=
                     1e-9 * part->part_weights[0],
                 PetscObjectComm((PetscObject)part), PETSC_ERR_SUP,
                 "rankmap: unequal target part weights (part %d: %g, part 0: "
                 "%g): the parts' shares are the machine's",
                 (int)p, (double)part->part_weights[p],
                 (double)part->part_weights[0]);
    }
  }
  PetscFunctionReturn(0);
}

// The partition of PETSc's partitioner `type` on the same adjacency, one part
// per local row.
PetscErrorCode ComparedParts(MatPartitioning part, const std::string& type,
                             std::vector<int32_t>* parts) {
  MatPartitioning other = nullptr;
  IS is = nullptr;
  const PetscInt* idx = nullptr;
  PetscInt n = 0;
  PetscFunctionBegin;
  PetscCall(MatPartitioningCreate(PetscObjectComm((PetscObject)part), &other));
  PetscCall(MatPartitioningSetAdjacency(other, part->adj));
  PetscCall(MatPartitioningSetNParts(other, part->n));
  PetscCall(MatPartitioningSetUseEdgeWeights(other, part->use_edge_weights));
  if (part->vertex_weights) {
    PetscInt* w = nullptr;
    PetscCall(MatGetLocalSize(part->adj, &n, nullptr));
    PetscCall(PetscMalloc1(n, &w));
    PetscCall(PetscArraycpy(w, part->vertex_weights, n));
    PetscCall(MatPartitioningSetVertexWeights(other, w));
  }
  PetscCall(MatPartitioningSetType(other, type.c_str()));
  PetscCall(MatPartitioningApply(other, &is));
  PetscCall(ISGetLocalSize(is, &n));
  PetscCall(ISGetIndices(is, &idx));
  parts->assign(idx, idx + n);
  PetscCall(ISRestoreIndices(is, &idx));
  PetscCall(ISDestroy(&is));
  PetscCall(MatPartitioningDestroy(&other));
  PetscFunctionReturn(0);
}

PetscErrorCode Apply(MatPartitioning part, IS* partitioning) {
  const MPI_Comm comm = PetscObjectComm((PetscObject)part);
  RankmapState* state = StateOf(part);
  LocalGraph g;
  std::vector<int32_t> compared;
  JobPartition out;
  PetscFunctionBegin;
  PetscCall(CheckPartWeights(part));
  PetscCall(LocalRows(part, &g));
  if (!state->compare.empty())
    PetscCall(ComparedParts(part, state->compare, &compared));
  PetscCall(PetscErrorOf(
      comm, PartitionJob(comm, g, static_cast<int32_t>(part->n), state->options,
                         state->compare.empty() ? nullptr : &compared, &out)));
  state->report = std::move(out.report);
  std::vector<PetscInt> parts(out.local_part.begin(), out.local_part.end());
  PetscCall(ISCreateGeneral(comm, static_cast<PetscInt>(parts.size()),
                            parts.data(), PETSC_COPY_VALUES, partitioning));
  PetscFunctionReturn(0);
}

PetscErrorCode ApplyAtBoundary(MatPartitioning part, IS* partitioning) {
  return AtPetscBoundary(PetscObjectComm((PetscObject)part),
                         [&] { return Apply(part, partitioning); });
}

PetscErrorCode SetFromOptions(MatPartitioning part,
                              PetscOptionItems* PetscOptionsObject) {
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "rankmap partitioning options");
  PetscCall(ReadOptions(PetscOptionsObject, "mat_partitioning", StateOf(part)));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode View(MatPartitioning part, PetscViewer viewer) {
  return ViewState(*StateOf(part), viewer);
}

PetscErrorCode Destroy(MatPartitioning part) {
  delete StateOf(part);
  part->data = nullptr;
  return 0;
}

}  // namespace

// The constructor PETSc calls for MatPartitioningSetType(part, "rankmap").
extern "C" PetscErrorCode MatPartitioningCreate_Rankmap(MatPartitioning part) {
  PetscFunctionBegin;
  part->data = new RankmapState;
  part->ops->apply = ApplyAtBoundary;
  part->ops->setfromoptions = SetFromOptions;
  part->ops->view = View;
  part->ops->destroy = Destroy;
  PetscFunctionReturn(0);
}

}  // namespace rankmap::plugins::petsc
