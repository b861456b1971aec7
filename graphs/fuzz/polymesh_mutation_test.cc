// Seeded mutation testing of the OpenFOAM polyMesh reader: one file of a
// valid mesh (ASCII, binary, gzip, or one piece of a decomposed mesh) is
// mutated thousands of times; the reader must return a graph that passes
// CommGraph's full check, or an InvalidArgument / ResourceExhausted error
// whose message starts with the name of one of the mesh's files. It never
// crashes, hangs or allocates past the budget (also run under ASan/UBSan).
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graphs/fuzz/mutate.h"
#include "graphs/fuzz/reader_check.h"
#include "graphs/polymesh.h"
#include "graphs/test_meshes.h"
#include "gtest/gtest.h"

namespace rankmap::graphs::fuzz {
namespace {

using Mesh = std::vector<internal::PieceTexts>;

// CI runs this count with a fixed seed; a longer soak: --test_env=
// RANKMAP_MUTANTS=<count> --test_env=RANKMAP_MUTATION_SEED=<seed>.
constexpr int kMutants = 6000;

std::vector<Mesh> Seeds() {
  Mesh gz = {testing::Ring(false)};
  gz[0].owner = testing::Gzip(gz[0].owner);
  gz[0].neighbour = testing::Gzip(gz[0].neighbour);
  Mesh old = {testing::Ring(true)};
  old[0].boundary = testing::Boundary(
      {{"ends", "cyclic", 2, 3, ""}, {"sides", "wall", 16, 5, ""}});
  return {{testing::Ring(false)},
          {testing::Ring(true)},
          gz,
          old,
          testing::SplitRing(),
          testing::SplitRing({{3, 1}, {0, 2}})};
}

// The file `which` (0 owner, 1 neighbour, 2 boundary, 3 addressing) of `t`.
std::string& File(internal::PieceTexts& t, int which) {
  switch (which) {
    case 0:
      return t.owner;
    case 1:
      return t.neighbour;
    case 2:
      return t.boundary;
    default:
      return t.addressing;
  }
}

// The property: a valid graph, or an error that names one of the files.
absl::Status Check(const Mesh& mesh, bool* parsed) {
  ReadOptions o;
  o.max_memory_bytes = kFuzzMemoryBudget;
  const absl::StatusOr<PolyMeshGraph> m = internal::CellGraphFromTexts(mesh, o);
  *parsed = m.ok();
  if (m.ok()) {
    const CommGraph& g = m->graph;
    const absl::StatusOr<CommGraph> again =
        CommGraph::FromCsr({g.xadj().begin(), g.xadj().end()},
                           {g.adjncy().begin(), g.adjncy().end()},
                           {g.adjwgt().begin(), g.adjwgt().end()});
    if (!again.ok() || g.num_vertices() != m->cells) {
      return absl::InternalError("an accepted mesh gave an invalid graph");
    }
    return absl::OkStatus();
  }
  const absl::StatusCode code = m.status().code();
  if (code != absl::StatusCode::kInvalidArgument &&
      code != absl::StatusCode::kResourceExhausted) {
    return absl::InternalError(
        absl::StrCat("unexpected error code: ", m.status().ToString()));
  }
  for (const internal::PieceTexts& t : mesh) {
    for (const std::string& name :
         {t.owner_name, t.neighbour_name, t.boundary_name, t.addressing_name}) {
      if (!name.empty() && absl::StartsWith(m.status().message(), name + ":")) {
        return absl::OkStatus();
      }
    }
  }
  return absl::InternalError(
      absl::StrCat("the error names no file: ", m.status().message()));
}

TEST(PolyMeshMutationTest, AcceptsValidMeshesOrNamesTheFile) {
  const std::vector<Mesh> seeds = Seeds();
  for (const Mesh& seed : seeds) {
    bool parsed = false;
    ASSERT_TRUE(Check(seed, &parsed).ok());
    ASSERT_TRUE(parsed);
  }
  std::mt19937_64 rng(EnvOr("RANKMAP_MUTATION_SEED", 20261128));
  const int64_t mutants =
      std::max<int64_t>(EnvOr("RANKMAP_MUTANTS", kMutants), 1000);
  int64_t accepted = 0, rejected = 0;
  for (int64_t i = 0; i < mutants; ++i) {
    Mesh mesh = seeds[i % seeds.size()];
    internal::PieceTexts& piece = mesh[rng() % mesh.size()];
    const int files = piece.addressing.empty() ? 3 : 4;
    std::string& file = File(piece, static_cast<int>(rng() % files));
    file = Mutate(file, rng);
    bool parsed = false;
    const absl::Status s = Check(mesh, &parsed);
    ASSERT_TRUE(s.ok()) << s.message() << "\nmutant " << i;
    (parsed ? accepted : rejected)++;
  }
  // Both outcomes occur: the mutations reach the error paths and the happy
  // path (comments, blanks and labels that stay in range).
  EXPECT_GT(accepted, mutants / 100);
  EXPECT_GT(rejected, mutants / 4);
}

TEST(PolyMeshMutationTest, LyingCountsAreRefusedBeforeAllocating) {
  const std::string big =
      testing::Header(false, "labelList", "") + "2000000000{0}\n";
  Mesh mesh = {testing::Ring(false)};
  mesh[0].owner = big;
  bool parsed = true;
  ASSERT_TRUE(Check(mesh, &parsed).ok());
  EXPECT_FALSE(parsed);
  mesh = {testing::Ring(true)};
  mesh[0].neighbour = testing::Header(true, "labelList", "") + "1500000000(";
  ASSERT_TRUE(Check(mesh, &parsed).ok());
  EXPECT_FALSE(parsed);
  mesh = {testing::Ring(false)};
  mesh[0].owner = testing::List({0, 1, 2, 0, 3}, false, "nCells:2000000000");
  ASSERT_TRUE(Check(mesh, &parsed).ok());
  EXPECT_FALSE(parsed);
}

}  // namespace
}  // namespace rankmap::graphs::fuzz
