// R-MAT: edges drawn in blocks of fixed size, one random stream per block, so the edge list is
// the same whatever the thread count; then self-loops dropped and duplicates merged.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "generator_parallel.hpp"
#include "generator_random.hpp"
#include "generator_values.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

vid_t rmat_vertex_count(const RmatParams& p) {
  if (p.n < 0) throw Error("rmat: n must be positive, got " + std::to_string(p.n));
  if (p.n > 0) return p.n;
  if (p.scale < 0 || p.scale > 30)
    throw Error("rmat: scale must be in [0, 30] (vertex ids are 32-bit), got " + std::to_string(p.scale));
  return vid_t{1} << p.scale;
}

void check_probabilities(const RmatParams& p) {
  for (double x : {p.a, p.b, p.c, p.d})
    if (!(x >= 0 && x <= 1))
      throw Error("rmat: quadrant probabilities a, b, c, d must be in [0, 1]");
  const double sum = p.a + p.b + p.c + p.d;
  if (std::abs(sum - 1) > 1e-9)
    throw Error("rmat: quadrant probabilities a + b + c + d must sum to 1, they sum to " + std::to_string(sum));
}

}  // namespace

Csr<double> rmat(const RmatParams& p, int threads) {
  const vid_t n = rmat_vertex_count(p);
  check_probabilities(p);
  if (p.edges < 0) throw Error("rmat: edges must be nonnegative, got " + std::to_string(p.edges));
  const int levels = std::bit_width(static_cast<std::uint32_t>(n - 1));  // ceil(log2 n)
  // Quadrant thresholds on 32 random bits; each 64-bit draw decides two levels.
  const auto t_a = static_cast<std::uint64_t>(p.a * 0x1.0p32);
  const auto t_ab = static_cast<std::uint64_t>((p.a + p.b) * 0x1.0p32);
  const auto t_abc = static_cast<std::uint64_t>((p.a + p.b + p.c) * 0x1.0p32);

  Coo<double> coo;
  coo.nrows = coo.ncols = n;
  coo.row.resize(p.edges);
  coo.col.resize(p.edges);
  constexpr eid_t kEdgesPerBlock = 1 << 16;
  const std::int64_t blocks = (p.edges + kEdgesPerBlock - 1) / kEdgesPerBlock;
  detail::parallel_blocks(blocks, detail::resolve_threads(threads), [&](std::int64_t block, int) {
    detail::Rng rng(p.seed, detail::kRmatEdges, static_cast<std::uint64_t>(block));
    const eid_t end = std::min(p.edges, (block + 1) * kEdgesPerBlock);
    for (eid_t e = block * kEdgesPerBlock; e < end; ++e) {
      std::uint32_t r, c;
      do {
        r = c = 0;
        std::uint64_t bits = 0;
        for (int level = 0; level < levels; ++level) {
          if (level % 2 == 0) bits = rng.next();
          const std::uint64_t u = (level % 2 == 0) ? bits >> 32 : bits & 0xffffffffu;
          const std::uint32_t down = u >= t_ab, right = (u >= t_a && u < t_ab) || u >= t_abc;
          r = (r << 1) | down;
          c = (c << 1) | right;
        }
      } while (r >= static_cast<std::uint32_t>(n) || c >= static_cast<std::uint32_t>(n));
      coo.row[e] = static_cast<vid_t>(r);
      coo.col[e] = static_cast<vid_t>(c);
    }
  });

  eid_t kept = 0;
  for (eid_t e = 0; e < p.edges; ++e) {
    if (coo.row[e] == coo.col[e]) continue;
    coo.row[kept] = coo.row[e];
    coo.col[kept] = coo.col[e];
    ++kept;
  }
  coo.row.resize(kept);
  coo.col.resize(kept);
  Csr<double> a = coo_to_csr(std::move(coo), Duplicates::First);
  if (p.random_values) detail::fill_random_values(a, p.seed, threads);
  return a;
}

}  // namespace spgraph::io
