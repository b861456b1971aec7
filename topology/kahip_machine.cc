#include "topology/kahip_machine.h"

#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "topology/tleaf.h"

namespace rankmap::topology {
namespace {

struct Item {
  std::string text;
  size_t column;  // 1-based
};

std::vector<Item> SplitColons(std::string_view s) {
  std::vector<Item> out;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(':', start);
    out.push_back({std::string(s.substr(start, end - start)), start + 1});
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> KahipMachineToTleaf(std::string_view hierarchy,
                                                std::string_view distance) {
  const std::vector<Item> h = SplitColons(hierarchy);
  const std::vector<Item> d = SplitColons(distance);
  auto fail = [](std::string_view flag, size_t column,
                 const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", std::string(flag), ": ", what, " at column ", column));
  };
  std::vector<int64_t> arity;
  for (const Item& i : h) {
    int64_t a = 0;
    if (!absl::SimpleAtoi(i.text, &a) || a < 1) {
      return fail(
          "hierarchy", i.column,
          absl::StrCat("expected a positive integer, found '", i.text, "'"));
    }
    arity.push_back(a);
  }
  std::vector<double> dist;
  for (const Item& i : d) {
    double v = 0;
    if (!absl::SimpleAtod(i.text, &v) || !std::isfinite(v) || v < 0) {
      return fail(
          "distance", i.column,
          absl::StrCat("expected a non-negative number, found '", i.text, "'"));
    }
    if (!dist.empty() && v < dist.back()) {
      return fail("distance", i.column,
                  absl::StrCat("distance ", i.text,
                               " is below the level "
                               "under it (",
                               FormatCost(dist.back()),
                               "); distances must not decrease going up"));
    }
    dist.push_back(v);
  }
  if (arity.size() != dist.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--hierarchy has ", arity.size(),
                     " levels but --distance has ", dist.size()));
  }
  std::string out = absl::StrCat("tleaf ", arity.size());
  for (size_t k = arity.size(); k-- > 0;) {
    absl::StrAppend(&out, " ", arity[k], " ",
                    FormatCost(k == 0 ? dist[0] : dist[k] - dist[k - 1]));
  }
  return out;
}

}  // namespace rankmap::topology
