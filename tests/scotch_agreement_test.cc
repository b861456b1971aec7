// `rankmap map` on a TopoMatch .mat and a tleaf target writes a plain mapping
// whose cost our `eval` and Scotch's own tleaf distances (SCOTCH_archDomDist
// between terminal domains numbered the Scotch way) agree on: leaf numbering
// and distances compare 1:1 with Scotch.
#include <scotch/scotch.h>
#include <stdio.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "cli/eval_command.h"
#include "cli/map_command.h"
#include "cli/mapping_io.h"
#include "core/model/mapping.h"
#include "graphs/graphs.h"
#include "gtest/gtest.h"
#include "topology/topology.h"

namespace rankmap {
namespace {

using ::rankmap::base::IsOk;

// J with distances from a Scotch tleaf architecture.
double ScotchJ(const std::vector<SCOTCH_Num>& arities,
               const std::vector<SCOTCH_Num>& links, const graphs::CommGraph& g,
               const core::Mapping& m) {
  SCOTCH_Arch arch;
  EXPECT_EQ(SCOTCH_archInit(&arch), 0);
  EXPECT_EQ(SCOTCH_archTleaf(&arch, static_cast<SCOTCH_Num>(arities.size()),
                             arities.data(), links.data()),
            0);
  double j = 0.0;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    auto nbrs = g.neighbors(u);
    auto wgts = g.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] < u) continue;
      SCOTCH_ArchDom a, b;
      EXPECT_EQ(SCOTCH_archDomTerm(&arch, &a, m[u]), 0);
      EXPECT_EQ(SCOTCH_archDomTerm(&arch, &b, m[nbrs[k]]), 0);
      j += wgts[k] * static_cast<double>(SCOTCH_archDomDist(&arch, &a, &b));
    }
  }
  SCOTCH_archExit(&arch);
  return j;
}

struct Case {
  std::string tleaf;
  std::vector<SCOTCH_Num> arities, links;
  std::string algorithm;
};

TEST(ScotchAgreement, MapThenEvalMatchesScotchDistances) {
  const std::string mat = "tests/cli/data/treematch8.mat";
  auto graph = graphs::ReadGraphFile(mat);
  ASSERT_THAT(graph, IsOk());
  const Case cases[] = {
      {"tleaf 3 2 100 3 10 2 1", {2, 3, 2}, {100, 10, 1}, "portfolio"},
      {"tleaf 2 2 10 4 1", {2, 4}, {10, 1}, "tm"},
      {"tleaf 2 4 7 2 3", {4, 2}, {7, 3}, "round-robin"},
      {"tleaf 3 2 1000 2 100 2 10", {2, 2, 2}, {1000, 100, 10}, "scotch"},
  };
  const std::string out = ::testing::TempDir() + "/scotch_agreement.map";
  for (const Case& c : cases) {
    cli::MapCommand cmd;
    cmd.inputs.topology = c.tleaf;
    cmd.inputs.comm = mat;
    cmd.algorithm = c.algorithm;
    cmd.output = out;
    cmd.quiet = true;
    std::ostringstream log;
    ASSERT_THAT(cli::RunMap(cmd, log), IsOk()) << c.tleaf;
    auto mapping = cli::ReadMappingFile(out);
    ASSERT_THAT(mapping, IsOk());
    auto tree = topology::LoadTopology(c.tleaf);
    ASSERT_THAT(tree, IsOk());
    auto ours = core::Cost(*tree, *graph, *mapping);
    ASSERT_THAT(ours, IsOk());
    EXPECT_DOUBLE_EQ(ours->j, ScotchJ(c.arities, c.links, *graph, *mapping))
        << c.tleaf;

    // And the eval subcommand prints the same J.
    cli::EvalCommand eval;
    eval.inputs = cmd.inputs;
    eval.mapping = out;
    std::ostringstream report;
    ASSERT_THAT(cli::RunEval(eval, report), IsOk());
    std::istringstream lines(report.str());
    std::string line;
    double printed = -1;
    while (std::getline(lines, line)) {
      if (line.rfind("J ", 0) == 0) printed = std::stod(line.substr(2));
    }
    EXPECT_DOUBLE_EQ(printed, ours->j) << c.tleaf;
  }
}

}  // namespace
}  // namespace rankmap
