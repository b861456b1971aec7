#include "base/temp_dir.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/leftovers.h"

namespace rankmap::base {
namespace {

void RemoveTree(const std::string& path) {
  RemovePath(path);
  ForgetTemporary(path);
}

}  // namespace

std::string TempBase() {
  for (const char* name : {"TEST_TMPDIR", "TMPDIR"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return v;
  }
  return "/tmp";
}

absl::StatusOr<TempDir> TempDir::Make(std::string templ) {
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot create a directory like ", templ, ": ", std::strerror(errno)));
  }
  RegisterTemporary(buf.data());
  return TempDir(std::string(buf.data()));
}

absl::StatusOr<TempDir> TempDir::Create(std::string_view prefix) {
  return Make(absl::StrCat(TempBase(), "/rankmap-", std::string(prefix), "-XXXXXX"));
}

absl::StatusOr<TempDir> TempDir::CreateIn(const std::string& parent,
                                          std::string_view prefix) {
  return Make(absl::StrCat(parent, "/.rankmap-", std::string(prefix), "-XXXXXX"));
}

TempDir::TempDir(TempDir&& other) noexcept
    : path_(std::exchange(other.path_, "")) {}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    if (!path_.empty()) RemoveTree(path_);
    path_ = std::exchange(other.path_, "");
  }
  return *this;
}

TempDir::~TempDir() {
  if (!path_.empty()) RemoveTree(path_);
}

}  // namespace rankmap::base
