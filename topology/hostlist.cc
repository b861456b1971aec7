#include "topology/hostlist.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"

namespace rankmap::topology {
namespace {

// One item: literal text and bracket groups, each a list of expanded numbers
// (as strings, padding kept).
struct Part {
  bool group = false;
  std::string text;                  // literal
  std::vector<std::string> numbers;  // group
  int64_t number_chars = 0;          // group: sum of the numbers' lengths
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
  HostlistReader(std::string_view expression, int64_t max_hosts,
                 int64_t max_bytes)
      : expr_(expression), max_hosts_(max_hosts), max_bytes_(max_bytes) {}

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

  // The limits: ResourceExhausted, so callers can tell them from mistakes.
  absl::Status Exhausted(size_t at, int64_t hosts, int64_t bytes) const {
    const std::string what =
        hosts > max_hosts_ ? absl::StrCat("more than ", max_hosts_, " hosts")
                           : absl::StrCat("host names of more than ",
                                          base::FormatBytes(max_bytes_));
    return absl::ResourceExhaustedError(absl::StrCat(
        "hostlist '", expr_.substr(0, 64), expr_.size() > 64 ? "..." : "",
        "': ", what, " at column ", at + 1));
  }

  // Bytes `count` names of `chars` characters in all take as strings.
  static int64_t NameBytes(int64_t count, int64_t chars) {
    return base::SaturatingMulAdd(count, kStringBytes + 1, chars);
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
    // Slurm pads to the width of the lower bound when it has a leading 0.
    const size_t width = lo.size() > 1 && lo[0] == '0' ? lo.size() : 0;
    const int64_t count = static_cast<int64_t>(g.numbers.size()) + (b - a + 1);
    const int64_t chars = static_cast<int64_t>(std::max(width, hi.size()));
    if (count > max_hosts_ || NameBytes(count, count * chars) > max_bytes_)
      return Exhausted(start, count, NameBytes(count, count * chars));
    for (int64_t v = a; v <= b; ++v) {
      std::string s = absl::StrCat(v);
      if (s.size() < width) s.insert(0, width - s.size(), '0');
      g.number_chars += static_cast<int64_t>(s.size());
      g.numbers.push_back(std::move(s));
    }
    return absl::OkStatus();
  }

  // The item's names, a cartesian product with the last group fastest,
  // appended to out; counted (names and bytes) before any is made.
  absl::Status Product(const std::vector<Part>& parts, size_t item_start,
                       std::vector<std::string>& out) {
    int64_t count = 1, chars = 0;  // of the names built so far
    for (const Part& p : parts) {
      if (!p.group) {
        chars = base::SaturatingMulAdd(count, p.text.size(), chars);
        continue;
      }
      const int64_t k = static_cast<int64_t>(p.numbers.size());
      chars = base::SaturatingMulAdd(
          chars, k, base::SaturatingMulAdd(count, p.number_chars));
      count = base::SaturatingMulAdd(count, k);
    }
    const int64_t hosts =
        base::SaturatingMulAdd(1, count, static_cast<int64_t>(out.size()));
    const int64_t bytes =
        base::SaturatingMulAdd(1, NameBytes(count, chars), out_bytes_);
    if (hosts > max_hosts_ || bytes > max_bytes_)
      return Exhausted(item_start, hosts, bytes);
    out_bytes_ = bytes;
    std::vector<std::string> names = {""};
    for (const Part& p : parts) {
      if (!p.group) {
        for (std::string& n : names) n += p.text;
        continue;
      }
      std::vector<std::string> next;
      next.reserve(names.size() * p.numbers.size());
      for (const std::string& n : names) {
        for (const std::string& v : p.numbers) next.push_back(n + v);
      }
      names = std::move(next);
    }
    out.insert(out.end(), names.begin(), names.end());
    return absl::OkStatus();
  }

  static constexpr int64_t kStringBytes = sizeof(std::string);

  const std::string expr_;
  const int64_t max_hosts_;
  const int64_t max_bytes_;
  size_t i_ = 0;
  int64_t out_bytes_ = 0;
};

}  // namespace

int64_t HostlistBytes(const std::vector<std::string>& names) {
  int64_t bytes = 0;
  for (const std::string& n : names)
    bytes += static_cast<int64_t>(sizeof(std::string) + n.size() + 1);
  return bytes;
}

absl::StatusOr<std::vector<std::string>> ExpandHostlist(
    std::string_view expression, int64_t max_hosts, int64_t max_bytes) {
  return HostlistReader(expression, max_hosts, max_bytes).Expand();
}

}  // namespace rankmap::topology
