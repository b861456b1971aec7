#include "base/gunzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"

namespace rankmap::base {
namespace {

// One inflate stream, released on every path.
class Inflater {
 public:
  Inflater() = default;
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() {
    if (ready_) inflateEnd(&z_);
  }
  // 16 + MAX_WBITS: a gzip wrapper, not zlib's or raw deflate.
  bool Init() { return ready_ = inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK; }
  z_stream& z() { return z_; }

 private:
  z_stream z_{};
  bool ready_ = false;
};

absl::Status Damaged(std::string_view name, const z_stream& z) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(name), ": damaged gzip data (zlib: ",
                   z.msg != nullptr ? z.msg : "invalid stream", ")"));
}

}  // namespace

bool IsGzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

absl::StatusOr<std::string> Gunzip(std::string_view data, std::string_view name,
                                   int64_t max_bytes) {
  if (!IsGzip(data)) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(name), ": not gzip data (no 1f 8b magic bytes)"));
  }
  Inflater inflater;
  if (!inflater.Init()) {
    return absl::ResourceExhaustedError(
        absl::StrCat(std::string(name), ": cannot start zlib's inflate"));
  }
  z_stream& z = inflater.z();
  std::string out;
  size_t used = 0;
  size_t offset = 0;  // of the current member's remaining input in `data`
  while (true) {
    // zlib counts input in 32-bit units: feed at most 1 GiB at a time.
    if (z.avail_in == 0 && offset < data.size()) {
      const size_t chunk = std::min<size_t>(data.size() - offset, 1u << 30);
      z.next_in =
          reinterpret_cast<Bytef*>(const_cast<char*>(data.data()) + offset);
      z.avail_in = static_cast<uInt>(chunk);
      offset += chunk;
    }
    if (used == out.size()) {
      if (static_cast<int64_t>(out.size()) >= max_bytes) {
        return absl::ResourceExhaustedError(
            absl::StrCat(std::string(name), ": decompresses to more than ",
                         FormatBytes(max_bytes), ", the memory budget"));
      }
      const int64_t grown = std::max<int64_t>(
          4096,
          std::min<int64_t>(max_bytes, 2 * static_cast<int64_t>(out.size())));
      out.resize(static_cast<size_t>(grown));
    }
    const size_t room = std::min<size_t>(out.size() - used, 1u << 30);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&z, Z_NO_FLUSH);
    used += room - z.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow (gzip -d reads them all); anything else
      // after a member is refused rather than silently dropped.
      const std::string_view rest =
          data.substr(offset - z.avail_in, std::string_view::npos);
      if (rest.empty()) break;
      if (!IsGzip(rest)) {
        return absl::InvalidArgumentError(
            absl::StrCat(std::string(name), ": ", rest.size(),
                         " bytes after the end of the gzip data"));
      }
      if (inflateReset(&z) != Z_OK) return Damaged(name, z);
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && offset == data.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(name), ": gzip data ends early (truncated file?)"));
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) return Damaged(name, z);
  }
  out.resize(used);
  out.shrink_to_fit();
  return out;
}

}  // namespace rankmap::base
