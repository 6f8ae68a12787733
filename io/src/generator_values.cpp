#include "generator_values.hpp"

#include <algorithm>

#include "generator_parallel.hpp"
#include "generator_random.hpp"

namespace spgraph::io::detail {

void fill_random_values(Csr<double>& a, std::uint64_t seed, int threads) {
  a.val.resize(a.col.size());
  constexpr vid_t kRowsPerBlock = 1 << 14;
  const std::int64_t blocks = (static_cast<std::int64_t>(a.nrows) + kRowsPerBlock - 1) / kRowsPerBlock;
  parallel_blocks(blocks, resolve_threads(threads), [&](std::int64_t block, int) {
    const vid_t first = static_cast<vid_t>(block * kRowsPerBlock);
    const vid_t last = static_cast<vid_t>(std::min<std::int64_t>(a.nrows, first + std::int64_t{kRowsPerBlock}));
    for (vid_t i = first; i < last; ++i) {
      Rng rng(seed, kEdgeValues, static_cast<std::uint64_t>(i));
      for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) a.val[p] = rng.unit_open_closed();
    }
  });
}

}  // namespace spgraph::io::detail
