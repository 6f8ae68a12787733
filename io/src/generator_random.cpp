#include <array>

#include "generator_random.hpp"

namespace spgraph::io::detail {
namespace {

unsigned __int128 isqrt(unsigned __int128 x) {
  unsigned __int128 root = 0, bit = static_cast<unsigned __int128>(1) << 126;
  while (bit > x) bit >>= 2;
  while (bit != 0) {
    if (x >= root + bit) {
      x -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return root;
}

// 2^(2^-k) in Q62 for k = 1..32, each the integer square root of the previous: exact integer
// steps, so the table is the same everywhere.
std::array<std::uint64_t, 33> make_root_table() {
  std::array<std::uint64_t, 33> t{};
  t[0] = std::uint64_t{1} << 63;  // 2.0
  for (int k = 1; k <= 32; ++k) t[k] = static_cast<std::uint64_t>(isqrt(static_cast<unsigned __int128>(t[k - 1]) << 62));
  return t;
}

}  // namespace

unsigned __int128 exp2_q32(std::int64_t y) {
  static const std::array<std::uint64_t, 33> roots = make_root_table();
  const std::int64_t whole = y >> 32;
  const auto frac = static_cast<std::uint32_t>(y);
  unsigned __int128 m = static_cast<unsigned __int128>(1) << 62;  // 1.0 in Q62
  for (int k = 1; k <= 32; ++k)
    if (frac & (std::uint32_t{1} << (32 - k))) m = (m * roots[k]) >> 62;
  const std::int64_t shift = whole - 30;  // Q62 -> Q32, times 2^whole
  if (shift >= 0) return shift >= 64 ? ~static_cast<unsigned __int128>(0) >> 1 : m << shift;
  return shift <= -127 ? 0 : m >> -shift;
}

}  // namespace spgraph::io::detail
