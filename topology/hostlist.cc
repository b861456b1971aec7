#include "topology/hostlist.h"

#include <cctype>

#include "absl/strings/str_cat.h"

namespace rankmap::topology {
namespace {

// One item: literal text and bracket groups, each a list of expanded numbers
// (as strings, padding kept).
struct Part {
  bool group = false;
  std::string text;                  // literal
  std::vector<std::string> numbers;  // group
};

bool AllDigits(std::string_view s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandHostlist(
    std::string_view expression, int64_t max_hosts) {
  const std::string expr(expression);
  auto fail = [&](size_t at, std::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(
        "hostlist '", expr, "': ", std::string(what), " at column ", at + 1));
  };
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= expr.size()) {
    const size_t item_start = i;
    std::vector<Part> parts;
    while (i < expr.size() && expr[i] != ',') {
      if (expr[i] == ']') return fail(i, "']' without '['");
      if (expr[i] != '[') {
        if (parts.empty() || parts.back().group) parts.push_back({});
        parts.back().text += expr[i++];
        continue;
      }
      const size_t open = i++;
      Part g;
      g.group = true;
      while (true) {
        const size_t start = i;
        while (i < expr.size() && expr[i] != ',' && expr[i] != ']' &&
               expr[i] != '[') {
          ++i;
        }
        if (i >= expr.size()) return fail(open, "'[' without ']'");
        if (expr[i] == '[') return fail(i, "nested '['");
        const std::string range = expr.substr(start, i - start);
        const size_t dash = range.find('-');
        const std::string lo = range.substr(0, dash);
        const std::string hi =
            dash == std::string::npos ? lo : range.substr(dash + 1);
        if (!AllDigits(lo) || !AllDigits(hi)) {
          return fail(start, absl::StrCat("expected a number or a range a-b, "
                                          "found '",
                                          range, "'"));
        }
        const int64_t a = std::stoll(lo), b = std::stoll(hi);
        if (b < a) {
          return fail(start,
                      absl::StrCat("range '", range, "' ends below its start"));
        }
        if (static_cast<int64_t>(g.numbers.size()) + (b - a + 1) > max_hosts) {
          return fail(start, absl::StrCat("more than ", max_hosts, " hosts"));
        }
        // Slurm pads to the width of the lower bound when it has a leading 0.
        const size_t width = lo.size() > 1 && lo[0] == '0' ? lo.size() : 0;
        for (int64_t v = a; v <= b; ++v) {
          std::string s = absl::StrCat(v);
          if (s.size() < width) s.insert(0, width - s.size(), '0');
          g.numbers.push_back(std::move(s));
        }
        if (expr[i] == ']') break;
        ++i;  // ','
      }
      ++i;  // ']'
      parts.push_back(std::move(g));
    }
    if (parts.empty()) return fail(item_start, "empty host name");
    // Cartesian product, last group fastest.
    std::vector<std::string> names = {""};
    for (const Part& p : parts) {
      std::vector<std::string> next;
      if (!p.group) {
        for (std::string& n : names) n += p.text;
        continue;
      }
      if (static_cast<int64_t>(names.size() * p.numbers.size() + out.size()) >
          max_hosts) {
        return fail(item_start,
                    absl::StrCat("more than ", max_hosts, " hosts"));
      }
      next.reserve(names.size() * p.numbers.size());
      for (const std::string& n : names) {
        for (const std::string& v : p.numbers) next.push_back(n + v);
      }
      names = std::move(next);
    }
    out.insert(out.end(), names.begin(), names.end());
    if (static_cast<int64_t>(out.size()) > max_hosts) {
      return fail(item_start, absl::StrCat("more than ", max_hosts, " hosts"));
    }
    ++i;  // ',' or past the end
  }
  return out;
}

}  // namespace rankmap::topology
