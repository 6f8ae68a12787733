#pragma once
// The generators' random numbers and arithmetic, chosen so that a graph depends on nothing but
// its parameters: xoshiro256** (Blackman, Vigna) seeded through splitmix64, integer mappings to
// ranges and probabilities, and fixed-point powers instead of libm (whose pow may differ in the
// last bit between platforms, which would move a degree and change the whole graph).
#include <bit>
#include <cstdint>

namespace spgraph::io::detail {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Purposes that separate the random streams of one seed.
enum StreamPurpose : std::uint64_t {
  kRmatEdges = 1,
  kEdgeValues,
  kDegreeOrder,
  kHubSites,
  kRowTargets,
  kStatsSample,
};

// One independent stream per (seed, purpose, index): a row, a block of edges, a permutation.
class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
    std::uint64_t sm = seed;
    sm = splitmix64(sm) ^ purpose;
    sm = splitmix64(sm) ^ index;
    for (auto& word : s_) word = splitmix64(sm);
  }

  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound), bound > 0: Lemire's multiply-shift with rejection (unbiased).
  std::uint64_t below(std::uint64_t bound) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
    if (static_cast<std::uint64_t>(m) < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (static_cast<std::uint64_t>(m) < threshold) m = static_cast<unsigned __int128>(next()) * bound;
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform in (0, 1]: 53 random bits, exact in a double.
  double unit_open_closed() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }

 private:
  std::uint64_t s_[4];
};

// A probability as a 64-bit threshold: next() < threshold happens with probability p.
// p * 2^64 is an exact scaling, so the threshold is the same everywhere.
inline std::uint64_t probability_threshold(double p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return ~std::uint64_t{0};
  return static_cast<std::uint64_t>(p * 0x1.0p64);
}

// A nonnegative parameter in Q32 fixed point (exact scaling, then rounding).
inline std::uint64_t to_q32(double x) { return static_cast<std::uint64_t>(x * 0x1.0p32 + 0.5); }

// log2(x) in Q32 for x >= 1: integer part from the bit width, fraction by repeated squaring of
// the mantissa (one bit per squaring).
inline std::int64_t log2_q32(std::uint64_t x) {
  const int e = 63 - std::countl_zero(x);
  std::uint64_t m = e <= 61 ? x << (61 - e) : x >> (e - 61);  // mantissa in [1, 2), Q61
  std::int64_t frac = 0;
  for (int bit = 31; bit >= 0; --bit) {
    m = static_cast<std::uint64_t>((static_cast<unsigned __int128>(m) * m) >> 61);
    if (m >= (std::uint64_t{2} << 61)) {
      m >>= 1;
      frac |= std::int64_t{1} << bit;
    }
  }
  return (static_cast<std::int64_t>(e) << 32) | frac;
}

// 2^y for y >= 0 in Q32, result in Q32 (as a 128-bit integer: it may pass 2^64).
unsigned __int128 exp2_q32(std::int64_t y);

// (num / den)^exponent in Q32 for num >= den >= 1, exponent in Q32.
inline unsigned __int128 ratio_power_q32(std::uint64_t num, std::uint64_t den, std::uint64_t exponent_q32) {
  const auto log_ratio = static_cast<unsigned __int128>(log2_q32(num) - log2_q32(den));
  return exp2_q32(static_cast<std::int64_t>((log_ratio * exponent_q32) >> 32));
}

}  // namespace spgraph::io::detail
