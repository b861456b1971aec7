// OpenFOAM's file container: the `FoamFile { ... }` header and the label
// lists that follow it (`owner`, `neighbour`, `cellProcAddressing`, the
// `manual` decomposition's `cellDecomposition`), in ASCII or binary, as
// OpenFOAM writes them:
//   ascii    N ( l0 l1 ... )     labels as text, any blanks and comments
//   binary   N ( <N raw labels> )  little- or big-endian, 32- or 64-bit as
//                                  the header's `arch` says
//   either   N { l }             N copies of l (a uniform list)
// gzip-compressed files (OpenFOAM's `writeCompression on`, `owner.gz`) are
// decompressed by the caller (base/gunzip.h) before they come here.
//
// The reader is built for untrusted files: counts are compared with the bytes
// that remain before anything is allocated (a binary list must hold its N
// labels, an ASCII one at least a byte per label), and every error reads
// `name:line: ...` with the line of the offending token (for a binary list,
// the line of its opening parenthesis and the label's index).
//
//   ASSIGN_OR_RETURN(FoamFile f, FoamFile::Open(text,
//   "constant/polyMesh/owner")); ASSIGN_OR_RETURN(int64_t n, f.ListSize()); //
//   before the bulk ASSIGN_OR_RETURN(std::vector<int32_t> owner,
//   f.ReadLabels(INT32_MAX));
#ifndef RANKMAP_GRAPHS_FOAM_FILE_H_
#define RANKMAP_GRAPHS_FOAM_FILE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/foam_lexer.h"

namespace rankmap::graphs {

struct FoamHeader {
  bool binary = false;      // format binary (else ascii)
  int32_t label_bytes = 4;  // arch "label=32" or "label=64"
  bool big_endian = false;  // arch "MSB"
  std::string class_name;   // "labelList", "polyBoundaryMesh", ...
  std::string object;
  std::string note;  // e.g. "nPoints:882  nCells:400  nFaces:1640 ..."

  // The count `key:N` in the note (OpenFOAM writes nCells, nFaces,
  // nInternalFaces in owner's and neighbour's notes), or -1 when absent or
  // not a non-negative integer.
  int64_t NoteCount(std::string_view key) const;
};

class FoamFile {
 public:
  // Parses the header. `text` must outlive the FoamFile. Errors: a text
  // without `FoamFile {` before anything else, a malformed entry, a format
  // other than ascii or binary, an arch whose label size is not 32 or 64.
  static absl::StatusOr<FoamFile> Open(std::string_view text,
                                       std::string_view name);

  const FoamHeader& header() const { return header_; }
  const std::string& name() const { return lexer_.name(); }
  FoamLexer& lexer() { return lexer_; }

  // The declared size of the label list that follows the header, read
  // without its contents; ReadLabels then reads the list. Errors: no size, a
  // size that is not an integer in [0, 2^31), a non-uniform list whose
  // labels cannot fit in the rest of the file.
  absl::StatusOr<int64_t> ListSize();

  // The labels of the list (ListSize is called first if it was not), each
  // checked to lie in [0, limit); `what` names them in errors ("a cell
  // index"). Then nothing but blanks and comments may follow. Memory: 4
  // bytes a label; the caller checks ListSize() against its budget first.
  absl::StatusOr<std::vector<int32_t>> ReadLabels(int64_t limit,
                                                  std::string_view what);

 private:
  explicit FoamFile(FoamLexer lexer) : lexer_(std::move(lexer)) {}
  absl::Status ParseHeader();
  absl::StatusOr<std::vector<int32_t>> ReadAscii(int64_t limit,
                                                 std::string_view what);
  absl::StatusOr<std::vector<int32_t>> ReadBinary(int64_t limit,
                                                  std::string_view what);

  FoamLexer lexer_;
  FoamHeader header_;
  int64_t size_ = -1;      // set by ListSize
  bool uniform_ = false;   // N { l }
  int64_t open_line_ = 0;  // line of the list's '(' or '{'
};

// True when the first token of `text` after blanks and comments is the word
// FoamFile: an OpenFOAM file, not another format. O(length of the leading
// comments).
bool LooksLikeFoamFile(std::string_view text);

// A labelList file as OpenFOAM writes it in ASCII (the header, then N, '(',
// one label a line, ')'), readable by OpenFOAM itself: the `manual`
// decomposition's dataFile when `labels` are processor numbers. `object`
// names the file (its base name), `location` its folder in the case (e.g.
// "constant"); `note` goes into the header when not empty.
std::string FormatFoamLabelList(std::span<const int32_t> labels,
                                std::string_view object,
                                std::string_view location,
                                std::string_view note = "");

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FOAM_FILE_H_
