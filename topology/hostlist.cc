#include "topology/hostlist.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

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

// Reads one expression; errors name the expression and a column.
class HostlistReader {
 public:
  HostlistReader(std::string_view expression, int64_t max_hosts)
      : expr_(expression), max_hosts_(max_hosts) {}

  absl::StatusOr<std::vector<std::string>> Expand() {
    std::vector<std::string> out;
    while (i_ <= expr_.size()) {
      const size_t item_start = i_;
      ASSIGN_OR_RETURN(const std::vector<Part> parts, Item());
      if (parts.empty()) return Fail(item_start, "empty host name");
      RETURN_IF_ERROR(Product(parts, item_start, out));
      ++i_;  // ',' or past the end
    }
    return out;
  }

 private:
  absl::Status Fail(size_t at, std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "hostlist '", expr_, "': ", std::string(what), " at column ", at + 1));
  }

  // The parts of one item, up to the next ',' outside brackets.
  absl::StatusOr<std::vector<Part>> Item() {
    std::vector<Part> parts;
    while (i_ < expr_.size() && expr_[i_] != ',') {
      if (expr_[i_] == ']') return Fail(i_, "']' without '['");
      if (expr_[i_] != '[') {
        if (parts.empty() || parts.back().group) parts.push_back({});
        parts.back().text += expr_[i_++];
        continue;
      }
      ASSIGN_OR_RETURN(Part g, Group());
      parts.push_back(std::move(g));
    }
    return parts;
  }

  // "[a-b,c]" from its '[' on.
  absl::StatusOr<Part> Group() {
    const size_t open = i_++;
    Part g;
    g.group = true;
    while (true) {
      const size_t start = i_;
      while (i_ < expr_.size() && expr_[i_] != ',' && expr_[i_] != ']' &&
             expr_[i_] != '[') {
        ++i_;
      }
      if (i_ >= expr_.size()) return Fail(open, "'[' without ']'");
      if (expr_[i_] == '[') return Fail(i_, "nested '['");
      RETURN_IF_ERROR(Range(expr_.substr(start, i_ - start), start, g));
      if (expr_[i_] == ']') break;
      ++i_;  // ','
    }
    ++i_;  // ']'
    return g;
  }

  // "a-b" or "a" into the group's numbers.
  absl::Status Range(const std::string& range, size_t start, Part& g) const {
    const size_t dash = range.find('-');
    const std::string lo = range.substr(0, dash);
    const std::string hi =
        dash == std::string::npos ? lo : range.substr(dash + 1);
    if (!AllDigits(lo) || !AllDigits(hi)) {
      return Fail(start, absl::StrCat("expected a number or a range a-b, "
                                      "found '",
                                      range, "'"));
    }
    const int64_t a = std::stoll(lo), b = std::stoll(hi);
    if (b < a) {
      return Fail(start,
                  absl::StrCat("range '", range, "' ends below its start"));
    }
    if (static_cast<int64_t>(g.numbers.size()) + (b - a + 1) > max_hosts_) {
      return Fail(start, absl::StrCat("more than ", max_hosts_, " hosts"));
    }
    // Slurm pads to the width of the lower bound when it has a leading 0.
    const size_t width = lo.size() > 1 && lo[0] == '0' ? lo.size() : 0;
    for (int64_t v = a; v <= b; ++v) {
      std::string s = absl::StrCat(v);
      if (s.size() < width) s.insert(0, width - s.size(), '0');
      g.numbers.push_back(std::move(s));
    }
    return absl::OkStatus();
  }

  // The item's names, a cartesian product with the last group fastest,
  // appended to out.
  absl::Status Product(const std::vector<Part>& parts, size_t item_start,
                       std::vector<std::string>& out) const {
    std::vector<std::string> names = {""};
    for (const Part& p : parts) {
      std::vector<std::string> next;
      if (!p.group) {
        for (std::string& n : names) n += p.text;
        continue;
      }
      if (static_cast<int64_t>(names.size() * p.numbers.size() + out.size()) >
          max_hosts_) {
        return Fail(item_start,
                    absl::StrCat("more than ", max_hosts_, " hosts"));
      }
      next.reserve(names.size() * p.numbers.size());
      for (const std::string& n : names) {
        for (const std::string& v : p.numbers) next.push_back(n + v);
      }
      names = std::move(next);
    }
    out.insert(out.end(), names.begin(), names.end());
    if (static_cast<int64_t>(out.size()) > max_hosts_) {
      return Fail(item_start, absl::StrCat("more than ", max_hosts_, " hosts"));
    }
    return absl::OkStatus();
  }

  const std::string expr_;
  const int64_t max_hosts_;
  size_t i_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandHostlist(
    std::string_view expression, int64_t max_hosts) {
  return HostlistReader(expression, max_hosts).Expand();
}

}  // namespace rankmap::topology
