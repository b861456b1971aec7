#include "topology/hwloc_guard.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/host_name.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/shown.h"

namespace rankmap::topology {
namespace {

constexpr int kMaxNesting = 256;

// One attribute of the element being scanned.
struct Attribute {
  std::string_view name, value;
};

bool IsBuiltinReference(std::string_view name) {
  if (name == "lt" || name == "gt" || name == "amp" || name == "quot" ||
      name == "apos")
    return true;
  if (name.size() < 2 || name[0] != '#') return false;
  const bool hex = name[1] == 'x';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  return !digits.empty() &&
         std::all_of(digits.begin(), digits.end(), [&](char c) {
           return hex ? std::isxdigit(static_cast<unsigned char>(c))
                      : std::isdigit(static_cast<unsigned char>(c));
         });
}

// A cursor over the XML text that counts lines.
class Scanner {
 public:
  Scanner(std::string_view text, std::string_view source)
      : text_(text), source_(source) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  int line() const { return line_; }

  absl::Status Error(std::string_view what) const {
    return ErrorAt(line_, what);
  }
  absl::Status ErrorAt(int line, std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source_), ":", line, ": ", std::string(what)));
  }

  // Moves to the next '<'; false at the end of the text. Entity references
  // in the text on the way are checked (CheckReference).
  absl::StatusOr<bool> NextTag() {
    while (pos_ < text_.size() && text_[pos_] != '<') {
      if (text_[pos_] == '&') RETURN_IF_ERROR(CheckReference());
      Advance();
    }
    return pos_ < text_.size();
  }

  // At '&': the five predefined entities and character references pass;
  // hwloc's libxml reader crashes on a reference to a declared entity, and
  // hwloc exports never hold one.
  absl::Status CheckReference() const {
    const std::string_view rest = text_.substr(pos_, 16);
    const size_t semicolon = rest.find(';');
    const std::string_view name =
        rest.substr(1, semicolon == std::string_view::npos ? rest.size() - 1
                                                           : semicolon - 1);
    if (semicolon != std::string_view::npos && IsBuiltinReference(name))
      return absl::OkStatus();
    return Error(absl::StrCat(
        "entity reference '&", Shown(name, 12),
        semicolon == std::string_view::npos ? "" : ";",
        "': hwloc XML holds only &lt; &gt; &amp; &quot; &apos; and character "
        "references (hwloc's reader crashes on others)"));
  }

  bool LookingAt(std::string_view s) const {
    return text_.substr(pos_, s.size()) == s;
  }

  // Skips past `end`; false when the text ends first. Passed() is the text
  // skipped.
  bool SkipPast(std::string_view end) {
    skip_begin_ = pos_;
    while (pos_ < text_.size() && !LookingAt(end)) Advance();
    if (pos_ >= text_.size()) return false;
    for (size_t i = 0; i < end.size(); ++i) Advance();
    return true;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_])))
      Advance();
  }

  std::string_view Name() {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           text_[pos_] != '=' && text_[pos_] != '>' && text_[pos_] != '/')
      Advance();
    return text_.substr(start, pos_ - start);
  }

  std::string_view Passed() const {
    return text_.substr(skip_begin_, pos_ - skip_begin_);
  }

  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void Advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }

  // A quoted value ('...' or "...") after '='; false when it is not quoted
  // or not closed. Entity references in it are checked.
  absl::StatusOr<bool> Value(std::string_view* value) {
    const char quote = Peek();
    if (quote != '"' && quote != '\'') return false;
    Advance();
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '&') RETURN_IF_ERROR(CheckReference());
      Advance();
    }
    if (pos_ >= text_.size()) return false;
    *value = text_.substr(start, pos_ - start);
    Advance();
    return true;
  }

 private:
  std::string_view text_, source_;
  size_t pos_ = 0, skip_begin_ = 0;
  int line_ = 1;
};

// Bits of an hwloc bitmap string: comma-separated 32-bit words, the first the
// highest ("0x00000100,,0x0" is 96 bits wide).
int64_t BitmapBits(std::string_view value) {
  return 32 * (1 + std::count(value.begin(), value.end(), ','));
}

const Attribute* Find(const std::vector<Attribute>& attrs,
                      std::string_view name) {
  for (const Attribute& a : attrs) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

// hwloc's bitmap text: an optional "0xf...f," (infinitely many ones), then
// comma-separated words, each empty or "0x" and 1 to 8 hex digits.
bool IsBitmap(std::string_view v) {
  if (v.substr(0, 8) == "0xf...f,") v.remove_prefix(8);
  if (v == "0xf...f") return true;
  size_t i = 0;
  for (;;) {
    const size_t end = std::min(v.find(',', i), v.size());
    const std::string_view word = v.substr(i, end - i);
    if (!word.empty()) {
      if (word.size() < 3 || word.size() > 10 || word.substr(0, 2) != "0x")
        return false;
      for (char c : word.substr(2)) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
      }
    }
    if (end == v.size()) return true;
    i = end + 1;
  }
}

// The rules of the header for one <object> element.
absl::Status CheckObject(const Scanner& s,
                         const std::vector<Attribute>& attrs) {
  const Attribute* type = Find(attrs, "type");
  const std::string kind =
      type != nullptr ? std::string(type->value) : "without a type";
  for (const Attribute& a : attrs) {
    auto ends_with = [&](std::string_view suffix) {
      return a.name.size() >= suffix.size() &&
             a.name.substr(a.name.size() - suffix.size()) == suffix;
    };
    const bool set = ends_with("cpuset") || ends_with("nodeset");
    if (set && !IsBitmap(a.value)) {
      return s.Error(absl::StrCat(
          "object ", absl::CHexEscape(kind), ": ", std::string(a.name), " '",
          absl::CHexEscape(std::string(a.value)),
          "' is not an hwloc bitmap (0x words separated by commas)"));
    }
  }
  for (const auto& [set, complete] :
       {std::pair<const char*, const char*>{"cpuset", "complete_cpuset"},
        {"nodeset", "complete_nodeset"}}) {
    if (Find(attrs, set) != nullptr && Find(attrs, complete) == nullptr) {
      return s.Error(absl::StrCat(
          "object ", absl::CHexEscape(kind), " has a ", set, " but no ",
          complete,
          " (hwloc crashes on such files; lstopo --of xml writes both)"));
    }
  }
  if (kind == "PU" || kind == "NUMANode") {
    const Attribute* os = Find(attrs, "os_index");
    int64_t index = -1;
    if (os == nullptr || !absl::SimpleAtoi(std::string(os->value), &index) ||
        index < 0 || index > 0x7fffffff) {
      return s.Error(absl::StrCat(
          "object ", absl::CHexEscape(kind),
          " needs an os_index in [0, 2^31), found ",
          os == nullptr ? "none"
                        : absl::StrCat("'", std::string(os->value), "'"),
          " (hwloc hangs on such files)"));
    }
  }
  return absl::OkStatus();
}

// Skips a comment, CDATA section, processing instruction or declaration at
// the scanner's '<'. False (and OK) when the tag is an element.
absl::StatusOr<bool> SkipMarkup(Scanner& s) {
  if (s.LookingAt("<!--")) {
    if (!s.SkipPast("-->")) return s.Error("unterminated comment");
    return true;
  }
  if (s.LookingAt("<![CDATA[")) {
    if (!s.SkipPast("]]>")) return s.Error("unterminated CDATA section");
    return true;
  }
  if (s.LookingAt("<?")) {
    if (!s.SkipPast("?>")) return s.Error("unterminated declaration");
    return true;
  }
  if (s.LookingAt("<!DOCTYPE") || s.LookingAt("<!ENTITY")) {
    // An internal subset declares entities; hwloc's DOCTYPE names its DTD.
    const int line = s.line();
    if (!s.SkipPast(">")) return s.Error("unterminated declaration");
    if (s.Passed().find('[') != std::string_view::npos) {
      return s.ErrorAt(line,
                       "a DOCTYPE with declarations ('[...]'): hwloc exports "
                       "declare no entities (hwloc's reader crashes on some)");
    }
    return true;
  }
  if (s.LookingAt("<!")) {
    if (!s.SkipPast(">")) return s.Error("unterminated declaration");
    return true;
  }
  return false;
}

// One start, end or empty-element tag from its '<' on.
struct Tag {
  std::string_view name;
  bool closing = false, self_closing = false;
  std::vector<Attribute> attrs;
};

// name="value" inside a tag.
absl::StatusOr<Attribute> ReadAttribute(Scanner& s) {
  Attribute a;
  a.name = s.Name();
  s.SkipSpace();
  if (a.name.empty() || s.Peek() != '=') {
    return s.Error(absl::StrCat("not well-formed XML: attribute '",
                                std::string(a.name), "' without a value"));
  }
  s.Advance();
  s.SkipSpace();
  ASSIGN_OR_RETURN(const bool quoted, s.Value(&a.value));
  if (!quoted) {
    return s.Error(absl::StrCat("not well-formed XML: attribute '",
                                std::string(a.name), "' has no quoted value"));
  }
  return a;
}

absl::Status ReadTag(Scanner& s, Tag& tag) {
  s.Advance();  // '<'
  tag.closing = s.Peek() == '/';
  if (tag.closing) s.Advance();
  tag.name = s.Name();
  if (tag.name.empty()) return s.Error("not well-formed XML: empty tag name");
  tag.attrs.clear();
  tag.self_closing = false;
  for (;;) {
    s.SkipSpace();
    if (s.AtEnd()) return s.Error("not well-formed XML: unterminated tag");
    if (s.Peek() == '>') {
      s.Advance();
      return absl::OkStatus();
    }
    if (s.Peek() == '/') {
      s.Advance();
      if (s.Peek() != '>') return s.Error("not well-formed XML: '/' in a tag");
      s.Advance();
      tag.self_closing = true;
      return absl::OkStatus();
    }
    if (tag.closing)
      return s.Error("not well-formed XML: attributes in a closing tag");
    ASSIGN_OR_RETURN(Attribute a, ReadAttribute(s));
    tag.attrs.push_back(a);
  }
}

// The widest cpuset of an object, or its PU's os index + 1.
int64_t ObjectBits(const std::vector<Attribute>& attrs) {
  int64_t bits = 0;
  for (const char* set :
       {"cpuset", "complete_cpuset", "online_cpuset", "allowed_cpuset"}) {
    if (const Attribute* a = Find(attrs, set))
      bits = std::max(bits, BitmapBits(a->value));
  }
  if (const Attribute* type = Find(attrs, "type");
      type != nullptr && type->value == "PU") {
    int64_t index = 0;
    if (const Attribute* os = Find(attrs, "os_index");
        os != nullptr && absl::SimpleAtoi(std::string(os->value), &index))
      bits = std::max(bits, index + 1);
  }
  return bits;
}

// Counts an <object> tag into cost; open holds the children counted so far
// of each open object (the root level first).
absl::Status CountObject(const Scanner& s, const Tag& tag,
                         std::vector<int64_t>& open, HwlocCost& cost) {
  if (tag.closing) {
    if (open.size() < 2) return s.Error("</object> without an open <object>");
    cost.sibling_sum += open.back() * open.back();
    open.pop_back();
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(CheckObject(s, tag.attrs));
  if (open.size() == 1 && open.back() == 1) {
    // hwloc 2.9 crashes on some files with a second root.
    return s.Error("a second top-level <object> (a topology has one root)");
  }
  ++cost.objects;
  ++open.back();
  cost.bitmap_bits = std::max(cost.bitmap_bits, ObjectBits(tag.attrs));
  if (!tag.self_closing) {
    if (static_cast<int>(open.size()) > kMaxNesting)
      return s.Error(
          absl::StrCat("objects nested more than ", kMaxNesting, " deep"));
    open.push_back(0);
  }
  return absl::OkStatus();
}

// <info name="HostName" value="..."/>: the host name every leaf of the
// machine gets, which ends up in hostfiles and paths.
absl::Status CheckHostNameInfo(const Scanner& s, const Tag& tag) {
  const Attribute* name = Find(tag.attrs, "name");
  const Attribute* value = Find(tag.attrs, "value");
  if (name == nullptr || name->value != "HostName" || value == nullptr)
    return absl::OkStatus();
  if (absl::Status st = base::CheckHostName(value->value); !st.ok())
    return s.Error(absl::StrCat("HostName info: ", std::string(st.message())));
  return absl::OkStatus();
}

}  // namespace

int64_t HwlocWork(const HwlocCost& cost) {
  const int64_t siblings =
      base::SaturatingMulAdd(cost.sibling_sum, cost.bitmap_bits);
  const int64_t objects = base::SaturatingMulAdd(
      base::SaturatingMulAdd(cost.objects, cost.bitmap_bits), 16);
  return base::SaturatingMulAdd(siblings, 1, objects);
}

int64_t HwlocBytes(const HwlocCost& cost) {
  return base::SaturatingMulAdd(cost.objects, 512 + cost.bitmap_bits / 4);
}

absl::Status CheckHwlocCost(std::string_view what, const HwlocCost& cost,
                            int64_t budget, int64_t max_work) {
  const int64_t work = HwlocWork(cost);
  if (work > max_work) {
    char steps[32], limit[32];
    std::snprintf(steps, sizeof(steps), "%.2g", static_cast<double>(work));
    std::snprintf(limit, sizeof(limit), "%.2g", static_cast<double>(max_work));
    return absl::ResourceExhaustedError(absl::StrCat(
        std::string(what), ": hwloc's load time grows with objects x PUs; ",
        cost.objects, " objects over ", cost.bitmap_bits,
        " PU indexes would take about ", steps, " steps, above the limit of ",
        limit, max_work == kMaxHwlocWork ? " (about 10 s)" : "",
        "; describe fewer PUs or use a tleaf"));
  }
  return base::CheckMemory(
      absl::StrCat(std::string(what), ": hwloc's ", cost.objects, " objects"),
      HwlocBytes(cost), budget);
}

absl::StatusOr<HwlocCost> CheckHwlocXml(std::string_view xml,
                                        std::string_view source) {
  Scanner s(xml, source);
  HwlocCost cost;
  std::vector<int64_t> open = {0};
  Tag tag;
  for (;;) {
    ASSIGN_OR_RETURN(const bool more, s.NextTag());
    if (!more) break;
    ASSIGN_OR_RETURN(const bool skipped, SkipMarkup(s));
    if (skipped) continue;
    RETURN_IF_ERROR(ReadTag(s, tag));
    if (tag.name == "object") RETURN_IF_ERROR(CountObject(s, tag, open, cost));
    if (tag.name == "info") RETURN_IF_ERROR(CheckHostNameInfo(s, tag));
  }
  if (open.size() != 1) return s.Error("an <object> is not closed");
  if (cost.objects == 0) return s.Error("no <object> in the topology");
  cost.sibling_sum += open.back() * open.back();
  return cost;
}

}  // namespace rankmap::topology
