#include "cli/openfoam_output.h"

#include <cstdlib>
#include <sstream>
#include <string>

#include "base/file.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::cli {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

TEST(OpenFoamOutputTest, WritesTheLabelListAndTheDictionaryLines) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const core::Mapping m = {3, 3, 0, 1, 2, 2, 0};
  const std::string path = TempDir() + "/rankmap.decomp";
  std::ostringstream out, notes;
  ASSERT_TRUE(WriteOpenFoamDecomposition(t, m, path, out, notes).ok());
  EXPECT_EQ(out.str(), "");
  const std::string text = base::ReadFile(path).value();
  EXPECT_NE(text.find("    class       labelList;\n"), std::string::npos);
  EXPECT_NE(text.find("    object      rankmap.decomp;\n"), std::string::npos);
  EXPECT_NE(text.find("\n7\n(\n3\n3\n0\n1\n2\n2\n0\n)\n"), std::string::npos)
      << text;
  EXPECT_EQ(notes.str(),
            "openfoam: system/decomposeParDict of the case:\n"
            "  numberOfSubdomains 4;\n"
            "  method          manual;\n"
            "  manualCoeffs    { dataFile \"rankmap.decomp\"; }\n"
            "openfoam: decomposePar reads the dataFile from the case's "
            "constant/ directory (copy it there); processor p is rank p and "
            "runs on leaf p when ranks are placed in order (mpirun --map-by "
            "core --bind-to core)\n");
}

TEST(OpenFoamOutputTest, WithoutAFileTheListGoesToOut) {
  const topology::Tree t = testing::MakeTleaf("1 2 1");
  std::ostringstream out, notes;
  ASSERT_TRUE(WriteOpenFoamDecomposition(t, {1, 0}, "", out, notes).ok());
  EXPECT_NE(out.str().find("object      cellDecomposition;"),
            std::string::npos);
  EXPECT_NE(out.str().find("\n2\n(\n1\n0\n)\n"), std::string::npos);
  EXPECT_NE(notes.str().find("dataFile \"cellDecomposition\""),
            std::string::npos);
}

TEST(OpenFoamOutputTest, RefusesNamesOpenFoamCannotRead) {
  const topology::Tree t = testing::MakeTleaf("1 2 1");
  for (const std::string name : {"my decomp", "a;b", ".hidden", "x\"y"}) {
    std::ostringstream out, notes;
    const absl::Status s = WriteOpenFoamDecomposition(
        t, {1, 0}, TempDir() + "/" + name, out, notes);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_NE(std::string(s.message()).find("is not an OpenFOAM dataFile name"),
              std::string::npos)
        << s.message();
  }
}

}  // namespace
}  // namespace rankmap::cli
