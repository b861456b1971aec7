#include "graphs/polymesh.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/gunzip.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/foam_boundary.h"
#include "graphs/foam_file.h"

namespace rankmap::graphs {
namespace {

namespace fs = std::filesystem;

// A gzip text replaced by its contents, within what is left of the budget
// (*left, which the decompressed text then uses up).
absl::Status Decompress(std::string& text, const std::string& name,
                        int64_t* left) {
  if (!base::IsGzip(text)) return absl::OkStatus();
  ASSIGN_OR_RETURN(text, base::Gunzip(text, name, std::max<int64_t>(*left, 0)));
  *left -= static_cast<int64_t>(text.size());
  return absl::OkStatus();
}

// A piece's label files opened, their sizes read but not their labels.
struct OpenPiece {
  FoamFile owner, neighbour;
  std::optional<FoamFile> addressing;
  int64_t faces = 0, internal = 0, addresses = 0;
};

absl::StatusOr<OpenPiece> Open(const internal::PieceTexts& t) {
  ASSIGN_OR_RETURN(FoamFile owner, FoamFile::Open(t.owner, t.owner_name));
  ASSIGN_OR_RETURN(FoamFile neighbour,
                   FoamFile::Open(t.neighbour, t.neighbour_name));
  OpenPiece p{std::move(owner), std::move(neighbour), std::nullopt};
  ASSIGN_OR_RETURN(p.faces, p.owner.ListSize());
  ASSIGN_OR_RETURN(p.internal, p.neighbour.ListSize());
  if (!t.addressing.empty()) {
    ASSIGN_OR_RETURN(FoamFile a,
                     FoamFile::Open(t.addressing, t.addressing_name));
    ASSIGN_OR_RETURN(p.addresses, a.ListSize());
    p.addressing.emplace(std::move(a));
  }
  return p;
}

// The labels of an opened piece. Cells: the owner note's nCells when it has
// one (no more than the faces: every cell has several), else the largest
// index + 1.
absl::Status ReadLabels(OpenPiece& open, MeshPiece& piece) {
  const int64_t note = open.owner.header().NoteCount("nCells");
  if (note > open.faces) {
    return absl::InvalidArgumentError(
        absl::StrCat(piece.owner_name, ": the header's note says nCells:", note,
                     ", more cells than the list's ", open.faces, " faces"));
  }
  const int64_t limit = note >= 0 ? note : INT32_MAX;
  piece.owner_line = open.owner.lexer().line();
  ASSIGN_OR_RETURN(piece.owner, open.owner.ReadLabels(limit, "a cell index"));
  piece.neighbour_line = open.neighbour.lexer().line();
  ASSIGN_OR_RETURN(piece.neighbour,
                   open.neighbour.ReadLabels(limit, "a cell index"));
  int64_t cells = note;
  if (cells < 0) {
    int32_t top = -1;
    for (int32_t c : piece.owner) top = std::max(top, c);
    for (int32_t c : piece.neighbour) top = std::max(top, c);
    cells = int64_t{top} + 1;
  }
  piece.num_cells = static_cast<int32_t>(cells);
  if (open.addressing) {
    ASSIGN_OR_RETURN(piece.global_cell,
                     open.addressing->ReadLabels(INT32_MAX, "a cell address"));
  }
  return absl::OkStatus();
}

// Arcs of the graph at most: both directions of every internal face and of
// every face of a coupled patch (a pair counted from both of its sides).
int64_t MaxArcs(const std::vector<MeshPiece>& pieces) {
  int64_t arcs = 0;
  for (const MeshPiece& p : pieces) {
    arcs += 2 * static_cast<int64_t>(p.neighbour.size());
    for (const FoamPatch& patch : p.patches) {
      if (patch.type.find("yclic") != std::string::npos ||
          patch.type.starts_with("processor")) {
        arcs += patch.num_faces;
      }
    }
  }
  return arcs;
}

absl::Status CheckGraphBudget(const std::vector<MeshPiece>& pieces,
                              const ReadOptions& options, int64_t budget) {
  int64_t cells = 0;
  for (const MeshPiece& p : pieces) cells += p.num_cells;
  const int64_t arcs = MaxArcs(pieces);
  const int64_t need = EstimatedGraphBytes(cells, arcs);
  const int64_t after =
      options.consumer_bytes ? options.consumer_bytes(cells, arcs) : 0;
  return base::CheckMemory(
      absl::StrCat(pieces[0].owner_name, ": the cell graph of ", cells,
                   " cells", after > 0 ? " and its mapping" : ""),
      base::SaturatingMulAdd(1, need, after), budget);
}

// The mesh directory of `root` (a case or a processor directory).
std::string MeshDir(const std::string& root, const std::string& region) {
  return region.empty() ? absl::StrCat(root, "/constant/polyMesh")
                        : absl::StrCat(root, "/constant/", region, "/polyMesh");
}

// `dir/file` or, when only that exists, `dir/file.gz`; the text and the path
// read. `optional`: an absent file gives an empty text and path.
absl::Status ReadMeshFile(const std::string& dir, const std::string& file,
                          bool optional, std::string* text, std::string* path) {
  for (const std::string& p :
       {absl::StrCat(dir, "/", file), absl::StrCat(dir, "/", file, ".gz")}) {
    if (!base::IsRegularFile(p)) continue;
    ASSIGN_OR_RETURN(*text, base::ReadFile(p, "OpenFOAM mesh file"));
    *path = p;
    return absl::OkStatus();
  }
  if (optional) return absl::OkStatus();
  return absl::NotFoundError(
      absl::StrCat(dir, ": no ", file, " (nor ", file, ".gz)"));
}

absl::StatusOr<internal::PieceTexts> ReadPiece(const std::string& dir,
                                               bool with_addressing) {
  internal::PieceTexts t;
  RETURN_IF_ERROR(ReadMeshFile(dir, "owner", false, &t.owner, &t.owner_name));
  RETURN_IF_ERROR(
      ReadMeshFile(dir, "neighbour", false, &t.neighbour, &t.neighbour_name));
  RETURN_IF_ERROR(
      ReadMeshFile(dir, "boundary", false, &t.boundary, &t.boundary_name));
  if (with_addressing) {
    RETURN_IF_ERROR(ReadMeshFile(dir, "cellProcAddressing", true, &t.addressing,
                                 &t.addressing_name));
  }
  return t;
}

bool HasMesh(const std::string& dir) {
  return base::IsRegularFile(dir + "/owner") ||
         base::IsRegularFile(dir + "/owner.gz");
}

// The number of processorN directories of a decomposed case (0 when none),
// checked to run from 0 without gaps.
absl::StatusOr<int32_t> CountProcessors(const std::string& case_dir) {
  std::vector<int64_t> ids;
  bool collated = false;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(case_dir, ec)) {
    const std::string name = e.path().filename().string();
    int64_t id = 0;
    if (name.starts_with("processors")) collated = true;
    if (name.starts_with("processor") &&
        base::ParseInt(std::string_view(name).substr(9), &id) && id >= 0 &&
        name.substr(9).find_first_not_of("0123456789") == std::string::npos &&
        e.is_directory(ec)) {
      ids.push_back(id);
    }
  }
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat(case_dir, ": cannot list the case: ", ec.message()));
  }
  if (ids.empty() && collated) {
    return absl::InvalidArgumentError(
        absl::StrCat(case_dir,
                     ": a collated decomposition (processorsN/) is not read; "
                     "reconstruct the mesh (reconstructParMesh) or decompose "
                     "with -fileHandler uncollated"));
  }
  std::sort(ids.begin(), ids.end());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) {
      return absl::NotFoundError(absl::StrCat(
          case_dir, ": processor", i,
          " is missing (the pieces found run to processor", ids.back(), ")"));
    }
  }
  return static_cast<int32_t>(ids.size());
}

absl::Status CheckRegion(const std::string& region) {
  if (region.empty()) return absl::OkStatus();
  if (region == "." || region == ".." ||
      region.find_first_of("/\\") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--region ", base::Quote(region),
                     ": a region is a name under constant/, without '/'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PolyMeshGraph> ReadPolyMesh(const std::string& case_dir,
                                           const PolyMeshOptions& options) {
  RETURN_IF_ERROR(CheckRegion(options.region));
  if (!base::IsDirectory(case_dir)) {
    return absl::NotFoundError(
        absl::StrCat(case_dir, ": no such case directory"));
  }
  std::vector<internal::PieceTexts> pieces;
  const std::string serial = MeshDir(case_dir, options.region);
  if (HasMesh(serial)) {
    ASSIGN_OR_RETURN(internal::PieceTexts t, ReadPiece(serial, false));
    pieces.push_back(std::move(t));
  } else {
    ASSIGN_OR_RETURN(const int32_t n, CountProcessors(case_dir));
    if (n == 0) {
      return absl::NotFoundError(absl::StrCat(
          serial, ": no owner file (nor owner.gz), and ", case_dir,
          " has no processor* directories: no mesh to read (run blockMesh?)"));
    }
    for (int32_t p = 0; p < n; ++p) {
      ASSIGN_OR_RETURN(
          internal::PieceTexts t,
          ReadPiece(
              MeshDir(absl::StrCat(case_dir, "/processor", p), options.region),
              true));
      pieces.push_back(std::move(t));
    }
  }
  return internal::CellGraphFromTexts(std::move(pieces), options.read);
}

namespace internal {

absl::StatusOr<PolyMeshGraph> CellGraphFromTexts(std::vector<PieceTexts> texts,
                                                 const ReadOptions& options) {
  if (texts.empty()) {
    return absl::InvalidArgumentError("a mesh needs at least one piece");
  }
  const int64_t budget = MemoryBudget(options);
  int64_t left = budget;  // for decompressed files, together
  std::vector<OpenPiece> open;
  int64_t labels = 0;
  for (PieceTexts& t : texts) {
    RETURN_IF_ERROR(Decompress(t.owner, t.owner_name, &left));
    RETURN_IF_ERROR(Decompress(t.neighbour, t.neighbour_name, &left));
    RETURN_IF_ERROR(Decompress(t.addressing, t.addressing_name, &left));
    RETURN_IF_ERROR(Decompress(t.boundary, t.boundary_name, &left));
    ASSIGN_OR_RETURN(OpenPiece p, Open(t));
    labels += p.faces + p.internal + p.addresses;
    open.push_back(std::move(p));
  }
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat(texts[0].owner_name, ": a mesh of ", labels, " labels"),
      base::SaturatingMulAdd(labels, 4), budget));
  std::vector<MeshPiece> pieces(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    MeshPiece& piece = pieces[i];
    PieceTexts& t = texts[i];
    piece.owner_name = t.owner_name;
    piece.neighbour_name = t.neighbour_name;
    piece.boundary_name = t.boundary_name;
    piece.addressing_name = t.addressing_name;
    RETURN_IF_ERROR(ReadLabels(open[i], piece));
    ASSIGN_OR_RETURN(piece.patches,
                     ReadFoamBoundary(t.boundary, t.boundary_name));
    t = PieceTexts();  // the texts are no longer needed
  }
  RETURN_IF_ERROR(CheckGraphBudget(pieces, options, budget));
  return BuildCellGraph(pieces);
}

}  // namespace internal
}  // namespace rankmap::graphs
