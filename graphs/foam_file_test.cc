#include "graphs/foam_file.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

std::string Header(std::string_view format, std::string_view arch = "",
                   std::string_view note = "") {
  std::string h =
      "/*--------------------------------*- C++ -*---*\\\n"
      "| banner |\n\\*---*/\nFoamFile\n{\n    version     2.0;\n    format     "
      " ";
  h += format;
  h += ";\n    class       labelList;\n";
  if (!arch.empty()) h += "    arch        \"" + std::string(arch) + "\";\n";
  if (!note.empty()) h += "    note        \"" + std::string(note) + "\";\n";
  h += "    location    \"constant/polyMesh\";\n    object      owner;\n}\n"
       "// * * * * //\n\n\n";
  return h;
}

// A binary list of `labels` as `bytes`-byte integers, most significant byte
// first when `msb`.
std::string BinaryList(const std::vector<int64_t>& labels, int bytes,
                       bool msb) {
  std::string s = std::to_string(labels.size()) + "\n(";
  for (int64_t v : labels) {
    for (int b = 0; b < bytes; ++b) {
      const int shift = 8 * (msb ? bytes - 1 - b : b);
      s.push_back(
          static_cast<char>((static_cast<uint64_t>(v) >> shift) & 0xff));
    }
  }
  return s + ")\n\n// ***** //\n";
}

std::vector<int32_t> Labels(const std::string& text,
                            int64_t limit = INT32_MAX) {
  auto f = FoamFile::Open(text, "owner");
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return {};
  auto labels = f->ReadLabels(limit, "a cell index");
  EXPECT_TRUE(labels.ok()) << labels.status();
  return labels.ok() ? *labels : std::vector<int32_t>{};
}

std::string Error(const std::string& text, int64_t limit = INT32_MAX) {
  auto f = FoamFile::Open(text, "owner");
  if (!f.ok()) return std::string(f.status().message());
  auto labels = f->ReadLabels(limit, "a cell index");
  return labels.ok() ? "ok" : std::string(labels.status().message());
}

TEST(FoamFileTest, ReadsAnAsciiListWithItsHeader) {
  const std::string text =
      Header("ascii", "", "nPoints:8  nCells:3  nFaces:5  nInternalFaces:2") +
      "5\n(\n0\n0 /* a comment */ 1\n2 // another\n2\n)\n\n// *** //\n";
  auto f = FoamFile::Open(text, "owner");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->header().binary);
  EXPECT_EQ(f->header().class_name, "labelList");
  EXPECT_EQ(f->header().object, "owner");
  EXPECT_EQ(f->header().NoteCount("nCells"), 3);
  EXPECT_EQ(f->header().NoteCount("nInternalFaces"), 2);
  EXPECT_EQ(f->header().NoteCount("nFaces"), 5);
  EXPECT_EQ(f->header().NoteCount("nEdges"), -1);
  EXPECT_EQ(f->ListSize().value(), 5);
  auto labels = f->ReadLabels(3, "a cell index");
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(*labels, (std::vector<int32_t>{0, 0, 1, 2, 2}));
}

TEST(FoamFileTest, ReadsBinaryListsOfEveryArch) {
  const std::vector<int64_t> v = {0, 1, 258, 70000, 2147483646};
  const std::vector<int32_t> want = {0, 1, 258, 70000, 2147483646};
  EXPECT_EQ(Labels(Header("binary", "LSB;label=32;scalar=64") +
                   BinaryList(v, 4, false)),
            want);
  EXPECT_EQ(Labels(Header("binary", "LSB;label=64;scalar=64") +
                   BinaryList(v, 8, false)),
            want);
  EXPECT_EQ(Labels(Header("binary", "MSB;label=32;scalar=64") +
                   BinaryList(v, 4, true)),
            want);
  EXPECT_EQ(Labels(Header("binary", "MSB;label=64;scalar=32") +
                   BinaryList(v, 8, true)),
            want);
  // No arch: 32-bit little-endian, what OpenFOAM writes by default.
  EXPECT_EQ(Labels(Header("binary") + BinaryList(v, 4, false)), want);
  // Newline bytes inside the block do not confuse the end.
  EXPECT_EQ(Labels(Header("binary") + BinaryList({10, 10 * 256}, 4, false)),
            (std::vector<int32_t>{10, 2560}));
}

TEST(FoamFileTest, ReadsUniformAndEmptyLists) {
  EXPECT_EQ(Labels(Header("ascii") + "6{0}\n"), std::vector<int32_t>(6, 0));
  EXPECT_EQ(Labels(Header("binary") + "3 { 7 }\n"), std::vector<int32_t>(3, 7));
  EXPECT_EQ(Labels(Header("ascii") + "0()\n"), std::vector<int32_t>{});
  EXPECT_EQ(Labels(Header("binary") + "0()\n"), std::vector<int32_t>{});
}

TEST(FoamFileTest, ErrorsNameTheFileAndTheLine) {
  const std::string h = Header("ascii");  // 14 lines; the list starts on 15
  EXPECT_EQ(Error(h + "3\n(\n0\n-1\n2\n)\n"),
            "owner:18: expected a cell index in [0, 2147483647), found '-1'");
  EXPECT_EQ(Error(h + "3\n(\n0\n1\n7\n)\n", 5),
            "owner:19: expected a cell index in [0, 5), found '7'");
  EXPECT_EQ(Error(h + "3\n(\n0\n1\n2\n4\n)\n"),
            "owner:20: expected ')' after the 3 labels of the list, found '4'");
  EXPECT_EQ(Error(h + "3\n(\n0\n1\n2\n)\nmore\n"),
            "owner:21: expected the end of the file, found 'more'");
  EXPECT_EQ(Error(h + "x\n(\n)\n"),
            "owner:15: expected the list's size (an integer in [0, 2^31)), "
            "found 'x'");
  EXPECT_EQ(Error(h + "2000000000\n(\n0\n)\n"),
            "owner:16: the list declares 2000000000 labels but only 5 bytes "
            "follow (truncated file?)");
  EXPECT_EQ(Error("3\n(\n0\n1\n2\n)\n"),
            "owner:1: expected the 'FoamFile' header, found '3'");
  EXPECT_EQ(Error("FoamFile { class labelList; }\n0()\n"),
            "owner:1: the FoamFile header has no 'format' entry");
  EXPECT_EQ(Error("FoamFile { format text; }\n0()\n"),
            "owner:1: expected format ascii or binary, found 'text'");
  EXPECT_EQ(Error("FoamFile { format binary; arch \"LSB;label=16\"; }\n0()\n"),
            "owner:1: arch 'LSB;label=16': labels of 32 or 64 bits are read, "
            "not 16");
  EXPECT_EQ(Error("FoamFile { format ascii; note \"open }\n0()\n"),
            "owner:1: a string that is never closed");
  EXPECT_EQ(Error("/* banner\nFoamFile { format ascii; }\n0()\n"),
            "owner:1: a '/*' comment that is never closed");
}

TEST(FoamFileTest, BinaryErrorsGiveTheListLineAndTheLabelIndex) {
  const std::string h = Header("binary", "LSB;label=64");
  EXPECT_EQ(Error(h + BinaryList({0, 1, -3}, 8, false)),
            "owner:17: label 2 of the binary list is -3, expected a cell "
            "index in [0, 2147483647)");
  EXPECT_EQ(Error(h + BinaryList({0, int64_t{1} << 40}, 8, false)),
            "owner:17: label 1 of the binary list is 1099511627776, expected "
            "a cell index in [0, 2147483647)");
  std::string truncated = h + BinaryList({1, 2, 3}, 8, false);
  truncated.resize(truncated.size() - 20);
  EXPECT_EQ(Error(truncated),
            "owner:17: the list declares 3 labels but only 19 bytes follow "
            "(truncated file?)");
}

TEST(FoamFileTest, TellsFoamFilesFromOtherFormats) {
  EXPECT_TRUE(LooksLikeFoamFile(Header("ascii") + "0()\n"));
  EXPECT_TRUE(LooksLikeFoamFile("// c\n  FoamFile{format ascii;}"));
  EXPECT_FALSE(LooksLikeFoamFile("0\n1\n2\n"));
  EXPECT_FALSE(LooksLikeFoamFile("{\"mapping\": [0]}"));
  EXPECT_FALSE(LooksLikeFoamFile("/* never closed FoamFile"));
  EXPECT_FALSE(LooksLikeFoamFile(""));
}

TEST(FoamFileTest, FormattedListsReadBack) {
  const std::vector<int32_t> labels = {3, 0, 2, 2, 1};
  const std::string text =
      FormatFoamLabelList(labels, "rankmap.decomp", "constant", "rankmap map");
  EXPECT_NE(text.find("    object      rankmap.decomp;\n"), std::string::npos);
  EXPECT_NE(text.find("    location    \"constant\";\n"), std::string::npos);
  EXPECT_NE(text.find("\n5\n(\n3\n0\n2\n2\n1\n)\n"), std::string::npos);
  auto f = FoamFile::Open(text, "rankmap.decomp");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->header().class_name, "labelList");
  EXPECT_EQ(f->header().note, "rankmap map");
  EXPECT_EQ(f->ReadLabels(4, "a processor").value(), labels);
}

}  // namespace
}  // namespace rankmap::graphs
