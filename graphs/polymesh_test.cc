#include "graphs/polymesh.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "base/file.h"
#include "base/temp_dir.h"
#include "graphs/test_meshes.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using testing::Boundary;
using testing::Gzip;
using testing::Header;
using testing::List;
using testing::Ring;
using testing::SplitRing;
using Edges = std::vector<std::tuple<int, int, double>>;

// The edges of g with u < v.
Edges EdgesOf(const CommGraph& g) {
  Edges e;
  for (VertexId u = 0; u < g.num_vertices(); ++u) {
    for (size_t k = 0; k < g.neighbors(u).size(); ++k) {
      if (u < g.neighbors(u)[k])
        e.emplace_back(u, g.neighbors(u)[k], g.weights(u)[k]);
    }
  }
  return e;
}

absl::StatusOr<PolyMeshGraph> Read(std::vector<internal::PieceTexts> pieces,
                                   int64_t budget = 0) {
  ReadOptions o;
  o.max_memory_bytes = budget;
  return internal::CellGraphFromTexts(std::move(pieces), o);
}

std::string Error(std::vector<internal::PieceTexts> pieces) {
  auto m = Read(std::move(pieces));
  return m.ok() ? "ok" : std::string(m.status().message());
}

const Edges kRing = {{0, 1, 1.0}, {0, 3, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}};

TEST(PolyMeshTest, RingWithCyclicEndsInEveryEncoding) {
  for (bool binary : {false, true}) {
    for (bool gz : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "binary " << binary << " gz " << gz);
      internal::PieceTexts t = Ring(binary);
      if (gz) {
        t.owner = Gzip(t.owner);
        t.neighbour = Gzip(t.neighbour);
        t.boundary = Gzip(t.boundary);
      }
      auto m = Read({t});
      ASSERT_TRUE(m.ok()) << m.status();
      EXPECT_EQ(m->cells, 4);
      EXPECT_EQ(m->internal_faces, 3);
      EXPECT_EQ(m->cyclic_faces, 1);
      EXPECT_EQ(m->processor_faces, 0);
      EXPECT_EQ(m->pieces, 1);
      EXPECT_TRUE(m->uncoupled.empty());
      EXPECT_EQ(EdgesOf(m->graph), kRing);
      EXPECT_FALSE(m->graph.has_vertex_weights());
    }
  }
}

TEST(PolyMeshTest, CellsSharingSeveralFacesWeighTheirCount) {
  // Two cells joined by an internal face and by the cyclic pair: weight 2.
  internal::PieceTexts t;
  std::vector<int32_t> owner = {0, 0, 1};
  owner.insert(owner.end(), 4, 0);
  owner.insert(owner.end(), 4, 1);
  t.owner = List(owner, false);  // no note: cells = largest index + 1
  t.neighbour = List({1}, false);
  t.boundary = Boundary({{"a", "cyclicSlip", 1, 1, "neighbourPatch b;"},
                         {"b", "cyclicSlip", 1, 2, "neighbourPatch a;"},
                         {"sides", "wall", 8, 3, ""}});
  t.owner_name = "owner";
  t.neighbour_name = "neighbour";
  t.boundary_name = "boundary";
  auto m = Read({t});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EdgesOf(m->graph), (Edges{{0, 1, 2.0}}));
}

TEST(PolyMeshTest, PreTwoCyclicHoldsBothHalves) {
  internal::PieceTexts t = Ring(false);
  // `left` and `right` merged into one patch of two faces.
  t.boundary =
      Boundary({{"ends", "cyclic", 2, 3, ""}, {"sides", "wall", 16, 5, ""}});
  auto m = Read({t});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EdgesOf(m->graph), kRing);
  EXPECT_EQ(m->cyclic_faces, 1);
}

TEST(PolyMeshTest, GeometricCouplingsAreListedAndLeftOut) {
  auto m = Read({Ring(false, "neighbourPatch right;", "neighbourPatch left;",
                      "cyclicAMI")});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EdgesOf(m->graph), (Edges{{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}}));
  ASSERT_EQ(m->uncoupled.size(), 2u);
  EXPECT_EQ(m->uncoupled[0],
            "left (cyclicAMI, 1 faces): its faces are paired by geometry, not "
            "by index; not in the graph");
}

TEST(PolyMeshTest, DecomposedPiecesJoinIntoTheWholeMesh) {
  auto m = Read(SplitRing());
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->pieces, 2);
  EXPECT_EQ(m->cells, 4);
  EXPECT_EQ(m->internal_faces, 2);
  EXPECT_EQ(m->processor_faces, 2);
  EXPECT_FALSE(m->cell_addressing);
  EXPECT_EQ(EdgesOf(m->graph), kRing);
  // cellProcAddressing renumbers: piece 0 holds cells 3, 1, piece 1 holds
  // 0, 2; the ring 0-1-2-3-0 of piece numbering becomes 3-1-0-2-3.
  m = Read(SplitRing({{3, 1}, {0, 2}}));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->cell_addressing);
  EXPECT_EQ(EdgesOf(m->graph),
            (Edges{{0, 1, 1.0}, {0, 2, 1.0}, {1, 3, 1.0}, {2, 3, 1.0}}));
}

TEST(PolyMeshTest, OnePieceAloneListsItsProcessorPatches) {
  auto m = Read({SplitRing()[0]});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EdgesOf(m->graph), (Edges{{0, 1, 1.0}}));
  ASSERT_EQ(m->uncoupled.size(), 2u);
  EXPECT_EQ(m->uncoupled[0],
            "procBoundary0to1 (processor, 1 faces): joins another processor's "
            "piece, which was not read");
}

TEST(PolyMeshTest, BrokenMeshesAreRefusedWithFileAndLine) {
  internal::PieceTexts t = Ring(false);
  t.boundary = Boundary({{"left", "cyclic", 1, 3, "neighbourPatch right;"},
                         {"right", "cyclic", 1, 5, "neighbourPatch left;"},
                         {"sides", "wall", 16, 5, ""}});
  EXPECT_EQ(Error({t}),
            "boundary:16: patch right: startFace 5, expected 4 (patches follow "
            "the 3 internal faces and each other)");
  t.boundary = Boundary({{"left", "cyclic", 1, 3, "neighbourPatch right;"},
                         {"right", "cyclic", 1, 4, "neighbourPatch left;"},
                         {"sides", "wall", 17, 5, ""}});
  EXPECT_EQ(Error({t}),
            "boundary:23: patch sides: 17 faces from 5 pass the end of owner's "
            "21 faces");
  t.boundary = Boundary({{"left", "cyclic", 1, 3, "neighbourPatch right;"},
                         {"right", "cyclic", 1, 4, "neighbourPatch left;"},
                         {"sides", "wall", 15, 5, ""}});
  EXPECT_EQ(Error({t}),
            "boundary: the patches end at face 20 but owner lists 21 faces");
  EXPECT_EQ(Error({Ring(false, "neighbourPatch nowhere;")}),
            "boundary:9: patch left: neighbourPatch nowhere does not exist");
  EXPECT_EQ(
      Error({Ring(false, "neighbourPatch right;", "neighbourPatch right;")}),
      "boundary:9: patch left: neighbourPatch right names right as its "
      "neighbourPatch");
  EXPECT_EQ(Error({Ring(false, "neighbourPatch left;")}),
            "boundary:9: patch left: neighbourPatch left is the patch itself");
  t = Ring(false);
  t.neighbour = List({1, 2, 2}, false);
  EXPECT_EQ(Error({t}), "neighbour:8: face 2 has cell 2 on both sides");
  t = Ring(false);
  t.neighbour = List({1, 2, 4}, false);
  EXPECT_EQ(Error({t}),
            "neighbour:11: expected a cell index in [0, 4), found '4'");
  t = Ring(false);
  t.owner = List({0, 1, 2, 0, 3}, false, "nCells:9");
  EXPECT_EQ(Error({t}),
            "owner: the header's note says nCells:9, more cells than the "
            "list's 5 faces");
  std::vector<internal::PieceTexts> split = SplitRing({{0, 1}, {1, 2}});
  EXPECT_EQ(Error(split),
            "processor1/cellProcAddressing: cell 0 has address 1, already "
            "given to another cell");
  split = SplitRing();
  split[1].boundary = Boundary({{"sides", "wall", 10, 1, ""}});
  EXPECT_EQ(Error(split),
            "processor0/boundary:30: patch procBoundary0to1: processor1 has "
            "no processor patch towards processor0");
}

// A later piece's face ranges are checked before an earlier piece pairs its
// processor faces with them (the mutation test's soak found the read past
// the end of owner).
TEST(PolyMeshTest, EveryPieceIsCheckedBeforeAnyPairIsRead) {
  std::vector<internal::PieceTexts> split = SplitRing();
  const std::string procs = "myProcNo 1; neighbProcNo 0;";
  split[1].boundary =
      Boundary({{"sides", "wall", 8, 1, ""},
                {"left", "cyclic", 0, 9, "neighbourPatch right;"},
                {"right", "cyclic", 0, 9, "neighbourPatch left;"},
                {"procBoundary1to0", "processor", 5, 9, procs},
                {"procBoundary1to0through", "processorCyclic", 1, 14,
                 procs + " referPatch right;"}});
  EXPECT_EQ(Error(split),
            "processor1/boundary:30: patch procBoundary1to0: 5 faces from 9 "
            "pass the end of owner's 11 faces");
}

TEST(PolyMeshTest, MeshesAboveTheBudgetAreRefusedBeforeReading) {
  internal::PieceTexts t = Ring(false);
  t.owner = Header(false, "labelList", "") + "2000000{0}\n";
  auto m = Read({t}, 1 << 20);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(m.status().message(),
            "owner: a mesh of 2000003 labels needs about 7.6 MiB, above the "
            "memory budget of 1.0 MiB");
}

TEST(PolyMeshTest, CompressedFilesShareOneBudget) {
  // Two files of 600 kB once decompressed (blanks after the list) fit a
  // 1 MiB budget each but not together.
  internal::PieceTexts t = Ring(false);
  t.owner = Gzip(t.owner + std::string(600000, ' '));
  t.neighbour = Gzip(t.neighbour + std::string(600000, ' '));
  auto m = Read({t}, 1 << 20);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(m.status().message()),
            // 1 MiB less the owner file's 600 kB and list.
            "neighbour: decompresses to more than 437.9 KiB, the memory "
            "budget");
}

TEST(PolyMeshTest, ReadsCasesFromDisk) {
  auto dir = base::TempDir::Create("polymesh");
  ASSERT_TRUE(dir.ok()) << dir.status();
  const std::string c = dir->path() + "/case";
  namespace fs = std::filesystem;
  // The serial mesh in region "fluid", owner and neighbour gzip-compressed.
  fs::create_directories(c + "/constant/fluid/polyMesh");
  const internal::PieceTexts ring = Ring(true);
  ASSERT_TRUE(
      base::WriteFile(c + "/constant/fluid/polyMesh/owner.gz", Gzip(ring.owner))
          .ok());
  ASSERT_TRUE(base::WriteFile(c + "/constant/fluid/polyMesh/neighbour.gz",
                              Gzip(ring.neighbour))
                  .ok());
  ASSERT_TRUE(
      base::WriteFile(c + "/constant/fluid/polyMesh/boundary", ring.boundary)
          .ok());
  PolyMeshOptions o;
  o.region = "fluid";
  auto m = ReadPolyMesh(c, o);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EdgesOf(m->graph), kRing);
  // The default region is not there, nor processor directories.
  m = ReadPolyMesh(c);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(m.status().message(),
            c + "/constant/polyMesh: no owner file (nor owner.gz), and " + c +
                " has no processor* directories: no mesh to read (run "
                "blockMesh?)");
  // A decomposed case of the default region.
  const auto split = SplitRing({{0, 1}, {2, 3}});
  for (int p = 0; p < 2; ++p) {
    const std::string d =
        c + "/processor" + std::to_string(p) + "/constant/polyMesh";
    fs::create_directories(d);
    ASSERT_TRUE(base::WriteFile(d + "/owner", split[p].owner).ok());
    ASSERT_TRUE(base::WriteFile(d + "/neighbour", split[p].neighbour).ok());
    ASSERT_TRUE(base::WriteFile(d + "/boundary", split[p].boundary).ok());
    ASSERT_TRUE(
        base::WriteFile(d + "/cellProcAddressing", split[p].addressing).ok());
  }
  m = ReadPolyMesh(c);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->pieces, 2);
  EXPECT_TRUE(m->cell_addressing);
  EXPECT_EQ(EdgesOf(m->graph), kRing);
  fs::rename(c + "/processor1", c + "/processor2");
  m = ReadPolyMesh(c);
  EXPECT_EQ(m.status().message(),
            c + ": processor1 is missing (the pieces found run to processor2)");
  o.region = "../x";
  EXPECT_EQ(ReadPolyMesh(c, o).status().message(),
            "--region '../x': a region is a name under constant/, without '/'");
}

}  // namespace
}  // namespace rankmap::graphs
