// Decompression of gzip files (RFC 1952) held in memory, bounded: the output
// is refused as soon as it would pass a limit, so a small file that inflates
// to gigabytes (a "zip bomb" or a damaged length) cannot exhaust memory.
//
//   if (base::IsGzip(bytes)) {
//     ASSIGN_OR_RETURN(bytes, base::Gunzip(bytes, "owner.gz", budget));
//   }
#ifndef RANKMAP_BASE_GUNZIP_H_
#define RANKMAP_BASE_GUNZIP_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::base {

// True when `data` starts with gzip's magic bytes 0x1f 0x8b.
bool IsGzip(std::string_view data);

// The decompressed bytes of `data`, one gzip member or several concatenated
// (as `gzip -d` reads them). Errors name `name`: InvalidArgument for data that
// is not gzip, damaged data (zlib's reason), a stream that ends early or
// trailing bytes that are not another member; ResourceExhausted when the
// output would exceed `max_bytes`. O(output) time; memory at most twice
// `max_bytes` while growing.
absl::StatusOr<std::string> Gunzip(std::string_view data, std::string_view name,
                                   int64_t max_bytes);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_GUNZIP_H_
