// PetscPartitioner type "rankmap" (DMPlexDistribute's partitioner): the
// cell graph PETSc hands over (local rows, global ids, vertex weights from
// vertSection) partitioned by PartitionJob onto the machine the job runs on.
#include <petsc/private/partitionerimpl.h>

#include <cmath>
#include <vector>

#include "plugins/petsc/job_partition.h"
#include "plugins/petsc/petsc_glue.h"
#include "plugins/petsc/rankmap_petsc.h"

namespace rankmap::plugins::petsc {
namespace {

RankmapState* StateOf(PetscPartitioner part) {
  return static_cast<RankmapState*>(part->data);
}

// Target sections other than equal shares cannot be honoured.
PetscErrorCode CheckTargets(PetscPartitioner part, PetscInt nparts,
                            PetscSection targets) {
  PetscInt first = 0, dof = 0;
  PetscFunctionBegin;
  if (!targets) PetscFunctionReturn(0);
  PetscCall(PetscSectionGetDof(targets, 0, &first));
  for (PetscInt p = 1; p < nparts; ++p) {
    PetscCall(PetscSectionGetDof(targets, p, &dof));
    PetscCheck(dof == first, PetscObjectComm((PetscObject)part), PETSC_ERR_SUP,
               "rankmap: unequal target sizes (part %d: %d, part 0: %d): the "
               "parts' shares are the machine's",
               (int)p, (int)dof, (int)first);
  }
  PetscFunctionReturn(0);
}

// The partition of PETSc's partitioner `type` on the same graph, one part per
// local vertex (its IS lists the vertices part by part, the section counts
// them).
PetscErrorCode ComparedParts(PetscPartitioner part, const std::string& type,
                             PetscInt nparts, PetscInt n, PetscInt start[],
                             PetscInt adjacency[], PetscSection vertices,
                             PetscSection targets, std::vector<int32_t>* out) {
  PetscPartitioner other = nullptr;
  PetscSection section = nullptr;
  IS is = nullptr;
  const PetscInt* idx = nullptr;
  PetscFunctionBegin;
  const MPI_Comm comm = PetscObjectComm((PetscObject)part);
  PetscCall(PetscPartitionerCreate(comm, &other));
  PetscCall(PetscPartitionerSetType(other, type.c_str()));
  PetscCall(PetscSectionCreate(PETSC_COMM_SELF, &section));
  PetscCall(PetscPartitionerPartition(other, nparts, n, start, adjacency,
                                      vertices, targets, section, &is));
  PetscCall(ISGetIndices(is, &idx));
  out->assign(n, -1);
  for (PetscInt p = 0; p < nparts; ++p) {
    PetscInt off = 0, dof = 0;
    PetscCall(PetscSectionGetOffset(section, p, &off));
    PetscCall(PetscSectionGetDof(section, p, &dof));
    for (PetscInt k = off; k < off + dof; ++k) (*out)[idx[k]] = (int32_t)p;
  }
  PetscCall(ISRestoreIndices(is, &idx));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscSectionDestroy(&section));
  PetscCall(PetscPartitionerDestroy(&other));
  PetscFunctionReturn(0);
}

PetscErrorCode Partition(PetscPartitioner part, PetscInt nparts, PetscInt n,
                         PetscInt start[], PetscInt adjacency[],
                         PetscSection vertices, PetscSection targets,
                         PetscSection parts, IS* partition) {
  const MPI_Comm comm = PetscObjectComm((PetscObject)part);
  RankmapState* state = StateOf(part);
  LocalGraph g;
  std::vector<int32_t> compared;
  JobPartition out;
  PetscFunctionBegin;
  PetscCall(CheckTargets(part, nparts, targets));
  g.xadj.assign(start, start + n + 1);
  g.adjncy.assign(adjacency, adjacency + start[n]);
  if (vertices) {
    for (PetscInt v = 0; v < n; ++v) {
      PetscInt w = 0;
      PetscCall(PetscSectionGetDof(vertices, v, &w));
      g.vwgt.push_back(static_cast<double>(w));
    }
  }
  if (!state->compare.empty()) {
    PetscCall(ComparedParts(part, state->compare, nparts, n, start, adjacency,
                            vertices, targets, &compared));
  }
  PetscCall(PetscErrorOf(
      comm, PartitionJob(comm, g, static_cast<int32_t>(nparts), state->options,
                         state->compare.empty() ? nullptr : &compared, &out)));
  state->report = std::move(out.report);
  part->edgeCut = static_cast<PetscInt>(std::llround(out.cut));
  part->balance = static_cast<PetscReal>(out.balance);
  // The section counts each part's vertices; the IS lists them part by part,
  // in local order within a part.
  std::vector<PetscInt> order;
  order.reserve(n);
  for (PetscInt v = 0; v < n; ++v)
    PetscCall(PetscSectionAddDof(parts, out.local_part[v], 1));
  std::vector<PetscInt> next(nparts + 1, 0);
  for (PetscInt v = 0; v < n; ++v) ++next[out.local_part[v] + 1];
  for (PetscInt p = 0; p < nparts; ++p) next[p + 1] += next[p];
  order.resize(n);
  for (PetscInt v = 0; v < n; ++v) order[next[out.local_part[v]]++] = v;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, order.data(), PETSC_COPY_VALUES,
                            partition));
  PetscFunctionReturn(0);
}

PetscErrorCode PartitionAtBoundary(PetscPartitioner part, PetscInt nparts,
                                   PetscInt n, PetscInt start[],
                                   PetscInt adjacency[], PetscSection vertices,
                                   PetscSection targets, PetscSection parts,
                                   IS* partition) {
  return AtPetscBoundary(PetscObjectComm((PetscObject)part), [&] {
    return Partition(part, nparts, n, start, adjacency, vertices, targets,
                     parts, partition);
  });
}

PetscErrorCode SetFromOptions(PetscPartitioner part,
                              PetscOptionItems* PetscOptionsObject) {
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "rankmap partitioner options");
  PetscCall(ReadOptions(PetscOptionsObject, "petscpartitioner", StateOf(part)));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode View(PetscPartitioner part, PetscViewer viewer) {
  return ViewState(*StateOf(part), viewer);
}

PetscErrorCode Destroy(PetscPartitioner part) {
  delete StateOf(part);
  part->data = nullptr;
  return 0;
}

}  // namespace

// The constructor PETSc calls for PetscPartitionerSetType(part, "rankmap").
extern "C" PetscErrorCode PetscPartitionerCreate_Rankmap(
    PetscPartitioner part) {
  PetscFunctionBegin;
  part->data = new RankmapState;
  part->ops->partition = PartitionAtBoundary;
  part->ops->setfromoptions = SetFromOptions;
  part->ops->view = View;
  part->ops->destroy = Destroy;
  PetscFunctionReturn(0);
}

}  // namespace rankmap::plugins::petsc
