#include "graphs/foam_boundary.h"

#include <string>

#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

constexpr char kHeader[] =
    "FoamFile\n{\n    version 2.0;\n    format ascii;\n"
    "    class polyBoundaryMesh;\n    object boundary;\n}\n";  // 7 lines

std::string Error(const std::string& body) {
  auto p = ReadFoamBoundary(std::string(kHeader) + body, "boundary");
  return p.ok() ? "ok" : std::string(p.status().message());
}

TEST(FoamBoundaryTest, ReadsPatchesAndSkipsOtherEntries) {
  const std::string text = std::string(kHeader) + R"(
3
(
    movingWall
    {
        type            wall;
        inGroups        List<word> 1(wall);
        nFaces          20;
        startFace       760;
    }
    left_half0
    {
        type            cyclic;
        inGroups        1(cyclic);
        nFaces          40;
        startFace       780;
        matchTolerance  0.0001;
        transform       translational;
        separationVector (0 0 -1);
        neighbourPatch  left_half1;
        someDict        { a 1; b (1 2 {c 3;}); }
    }
    procBoundary0to1throughleft_half1
    {
        type            processorCyclic;
        nFaces          0;
        startFace       820;
        myProcNo        0;
        neighbProcNo    1;
        referPatch      left_half1;
    }
)
// ***** //
)";
  auto patches = ReadFoamBoundary(text, "boundary");
  ASSERT_TRUE(patches.ok()) << patches.status();
  ASSERT_EQ(patches->size(), 3u);
  const FoamPatch& wall = (*patches)[0];
  EXPECT_EQ(wall.name, "movingWall");
  EXPECT_EQ(wall.type, "wall");
  EXPECT_EQ(wall.num_faces, 20);
  EXPECT_EQ(wall.start_face, 760);
  EXPECT_EQ(wall.line, 11);
  const FoamPatch& cyc = (*patches)[1];
  EXPECT_EQ(cyc.type, "cyclic");
  EXPECT_EQ(cyc.neighbour_patch, "left_half1");
  EXPECT_EQ(cyc.num_faces, 40);
  const FoamPatch& proc = (*patches)[2];
  EXPECT_EQ(proc.type, "processorCyclic");
  EXPECT_EQ(proc.my_proc, 0);
  EXPECT_EQ(proc.neighb_proc, 1);
  EXPECT_EQ(proc.refer_patch, "left_half1");
  EXPECT_EQ(proc.num_faces, 0);
}

TEST(FoamBoundaryTest, EmptyListIsNoPatches) {
  EXPECT_EQ(Error("0()\n"), "ok");
}

TEST(FoamBoundaryTest, ErrorsNameTheLine) {
  EXPECT_EQ(Error("1\n(\n  a\n  {\n    type wall;\n    nFaces 2;\n  }\n)\n"),
            "boundary:10: patch 'a' has no startFace");
  EXPECT_EQ(Error("1\n(\n  a\n  {\n    type wall; nFaces -2; startFace 0;\n"
                  "  }\n)\n"),
            "boundary:12: expected nFaces as an integer in [0, "
            "9223372036854775807], found '-2'");
  EXPECT_EQ(Error("2\n(\n a { type wall; nFaces 1; startFace 0; }\n"
                  " a { type wall; nFaces 1; startFace 1; }\n)\n"),
            "boundary:11: a second patch named 'a'");
  EXPECT_EQ(Error("2\n(\n a { type wall; nFaces 1; startFace 0; }\n)\n"),
            "boundary:8: the list declares 2 patches but holds 1");
  EXPECT_EQ(Error("1\n(\n a { type wall; nFaces 1; startFace 0; }\n"
                  " b { type wall; nFaces 1; startFace 1; }\n)\n"),
            "boundary:11: more patches than the 1 the list declares");
  EXPECT_EQ(
      Error("1\n(\n a { type wall; nFaces 1; startFace 0; x (1 2; }\n)\n"),
      "boundary:10: expected ')' in the value of 'x', found '}'");
  EXPECT_EQ(Error("1\n(\n a { type wall; nFaces 1; startFace 0;\n"
                  " myProcNo 3000000000; }\n)\n"),
            "boundary:11: expected myProcNo as an integer in [0, 2147483647], "
            "found '3000000000'");
  EXPECT_EQ(Error("99999999\n(\n)\n"),
            "boundary:8: expected the number of patches (at most one per 8 "
            "bytes of the rest of the file), found '99999999'");
  EXPECT_EQ(Error("1\n(\n \"a\" { type wall; nFaces 1; startFace 0; }\n)\n"),
            "boundary:10: expected a patch name or ')', found the string 'a'");
  EXPECT_EQ(Error("0()\n0()\n"),
            "boundary:9: expected the end of the file, found '0'");
  std::string deep = "1\n(\n a { type wall; nFaces 1; startFace 0; x ";
  deep += std::string(100, '(');
  EXPECT_EQ(Error(deep), "boundary:10: brackets nested too deeply");
}

}  // namespace
}  // namespace rankmap::graphs
