#include "graphs/polymesh_graph.h"

#include <climits>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace rankmap::graphs {
namespace {

enum class Coupling { kNone, kCyclic, kProcessor, kGeometric };

Coupling CouplingOf(std::string_view type) {
  if (type == "cyclic" || type == "cyclicSlip") return Coupling::kCyclic;
  if (type == "processor" || type == "processorCyclic") {
    return Coupling::kProcessor;
  }
  if (type.find("AMI") != std::string_view::npos ||
      type == "nonConformalCyclic") {
    return Coupling::kGeometric;
  }
  return Coupling::kNone;
}

absl::Status PatchError(const MeshPiece& piece, const FoamPatch& p,
                        std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(piece.boundary_name, ":",
                                                 p.line, ": patch ", p.name,
                                                 ": ", std::string(message)));
}

std::string Uncoupled(const FoamPatch& p, std::string_view why) {
  return absl::StrFormat("%s (%s, %d faces): %s", p.name, p.type, p.num_faces,
                         std::string(why));
}

// Patches follow the internal faces and each other without gaps, up to the
// last face of owner (OpenFOAM's own layout of a polyMesh).
absl::Status CheckPatchRanges(const MeshPiece& piece) {
  const int64_t faces = static_cast<int64_t>(piece.owner.size());
  const int64_t internal = static_cast<int64_t>(piece.neighbour.size());
  if (internal > faces) {
    return absl::InvalidArgumentError(
        absl::StrCat(piece.neighbour_name, ":", piece.neighbour_line, ": ",
                     internal, " internal faces, more than the ", faces,
                     " faces of ", piece.owner_name));
  }
  int64_t next = internal;
  for (const FoamPatch& p : piece.patches) {
    if (p.start_face != next) {
      return PatchError(piece, p,
                        absl::StrCat("startFace ", p.start_face, ", expected ",
                                     next, " (patches follow the ", internal,
                                     " internal faces and each other)"));
    }
    if (p.num_faces > faces - next) {
      return PatchError(
          piece, p,
          absl::StrCat(p.num_faces, " faces from ", next,
                       " pass the end of owner's ", faces, " faces"));
    }
    next += p.num_faces;
  }
  if (next != faces) {
    return absl::InvalidArgumentError(
        absl::StrCat(piece.boundary_name, ": the patches end at face ", next,
                     " but ", piece.owner_name, " lists ", faces, " faces"));
  }
  return absl::OkStatus();
}

// Global cell numbers: cellProcAddressing when every piece has it (checked to
// be a permutation), else piece offsets.
class CellNumbers {
 public:
  static absl::StatusOr<CellNumbers> Of(const std::vector<MeshPiece>& pieces) {
    CellNumbers c;
    int64_t total = 0;
    int with_addressing = 0;
    for (const MeshPiece& piece : pieces) {
      c.offset_.push_back(total);
      total += piece.num_cells;
      with_addressing += !piece.global_cell.empty();
    }
    if (total > INT32_MAX) {
      return absl::InvalidArgumentError(
          absl::StrCat(pieces[0].owner_name, ": ", total,
                       " cells in all, above the 2^31 - 1 a graph holds"));
    }
    c.total_ = total;
    if (with_addressing == 0) return c;
    if (with_addressing != static_cast<int>(pieces.size())) {
      for (const MeshPiece& piece : pieces) {
        if (piece.global_cell.empty()) {
          return absl::InvalidArgumentError(absl::StrCat(
              piece.owner_name, ": this piece has no cellProcAddressing but ",
              with_addressing, " others have one"));
        }
      }
    }
    RETURN_IF_ERROR(c.CheckPermutation(pieces));
    c.addressing_ = true;
    return c;
  }

  int32_t Global(const std::vector<MeshPiece>& pieces, size_t piece,
                 int32_t cell) const {
    return addressing_ ? pieces[piece].global_cell[cell]
                       : static_cast<int32_t>(offset_[piece] + cell);
  }
  int64_t total() const { return total_; }
  bool addressing() const { return addressing_; }

 private:
  absl::Status CheckPermutation(const std::vector<MeshPiece>& pieces) const {
    std::vector<bool> seen(static_cast<size_t>(total_), false);
    for (const MeshPiece& piece : pieces) {
      if (static_cast<int64_t>(piece.global_cell.size()) != piece.num_cells) {
        return absl::InvalidArgumentError(absl::StrCat(
            piece.addressing_name, ": ", piece.global_cell.size(),
            " addresses for the piece's ", piece.num_cells, " cells"));
      }
      for (size_t i = 0; i < piece.global_cell.size(); ++i) {
        const int32_t g = piece.global_cell[i];
        if (g >= total_ || seen[g]) {
          return absl::InvalidArgumentError(absl::StrCat(
              piece.addressing_name, ": cell ", i, " has address ", g,
              g >= total_ ? absl::StrCat(", outside the ", total_, " cells")
                          : std::string(", already given to another cell")));
        }
        seen[g] = true;
      }
    }
    return absl::OkStatus();
  }

  std::vector<int64_t> offset_;
  int64_t total_ = 0;
  bool addressing_ = false;
};

// Adds the graph's edges and counts while checking the pieces.
class Assembler {
 public:
  Assembler(const std::vector<MeshPiece>& pieces, const CellNumbers& cells,
            PolyMeshGraph& out)
      : pieces_(pieces), cells_(cells), out_(out), builder_(cells.total()) {}

  absl::Status AddPiece(size_t a);
  absl::StatusOr<CommGraph> Build() && { return std::move(builder_).Build(); }

 private:
  absl::Status AddInternal(size_t a);
  absl::Status AddCyclic(size_t a, size_t i);
  absl::Status AddProcessor(size_t a, size_t i);
  // Face k of patch `p` of piece a and face k of patch `q` of piece b.
  absl::Status AddPairs(size_t a, const FoamPatch& p, size_t b,
                        const FoamPatch& q) {
    for (int64_t k = 0; k < p.num_faces; ++k) {
      RETURN_IF_ERROR(
          builder_.AddEdge(Cell(a, pieces_[a].owner[p.start_face + k]),
                           Cell(b, pieces_[b].owner[q.start_face + k]), 1.0));
    }
    return absl::OkStatus();
  }
  int32_t Cell(size_t piece, int32_t cell) const {
    return cells_.Global(pieces_, piece, cell);
  }
  const FoamPatch* Find(size_t piece, std::string_view name) const {
    for (const FoamPatch& p : pieces_[piece].patches) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  const std::vector<MeshPiece>& pieces_;
  const CellNumbers& cells_;
  PolyMeshGraph& out_;
  CommGraphBuilder builder_;
};

absl::Status Assembler::AddPiece(size_t a) {
  const MeshPiece& piece = pieces_[a];
  RETURN_IF_ERROR(AddInternal(a));
  for (size_t i = 0; i < piece.patches.size(); ++i) {
    const FoamPatch& p = piece.patches[i];
    switch (CouplingOf(p.type)) {
      case Coupling::kCyclic:
        RETURN_IF_ERROR(AddCyclic(a, i));
        break;
      case Coupling::kProcessor:
        RETURN_IF_ERROR(AddProcessor(a, i));
        break;
      case Coupling::kGeometric:
        out_.uncoupled.push_back(Uncoupled(
            p,
            "its faces are paired by geometry, not by index; not in the "
            "graph"));
        break;
      case Coupling::kNone:
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status Assembler::AddInternal(size_t a) {
  const MeshPiece& piece = pieces_[a];
  builder_.Reserve(static_cast<int64_t>(piece.neighbour.size()));
  for (size_t f = 0; f < piece.neighbour.size(); ++f) {
    if (piece.owner[f] == piece.neighbour[f]) {
      return absl::InvalidArgumentError(absl::StrCat(
          piece.neighbour_name, ":", piece.neighbour_line, ": face ", f,
          " has cell ", piece.owner[f], " on both sides"));
    }
    RETURN_IF_ERROR(builder_.AddEdge(Cell(a, piece.owner[f]),
                                     Cell(a, piece.neighbour[f]), 1.0));
  }
  out_.internal_faces += static_cast<int64_t>(piece.neighbour.size());
  return absl::OkStatus();
}

absl::Status Assembler::AddCyclic(size_t a, size_t i) {
  const MeshPiece& piece = pieces_[a];
  const FoamPatch& p = piece.patches[i];
  if (p.neighbour_patch.empty()) {
    // The pre-2.0 form: one patch, its second half matching its first.
    if (p.num_faces % 2 != 0) {
      return PatchError(piece, p,
                        absl::StrCat("a cyclic patch without neighbourPatch "
                                     "holds both halves, but has ",
                                     p.num_faces, " faces, an odd number"));
    }
    const int64_t half = p.num_faces / 2;
    for (int64_t k = 0; k < half; ++k) {
      RETURN_IF_ERROR(
          builder_.AddEdge(Cell(a, piece.owner[p.start_face + k]),
                           Cell(a, piece.owner[p.start_face + half + k]), 1.0));
    }
    out_.cyclic_faces += half;
    return absl::OkStatus();
  }
  const FoamPatch* q = Find(a, p.neighbour_patch);
  if (q == nullptr || q == &p || CouplingOf(q->type) != Coupling::kCyclic ||
      q->neighbour_patch != p.name || q->num_faces != p.num_faces) {
    return PatchError(
        piece, p,
        absl::StrCat("neighbourPatch ", p.neighbour_patch,
                     q == nullptr ? " does not exist"
                     : q == &p    ? " is the patch itself"
                     : CouplingOf(q->type) != Coupling::kCyclic
                         ? absl::StrCat(" is of type ", q->type, ", not cyclic")
                     : q->neighbour_patch != p.name
                         ? absl::StrCat(" names ", q->neighbour_patch,
                                        " as its neighbourPatch")
                         : absl::StrCat(" has ", q->num_faces, " faces, not ",
                                        p.num_faces)));
  }
  // Each pair once: from the patch listed first.
  if (q < &p) return absl::OkStatus();
  RETURN_IF_ERROR(AddPairs(a, p, a, *q));
  out_.cyclic_faces += p.num_faces;
  return absl::OkStatus();
}

absl::Status Assembler::AddProcessor(size_t a, size_t i) {
  const MeshPiece& piece = pieces_[a];
  const FoamPatch& p = piece.patches[i];
  if (pieces_.size() == 1) {
    out_.uncoupled.push_back(
        Uncoupled(p, "joins another processor's piece, which was not read"));
    return absl::OkStatus();
  }
  const int64_t n = static_cast<int64_t>(pieces_.size());
  if (p.my_proc != static_cast<int64_t>(a) || p.neighb_proc < 0 ||
      p.neighb_proc >= n || p.neighb_proc == p.my_proc) {
    return PatchError(
        piece, p,
        absl::StrCat("myProcNo ", p.my_proc, " and neighbProcNo ",
                     p.neighb_proc, " in processor", a, " (expected ", a,
                     " and another of [0, ", n, "))"));
  }
  // The partner's referPatch is the neighbourPatch of ours (the same patch
  // for the pre-2.0 cyclic form).
  std::string refer;
  if (!p.refer_patch.empty()) {
    const FoamPatch* r = Find(a, p.refer_patch);
    if (r == nullptr || CouplingOf(r->type) != Coupling::kCyclic) {
      return PatchError(piece, p,
                        absl::StrCat("referPatch ", p.refer_patch,
                                     " is not a cyclic patch of this piece"));
    }
    refer = r->neighbour_patch.empty() ? r->name : r->neighbour_patch;
  }
  const size_t b = static_cast<size_t>(p.neighb_proc);
  if (b < a) return absl::OkStatus();  // added from the lower piece
  const FoamPatch* q = nullptr;
  for (const FoamPatch& c : pieces_[b].patches) {
    if (c.type == p.type && c.my_proc == p.neighb_proc &&
        c.neighb_proc == p.my_proc && c.refer_patch == refer) {
      q = &c;
      break;
    }
  }
  if (q == nullptr || q->num_faces != p.num_faces) {
    return PatchError(
        piece, p,
        q == nullptr
            ? absl::StrCat("processor", b, " has no ", p.type,
                           " patch towards processor", a,
                           refer.empty() ? "" : " through ", refer)
            : absl::StrCat("its partner ", q->name, " in processor", b, " has ",
                           q->num_faces, " faces, not ", p.num_faces));
  }
  RETURN_IF_ERROR(AddPairs(a, p, b, *q));
  out_.processor_faces += p.num_faces;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PolyMeshGraph> BuildCellGraph(
    const std::vector<MeshPiece>& pieces) {
  if (pieces.empty()) {
    return absl::InvalidArgumentError("a mesh needs at least one piece");
  }
  ASSIGN_OR_RETURN(const CellNumbers cells, CellNumbers::Of(pieces));
  PolyMeshGraph out;
  out.pieces = static_cast<int32_t>(pieces.size());
  out.cells = cells.total();
  out.cell_addressing = cells.addressing();
  // Every piece's face ranges before any edge: a processor pair reads the
  // faces of a later piece.
  for (const MeshPiece& piece : pieces) {
    RETURN_IF_ERROR(CheckPatchRanges(piece));
  }
  Assembler assembler(pieces, cells, out);
  for (size_t a = 0; a < pieces.size(); ++a) {
    RETURN_IF_ERROR(assembler.AddPiece(a));
  }
  ASSIGN_OR_RETURN(out.graph, std::move(assembler).Build());
  return out;
}

}  // namespace rankmap::graphs
