#include "graphs/test_meshes.h"

#include <zlib.h>

namespace rankmap::graphs::testing {

std::string Header(bool binary, std::string_view cls, std::string_view note) {
  std::string h = "FoamFile\n{\n    version 2.0;\n    format ";
  h += binary ? "binary;\n    arch \"LSB;label=32;scalar=64\";\n" : "ascii;\n";
  h += "    class " + std::string(cls) + ";\n";
  if (!note.empty()) h += "    note \"" + std::string(note) + "\";\n";
  return h + "}\n";
}

std::string List(const std::vector<int32_t>& v, bool binary,
                 std::string_view note) {
  std::string s =
      Header(binary, "labelList", note) + std::to_string(v.size()) + "\n(";
  for (int32_t x : v) {
    if (binary) {
      for (int b = 0; b < 4; ++b)
        s.push_back(static_cast<char>((x >> (8 * b)) & 0xff));
    } else {
      s += "\n" + std::to_string(x);
    }
  }
  return s + (binary ? ")\n" : "\n)\n");
}

std::string Boundary(const std::vector<Patch>& patches) {
  std::string s = Header(false, "polyBoundaryMesh", "") +
                  std::to_string(patches.size()) + "\n(\n";
  for (const Patch& p : patches) {
    s += "    " + p.name + "\n    {\n        type " + p.type +
         ";\n        nFaces " + std::to_string(p.faces) +
         ";\n        startFace " + std::to_string(p.start) + ";\n        " +
         p.extra + "\n    }\n";
  }
  return s + ")\n";
}

std::string Gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);  // Z_STREAM_END: the output buffer is large enough
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

internal::PieceTexts Ring(bool binary, std::string left_extra,
                          std::string right_extra, std::string cyclic_type) {
  std::vector<int32_t> owner = {0, 1, 2, 0, 3};
  for (int c = 0; c < 4; ++c) owner.insert(owner.end(), 4, c);
  internal::PieceTexts t;
  t.owner =
      List(owner, binary, "nPoints:20  nCells:4  nFaces:21  nInternalFaces:3");
  t.neighbour = List({1, 2, 3}, binary);
  t.boundary = Boundary({{"left", cyclic_type, 1, 3, left_extra},
                         {"right", cyclic_type, 1, 4, right_extra},
                         {"sides", "wall", 16, 5, ""}});
  t.owner_name = "owner";
  t.neighbour_name = "neighbour";
  t.boundary_name = "boundary";
  return t;
}

std::vector<internal::PieceTexts> SplitRing(
    std::vector<std::vector<int32_t>> addressing) {
  std::vector<internal::PieceTexts> pieces(2);
  for (int a = 0; a < 2; ++a) {
    internal::PieceTexts& t = pieces[a];
    const int b = 1 - a;
    const std::string me = std::to_string(a), other = std::to_string(b);
    // Piece 0: face to piece 1 owned by local 1, the periodic face by local
    // 0 (its `left`); piece 1: face to 0 owned by local 0, periodic by 1.
    std::vector<int32_t> owner = {0};
    owner.insert(owner.end(), 4, 0);
    owner.insert(owner.end(), 4, 1);
    owner.push_back(a == 0 ? 1 : 0);
    owner.push_back(a == 0 ? 0 : 1);
    t.owner = List(owner, a == 1);
    t.neighbour = List({1}, a == 1);
    const std::string procs =
        "myProcNo " + me + "; neighbProcNo " + other + ";";
    t.boundary = Boundary(
        {{"sides", "wall", 8, 1, ""},
         {"left", "cyclic", 0, 9, "neighbourPatch right;"},
         {"right", "cyclic", 0, 9, "neighbourPatch left;"},
         {"procBoundary" + me + "to" + other, "processor", 1, 9, procs},
         {"procBoundary" + me + "to" + other + "through", "processorCyclic", 1,
          10, procs + " referPatch " + (a == 0 ? "left" : "right") + ";"}});
    t.owner_name = "processor" + me + "/owner";
    t.neighbour_name = "processor" + me + "/neighbour";
    t.boundary_name = "processor" + me + "/boundary";
    if (!addressing.empty()) {
      t.addressing = List(addressing[a], false);
      t.addressing_name = "processor" + me + "/cellProcAddressing";
    }
  }
  return pieces;
}

}  // namespace rankmap::graphs::testing
