#include "base/gunzip.h"

#include <zlib.h>

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

// `text` as one gzip member (zlib's deflate with the gzip wrapper).
std::string Gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(
      deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
      Z_OK);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(GunzipTest, RoundTripsTextAndBinaryBytes) {
  std::string text = "FoamFile\n{\n}\n3\n(\n0\n1\n2\n)\n";
  text += std::string("\0\x01\xff", 3);
  const std::string gz = Gzip(text);
  EXPECT_TRUE(IsGzip(gz));
  EXPECT_FALSE(IsGzip(text));
  const auto out = Gunzip(gz, "owner.gz", 1 << 20);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, text);
}

TEST(GunzipTest, ReadsConcatenatedMembersAsGzipDoes) {
  const auto out = Gunzip(Gzip("abc") + Gzip("def"), "x.gz", 1 << 20);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "abcdef");
}

TEST(GunzipTest, EmptyMemberGivesEmptyOutput) {
  const auto out = Gunzip(Gzip(""), "e.gz", 1 << 20);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "");
}

TEST(GunzipTest, RefusesOutputAboveTheLimitBeforeProducingIt) {
  // 8 MiB of zeros compress to a few kB: the limit, not the input size, stops
  // it.
  const std::string gz = Gzip(std::string(8 << 20, '\0'));
  ASSERT_LT(gz.size(), 64u << 10);
  const auto out = Gunzip(gz, "bomb.gz", 1 << 20);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(out.status().message(),
            "bomb.gz: decompresses to more than 1.0 MiB, the memory budget");
  // Exactly at the limit is fine.
  const auto exact = Gunzip(Gzip(std::string(4096, 'a')), "a.gz", 4096);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(exact->size(), 4096u);
}

TEST(GunzipTest, NamesTheFileAndTheFault) {
  const std::string gz = Gzip("some text that is long enough to matter");
  auto out = Gunzip("plain text", "a", 1 << 20);
  EXPECT_EQ(out.status().message(), "a: not gzip data (no 1f 8b magic bytes)");
  out = Gunzip(gz.substr(0, gz.size() - 6), "t.gz", 1 << 20);
  EXPECT_EQ(out.status().message(),
            "t.gz: gzip data ends early (truncated file?)");
  out = Gunzip(gz + "junk", "j.gz", 1 << 20);
  EXPECT_EQ(out.status().message(),
            "j.gz: 4 bytes after the end of the gzip data");
  std::string bad = gz;
  bad[bad.size() - 5] ^= 0x55;  // the CRC's bytes
  out = Gunzip(bad, "c.gz", 1 << 20);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(out.status().message(),
                               "c.gz: damaged gzip data (zlib: "))
      << out.status();
}

}  // namespace
}  // namespace rankmap::base
