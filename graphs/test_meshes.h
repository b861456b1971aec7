// Small OpenFOAM meshes written by hand, for the tests of the polyMesh
// reader and its mutation test: the files as OpenFOAM writes them (ASCII or
// binary lists, boundary dictionaries), gzip, and two meshes whose cell
// graphs are known by hand.
#ifndef RANKMAP_GRAPHS_TEST_MESHES_H_
#define RANKMAP_GRAPHS_TEST_MESHES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graphs/polymesh.h"

namespace rankmap::graphs::testing {

// A FoamFile header of class `cls` (a `note` entry when not empty).
std::string Header(bool binary, std::string_view cls, std::string_view note);

// A labelList file: ASCII, or binary with 32-bit little-endian labels.
std::string List(const std::vector<int32_t>& v, bool binary,
                 std::string_view note = "");

struct Patch {
  std::string name, type;
  int64_t faces, start;
  std::string extra;  // more entries, e.g. "neighbourPatch right;"
};

// A boundary file listing `patches`; patch k's name is on line 9 + 7k.
std::string Boundary(const std::vector<Patch>& patches);

// `text` as one gzip member.
std::string Gzip(const std::string& text);

// A row of four hexahedra along x, x periodic: internal faces (0,1), (1,2),
// (2,3); the cyclic pair `left` (cell 0) / `right` (cell 3); 16 side faces.
// Its cell graph is the ring 0-1-2-3-0, each edge one face. The patches'
// extra entries and type can be replaced to break or change the coupling.
internal::PieceTexts Ring(bool binary,
                          std::string left_extra = "neighbourPatch right;",
                          std::string right_extra = "neighbourPatch left;",
                          std::string cyclic_type = "cyclic");

// The ring cut between cells 1 and 2: piece 0 holds cells 0, 1 (ASCII),
// piece 1 holds 2, 3 (binary), each with its processor patch and the
// processorCyclic patch carrying the periodic face. `addressing`: each
// piece's global cells (cellProcAddressing), or none.
std::vector<internal::PieceTexts> SplitRing(
    std::vector<std::vector<int32_t>> addressing = {});

}  // namespace rankmap::graphs::testing

#endif  // RANKMAP_GRAPHS_TEST_MESHES_H_
