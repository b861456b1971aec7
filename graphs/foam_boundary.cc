#include "graphs/foam_boundary.h"

#include <climits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/foam_file.h"
#include "graphs/foam_lexer.h"

namespace rankmap::graphs {
namespace {

// Nesting beyond this is refused (no boundary entry nests this deep; the
// stack of open brackets stays small).
constexpr size_t kMaxDepth = 64;

// Skips a value up to its ';' (lists and dictionaries inside it included);
// a value that is a dictionary (`key { ... }`) ends at its '}'.
absl::Status SkipValue(FoamLexer& lex, std::string_view key) {
  std::string open;  // the brackets not closed yet, innermost last
  bool dictionary = false;
  while (true) {
    ASSIGN_OR_RETURN(const FoamToken t, lex.Next());
    if (t.IsEnd()) {
      return lex.Expected(t, absl::StrCat("';' ending ", base::Quote(key)));
    }
    if (t.Is('(') || t.Is('{') || t.Is('[')) {
      if (open.size() == kMaxDepth) {
        return lex.ErrorAt(t.line, "brackets nested too deeply");
      }
      dictionary = dictionary || (open.empty() && t.Is('{'));
      open.push_back(t.text[0]);
    } else if (t.Is(')') || t.Is('}') || t.Is(']')) {
      const char want = open.empty()         ? ';'
                        : open.back() == '(' ? ')'
                        : open.back() == '{' ? '}'
                                             : ']';
      if (t.text[0] != want) {
        return lex.Expected(
            t, absl::StrCat("'", std::string(1, want), "' in the value of ",
                            base::Quote(key)));
      }
      open.pop_back();
      if (open.empty() && dictionary) return absl::OkStatus();
    } else if (t.Is(';') && open.empty()) {
      return absl::OkStatus();
    }
  }
}

// `key value;` with an integer value in [0, max].
absl::Status IntegerEntry(FoamLexer& lex, std::string_view key, int64_t max,
                          int64_t* value) {
  ASSIGN_OR_RETURN(const FoamToken v, lex.Next());
  if (!v.IsWord() || !base::ParseInt(v.text, value) || *value < 0 ||
      *value > max) {
    return lex.Expected(
        v, absl::StrCat(std::string(key), " as an integer in [0, ", max, "]"));
  }
  ASSIGN_OR_RETURN(const FoamToken semi, lex.Next());
  if (!semi.Is(';'))
    return lex.Expected(semi, absl::StrCat("';' after ", std::string(key)));
  return absl::OkStatus();
}

// `key word;`
absl::Status WordEntry(FoamLexer& lex, std::string_view key,
                       std::string* value) {
  ASSIGN_OR_RETURN(const FoamToken v, lex.Next());
  if (!v.IsWord() && v.kind != FoamToken::Kind::kString) {
    return lex.Expected(v, absl::StrCat("a name after ", std::string(key)));
  }
  *value = std::string(v.text);
  ASSIGN_OR_RETURN(const FoamToken semi, lex.Next());
  if (!semi.Is(';'))
    return lex.Expected(semi, absl::StrCat("';' after ", std::string(key)));
  return absl::OkStatus();
}

// One patch's `{ ... }` after its name.
absl::Status ReadPatch(FoamLexer& lex, FoamPatch& p) {
  ASSIGN_OR_RETURN(const FoamToken open, lex.Next());
  if (!open.Is('{')) {
    return lex.Expected(
        open, absl::StrCat("'{' after the patch name ", base::Quote(p.name)));
  }
  bool has_faces = false, has_start = false;
  int64_t v = 0;
  while (true) {
    ASSIGN_OR_RETURN(const FoamToken key, lex.Next());
    if (key.Is('}')) break;
    if (!key.IsWord()) return lex.Expected(key, "a keyword or '}'");
    if (key.text == "type") {
      RETURN_IF_ERROR(WordEntry(lex, key.text, &p.type));
    } else if (key.text == "nFaces") {
      RETURN_IF_ERROR(IntegerEntry(lex, key.text, INT64_MAX, &p.num_faces));
      has_faces = true;
    } else if (key.text == "startFace") {
      RETURN_IF_ERROR(IntegerEntry(lex, key.text, INT64_MAX, &p.start_face));
      has_start = true;
    } else if (key.text == "neighbourPatch") {
      RETURN_IF_ERROR(WordEntry(lex, key.text, &p.neighbour_patch));
    } else if (key.text == "referPatch") {
      RETURN_IF_ERROR(WordEntry(lex, key.text, &p.refer_patch));
    } else if (key.text == "myProcNo") {
      RETURN_IF_ERROR(IntegerEntry(lex, key.text, INT32_MAX, &v));
      p.my_proc = static_cast<int32_t>(v);
    } else if (key.text == "neighbProcNo") {
      RETURN_IF_ERROR(IntegerEntry(lex, key.text, INT32_MAX, &v));
      p.neighb_proc = static_cast<int32_t>(v);
    } else {
      RETURN_IF_ERROR(SkipValue(lex, key.text));
    }
  }
  const char* missing = p.type.empty() ? "type"
                        : !has_faces   ? "nFaces"
                        : !has_start   ? "startFace"
                                       : nullptr;
  if (missing != nullptr) {
    return lex.ErrorAt(p.line, absl::StrCat("patch ", base::Quote(p.name),
                                            " has no ", missing));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<FoamPatch>> ReadFoamBoundary(std::string_view text,
                                                        std::string_view name) {
  ASSIGN_OR_RETURN(FoamFile file, FoamFile::Open(text, name));
  FoamLexer& lex = file.lexer();
  ASSIGN_OR_RETURN(const FoamToken count, lex.Next());
  int64_t n = -1;
  // A patch takes at least a name, '{', three entries and '}': far more
  // than 8 bytes.
  if (!count.IsWord() || !base::ParseInt(count.text, &n) || n < 0 ||
      n > static_cast<int64_t>(lex.remaining() / 8)) {
    return lex.Expected(count,
                        "the number of patches (at most one per 8 "
                        "bytes of the rest of the file)");
  }
  ASSIGN_OR_RETURN(const FoamToken open, lex.Next());
  if (!open.Is('(')) return lex.Expected(open, "'(' opening the patch list");
  std::vector<FoamPatch> patches;
  patches.reserve(static_cast<size_t>(n));
  absl::flat_hash_set<std::string> names;
  while (true) {
    ASSIGN_OR_RETURN(const FoamToken t, lex.Next());
    if (t.Is(')')) break;
    if (!t.IsWord()) return lex.Expected(t, "a patch name or ')'");
    if (static_cast<int64_t>(patches.size()) == n) {
      return lex.ErrorAt(t.line, absl::StrCat("more patches than the ", n,
                                              " the list declares"));
    }
    FoamPatch p;
    p.name = std::string(t.text);
    p.line = t.line;
    if (!names.insert(p.name).second) {
      return lex.ErrorAt(
          t.line, absl::StrCat("a second patch named ", base::Quote(p.name)));
    }
    RETURN_IF_ERROR(ReadPatch(lex, p));
    patches.push_back(std::move(p));
  }
  if (static_cast<int64_t>(patches.size()) != n) {
    return lex.ErrorAt(
        count.line, absl::StrCat("the list declares ", n, " patches but holds ",
                                 patches.size()));
  }
  ASSIGN_OR_RETURN(const FoamToken end, lex.Next());
  if (!end.IsEnd()) return lex.Expected(end, "the end of the file");
  return patches;
}

}  // namespace rankmap::graphs
