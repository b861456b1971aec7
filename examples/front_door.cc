// The front door from C++ (api/): options and the machine by name, one mapping
// request with its checked cost and what happened to the order the job has
// now. Two hosts of two cores with links; processes 0 and 1 exchange 1,000
// small messages, 0 and 2 one large one; the job now runs 0 2 1 3.
//   bazel run //examples:front_door
#include <rankmap/load_topology.h>
#include <rankmap/map_outcome.h>
#include <rankmap/named_options.h>

#include <cstdio>
#include <string>

int main() {
  using namespace rankmap;
  auto options = api::ResolveOptions({.preset = "default",
                                      .objective = "auto",
                                      .present = {0, 2, 1, 3},
                                      .seed = 7});
  auto tree =
      api::LoadTree({.description = "tleaf 2 2 25Gbps:1us 2 40GBps:0.5us"});
  graphs::CommGraphBuilder builder(4);
  bool ok = options.ok() && tree.ok();
  ok = ok && builder.AddTraffic(0, 1, 8000, 1000).ok();  // bytes, messages
  ok = ok && builder.AddTraffic(0, 2, 100000, 1).ok();
  ok = ok && builder.AddTraffic(2, 3, 10, 1).ok();
  auto graph = std::move(builder).Build();
  if (!ok || !graph.ok()) return std::fprintf(stderr, "bad input\n"), 2;
  auto out = api::MapChecked(*tree, *graph, *options);
  if (!out.ok())
    return std::fprintf(stderr, "%s\n", out.status().ToString().c_str()), 1;
  std::printf(
      "present order %s by %s: %.2f us -> %.2f us, %lld moved, J %g\n",
      std::string(api::VerdictName(api::VerdictOf(out->report))).c_str(),
      out->report.objective.c_str(), out->report.present_cost * 1e6,
      out->report.chosen_cost * 1e6, static_cast<long long>(out->report.moved),
      out->cost.j);
  for (int p = 0; p < 4; ++p)
    std::printf("process %d -> leaf %d\n", p, out->mapping[p]);
  return 0;
}
