// SHA-256 (FIPS 180-4), for comparing data between processes by a digest that
// two different inputs do not share in practice (unlike sums, which collide as
// soon as two values trade places).
//
//   Sha256 h;
//   h.Update(bytes.data(), bytes.size());
//   std::array<uint8_t, 32> digest = h.Finish();
//   std::string hex = Sha256Hex("abc");   // "ba7816bf..."
#ifndef RANKMAP_BASE_SHA256_H_
#define RANKMAP_BASE_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rankmap::base {

class Sha256 {
 public:
  Sha256();
  // Appends `size` bytes. O(size).
  void Update(const void* data, size_t size);
  // The digest of everything appended; the object is spent afterwards.
  std::array<uint8_t, 32> Finish();

 private:
  void Block(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_;
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes appended
};

// Lower-case hex digest of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_SHA256_H_
