#include "base/host_name.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace rankmap::base {
namespace {

bool IsLabelChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// The name as it can be printed on one line: escaped, cut at 64 characters.
std::string Quoted(std::string_view name) {
  constexpr size_t kShown = 64;
  std::string shown = absl::CHexEscape(std::string(name.substr(0, kShown)));
  if (name.size() > kShown) shown += "...";
  return absl::StrCat("host name '", shown, "'");
}

}  // namespace

absl::Status CheckHostName(std::string_view name) {
  if (name.empty()) return absl::InvalidArgumentError("empty host name");
  if (name.size() > kMaxHostNameLength) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quoted(name), " is longer than ", kMaxHostNameLength,
                     " characters (", name.size(), ")"));
  }
  size_t label_begin = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != '.') {
      if (!IsLabelChar(name[i])) {
        return absl::InvalidArgumentError(absl::StrCat(
            Quoted(name), ": character ", i + 1,
            " is not a letter, digit, '-', '_' or '.' (the hostname grammar)"));
      }
      continue;
    }
    const std::string_view label = name.substr(label_begin, i - label_begin);
    if (label.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(Quoted(name), ": empty label at character ",
                       label_begin + 1, " (two dots, or a dot at an end)"));
    }
    if (label.size() > kMaxHostLabelLength) {
      return absl::InvalidArgumentError(
          absl::StrCat(Quoted(name), ": a label is longer than ",
                       kMaxHostLabelLength, " characters"));
    }
    if (label.front() == '-' || label.back() == '-') {
      return absl::InvalidArgumentError(
          absl::StrCat(Quoted(name), ": a label starts or ends with '-'"));
    }
    label_begin = i + 1;
  }
  return absl::OkStatus();
}

}  // namespace rankmap::base
