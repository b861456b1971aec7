#include "graphs/foam_file.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"

namespace rankmap::graphs {
namespace {

// OpenFOAM's lists are indexed by its label type; rankmap's by int32.
constexpr int64_t kMaxListSize = int64_t{1} << 31;

template <typename T>
T Swapped(T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  for (size_t i = 0; i < sizeof(T) / 2; ++i)
    std::swap(b[i], b[sizeof(T) - 1 - i]);
  std::memcpy(&v, b, sizeof(T));
  return v;
}

// The label at `p` of a binary block.
int64_t DecodeLabel(const char* p, int32_t bytes, bool swap) {
  if (bytes == 4) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return swap ? Swapped(v) : v;
  }
  int64_t v;
  std::memcpy(&v, p, 8);
  return swap ? Swapped(v) : v;
}

// `arch "LSB;label=32;scalar=64"`: byte order and label size.
absl::Status ParseArch(std::string_view arch, FoamHeader& h,
                       const FoamLexer& lex, int64_t line) {
  for (std::string_view rest = arch; !rest.empty();) {
    const size_t semi = std::min(rest.find(';'), rest.size());
    const std::string_view part = rest.substr(0, semi);
    rest.remove_prefix(std::min(semi + 1, rest.size()));
    if (part == "LSB") {
      h.big_endian = false;
    } else if (part == "MSB") {
      h.big_endian = true;
    } else if (part == "label=32" || part == "label=64") {
      h.label_bytes = part == "label=32" ? 4 : 8;
    } else if (part.starts_with("label=")) {
      return lex.ErrorAt(line, absl::StrCat("arch ", base::Quote(arch),
                                            ": labels of 32 or 64 bits are "
                                            "read, not ",
                                            std::string(part.substr(6))));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int64_t FoamHeader::NoteCount(std::string_view key) const {
  std::string_view rest = note;
  while (!rest.empty()) {
    const size_t blank = std::min(rest.find(' '), rest.size());
    const std::string_view word = rest.substr(0, blank);
    rest.remove_prefix(std::min(blank + 1, rest.size()));
    if (!word.starts_with(key) || word.size() <= key.size() ||
        word[key.size()] != ':') {
      continue;
    }
    int64_t v = 0;
    if (!base::ParseInt(word.substr(key.size() + 1), &v) || v < 0) return -1;
    return v;
  }
  return -1;
}

absl::StatusOr<FoamFile> FoamFile::Open(std::string_view text,
                                        std::string_view name) {
  FoamFile f{FoamLexer(text, name)};
  RETURN_IF_ERROR(f.ParseHeader());
  return f;
}

absl::Status FoamFile::ParseHeader() {
  ASSIGN_OR_RETURN(FoamToken t, lexer_.Next());
  if (!t.IsWord() || t.text != "FoamFile") {
    return lexer_.Expected(t, "the 'FoamFile' header");
  }
  ASSIGN_OR_RETURN(t, lexer_.Next());
  if (!t.Is('{')) return lexer_.Expected(t, "'{' after FoamFile");
  bool format_seen = false;
  while (true) {
    ASSIGN_OR_RETURN(const FoamToken key, lexer_.Next());
    if (key.Is('}')) break;
    if (!key.IsWord()) return lexer_.Expected(key, "a header keyword or '}'");
    ASSIGN_OR_RETURN(const FoamToken value, lexer_.Next());
    if (value.IsEnd() || value.kind == FoamToken::Kind::kPunct) {
      return lexer_.Expected(
          value, absl::StrCat("the value of ", base::Quote(key.text)));
    }
    ASSIGN_OR_RETURN(t, lexer_.Next());
    if (!t.Is(';')) {
      return lexer_.Expected(
          t, absl::StrCat("';' after ", base::Quote(key.text), "'s value"));
    }
    if (key.text == "format") {
      if (value.text != "ascii" && value.text != "binary") {
        return lexer_.Expected(value, "format ascii or binary");
      }
      header_.binary = value.text == "binary";
      format_seen = true;
    } else if (key.text == "arch") {
      RETURN_IF_ERROR(ParseArch(value.text, header_, lexer_, value.line));
    } else if (key.text == "class") {
      header_.class_name = std::string(value.text);
    } else if (key.text == "object") {
      header_.object = std::string(value.text);
    } else if (key.text == "note") {
      header_.note = std::string(value.text);
    }
  }
  if (!format_seen) {
    return lexer_.ErrorAt(t.line, "the FoamFile header has no 'format' entry");
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> FoamFile::ListSize() {
  if (size_ >= 0) return size_;
  ASSIGN_OR_RETURN(const FoamToken count, lexer_.Next());
  int64_t n = -1;
  if (!count.IsWord() || !base::ParseInt(count.text, &n) || n < 0 ||
      n >= kMaxListSize) {
    return lexer_.Expected(count, "the list's size (an integer in [0, 2^31))");
  }
  ASSIGN_OR_RETURN(const FoamToken open, lexer_.Next());
  if (!open.Is('(') && !open.Is('{')) {
    return lexer_.Expected(open, absl::StrCat("'(' or '{' after the size ", n));
  }
  open_line_ = open.line;
  uniform_ = open.Is('{');
  if (!uniform_) {
    // Before anything is sized by n: a binary list must hold n labels, an
    // ASCII one at least a character and a blank per label.
    const uint64_t need = header_.binary
                              ? static_cast<uint64_t>(n) * header_.label_bytes
                              : 2 * static_cast<uint64_t>(n);
    if (need > lexer_.remaining()) {
      return lexer_.ErrorAt(
          open.line,
          absl::StrCat("the list declares ", n, " labels but only ",
                       lexer_.remaining(), " bytes follow (truncated file?)"));
    }
  }
  size_ = n;
  return n;
}

absl::StatusOr<std::vector<int32_t>> FoamFile::ReadLabels(
    int64_t limit, std::string_view what) {
  ASSIGN_OR_RETURN(const int64_t n, ListSize());
  std::vector<int32_t> labels;
  if (uniform_) {
    ASSIGN_OR_RETURN(const FoamToken v, lexer_.Next());
    int64_t value = -1;
    if (!v.IsWord() || !base::ParseInt(v.text, &value) || value < 0 ||
        value >= limit) {
      return lexer_.Expected(
          v, absl::StrCat(std::string(what), " in [0, ", limit, ")"));
    }
    ASSIGN_OR_RETURN(const FoamToken close, lexer_.Next());
    if (!close.Is('}')) return lexer_.Expected(close, "'}'");
    labels.assign(static_cast<size_t>(n), static_cast<int32_t>(value));
  } else {
    ASSIGN_OR_RETURN(labels, header_.binary ? ReadBinary(limit, what)
                                            : ReadAscii(limit, what));
    ASSIGN_OR_RETURN(const FoamToken close, lexer_.Next());
    if (!close.Is(')')) {
      return lexer_.Expected(
          close, absl::StrCat("')' after the ", n, " labels of the list"));
    }
  }
  ASSIGN_OR_RETURN(const FoamToken end, lexer_.Next());
  if (!end.IsEnd()) return lexer_.Expected(end, "the end of the file");
  return labels;
}

absl::StatusOr<std::vector<int32_t>> FoamFile::ReadAscii(
    int64_t limit, std::string_view what) {
  std::vector<int32_t> labels(static_cast<size_t>(size_));
  for (int32_t& label : labels) {
    ASSIGN_OR_RETURN(const FoamToken t, lexer_.Next());
    int64_t v = -1;
    if (!t.IsWord() || !base::ParseInt(t.text, &v) || v < 0 || v >= limit) {
      return lexer_.Expected(
          t, absl::StrCat(std::string(what), " in [0, ", limit, ")"));
    }
    label = static_cast<int32_t>(v);
  }
  return labels;
}

absl::StatusOr<std::vector<int32_t>> FoamFile::ReadBinary(
    int64_t limit, std::string_view what) {
  const int32_t bytes = header_.label_bytes;
  std::string_view block;
  if (!lexer_.TakeRaw(static_cast<size_t>(size_) * bytes, &block)) {
    return lexer_.ErrorAt(open_line_, "the binary list ends early");
  }
  const bool swap =
      header_.big_endian != (std::endian::native == std::endian::big);
  std::vector<int32_t> labels(static_cast<size_t>(size_));
  for (size_t i = 0; i < labels.size(); ++i) {
    const int64_t v = DecodeLabel(block.data() + i * bytes, bytes, swap);
    if (v < 0 || v >= limit) {
      return lexer_.ErrorAt(
          open_line_,
          absl::StrCat("label ", i, " of the binary list is ", v, ", expected ",
                       std::string(what), " in [0, ", limit, ")"));
    }
    labels[i] = static_cast<int32_t>(v);
  }
  return labels;
}

bool LooksLikeFoamFile(std::string_view text) {
  FoamLexer lex(text, "");
  const absl::StatusOr<FoamToken> t = lex.Next();
  return t.ok() && t->IsWord() && t->text == "FoamFile";
}

std::string FormatFoamLabelList(std::span<const int32_t> labels,
                                std::string_view object,
                                std::string_view location,
                                std::string_view note) {
  std::string text = absl::StrCat(
      "/*--------------------------------*- C++ "
      "-*----------------------------------*\\\n"
      "  Written by rankmap\n"
      "\\*---------------------------------------------------------------------"
      "------*/\n"
      "FoamFile\n{\n    version     2.0;\n    format      ascii;\n"
      "    class       labelList;\n");
  if (!note.empty()) {
    absl::StrAppend(&text, "    note        \"", std::string(note), "\";\n");
  }
  absl::StrAppend(&text, "    location    \"", std::string(location), "\";\n",
                  "    object      ", std::string(object), ";\n}\n\n",
                  labels.size(), "\n(\n");
  text.reserve(text.size() + labels.size() * 8 + 8);
  for (int32_t l : labels) absl::StrAppend(&text, l, "\n");
  text += ")\n";
  return text;
}

}  // namespace rankmap::graphs
