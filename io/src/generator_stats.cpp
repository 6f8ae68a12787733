// graph_stats: the products of A*A and A*A' are O(nnz) to count; their nonzeros take a pass over
// every product with a marker array per thread, or an estimate from sampled rows.
//
// Sampling is probability-proportional-to-size (Poisson): a row with p products is counted
// with probability min(1, p/tau), so rows with at least tau products (which carry most of the
// variance) are always counted, exactly. For the lighter rows, sampled in proportion to their
// products, the mean of nnz/products over the sample estimates their nnz per product (a ratio
// estimator: its error depends on how much that ratio varies between rows, not on the sample
// size's own randomness as a Horvitz-Thompson sum would).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "generator_parallel.hpp"
#include "generator_random.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

struct Structure {
  vid_t nrows = 0, ncols = 0;
  const eid_t* rowptr = nullptr;
  const vid_t* col = nullptr;  // may be null when only products are counted
};

template <class V>
Structure structure_of(const Csr<V>& a) {
  return {a.nrows, a.ncols, a.rowptr.data(), a.col.data()};
}

// Smallest tau whose expected work, sum of min(p, p^2/tau), is within `budget`, lowered if need
// be until about kMinSample rows are expected in the sample (small graphs).
eid_t sampling_threshold(const std::vector<eid_t>& row_products, double budget) {
  constexpr double kMinSample = 1000;
  auto work = [&](eid_t tau) {
    double w = 0;
    for (eid_t p : row_products) w += p >= tau ? static_cast<double>(p) : static_cast<double>(p) * p / tau;
    return w;
  };
  auto expected_rows = [&](eid_t tau) {
    double n = 0;
    for (eid_t p : row_products) n += std::min(1.0, static_cast<double>(p) / tau);
    return n;
  };
  const double nonempty = static_cast<double>(
      std::count_if(row_products.begin(), row_products.end(), [](eid_t p) { return p > 0; }));
  const double min_rows = std::min(kMinSample, nonempty);
  auto acceptable = [&](eid_t tau) { return work(tau) <= budget || expected_rows(tau) < min_rows; };
  eid_t lo = 0, hi = 1;
  while (!acceptable(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const eid_t mid = lo + (hi - lo) / 2;
    (acceptable(mid) ? hi : lo) = mid;
  }
  // hi is the smallest tau within budget, or the first with too small a sample: step back.
  return expected_rows(hi) < min_rows && hi > 1 ? hi - 1 : hi;
}

struct Partial {
  eid_t counted = 0;          // nonzeros of the rows counted exactly
  eid_t sampled_rows = 0;     // light rows in the sample
  double ratio_sum = 0;       // sum over them of nnz/products
  double ratio_squares = 0;   // and of its square
};

// Statistics of C = A*B, where B's rows are indexed by A's columns.
ProductStats product_stats(const Structure& a, const Structure& b, NnzCount how, const StatsOptions& o) {
  std::vector<eid_t> row_products(a.nrows, 0);
  ProductStats s;
  for (vid_t i = 0; i < a.nrows; ++i) {
    eid_t p = 0;
    for (eid_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q) p += b.rowptr[a.col[q] + 1] - b.rowptr[a.col[q]];
    row_products[i] = p;
    s.products += p;
  }
  if (how == NnzCount::Skip) return s;
  s.exact = how == NnzCount::Exact || o.sample_work >= 1;
  const eid_t tau = s.exact ? 0 : sampling_threshold(row_products, o.sample_work * static_cast<double>(s.products));

  constexpr vid_t kRowsPerBlock = 1 << 12;
  const std::int64_t blocks = (static_cast<std::int64_t>(a.nrows) + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<Partial> partial(blocks);
  const int workers = detail::resolve_threads(o.threads);
  std::vector<std::vector<vid_t>> marker(workers);
  detail::parallel_blocks(blocks, workers, [&](std::int64_t block, int worker) {
    std::vector<vid_t>& mark = marker[worker];
    if (mark.empty()) mark.assign(b.ncols, -1);
    const vid_t first = static_cast<vid_t>(block * kRowsPerBlock);
    const vid_t last = static_cast<vid_t>(std::min<std::int64_t>(a.nrows, first + std::int64_t{kRowsPerBlock}));
    Partial& part = partial[block];
    for (vid_t i = first; i < last; ++i) {
      const eid_t p = row_products[i];
      if (p == 0) continue;
      const bool light = !s.exact && p < tau;
      if (light && static_cast<eid_t>(detail::Rng(o.seed, detail::kStatsSample, i).below(tau)) >= p) continue;
      eid_t count = 0;
      for (eid_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q) {
        const vid_t k = a.col[q];
        for (eid_t r = b.rowptr[k]; r < b.rowptr[k + 1]; ++r)
          if (mark[b.col[r]] != i) {
            mark[b.col[r]] = i;
            ++count;
          }
      }
      if (!light) {
        part.counted += count;
      } else {
        const double ratio = static_cast<double>(count) / static_cast<double>(p);
        ++part.sampled_rows;
        part.ratio_sum += ratio;
        part.ratio_squares += ratio * ratio;
      }
    }
  });
  Partial total;  // summed in block order, so the result does not depend on the thread count
  for (const Partial& part : partial) {
    total.counted += part.counted;
    total.sampled_rows += part.sampled_rows;
    total.ratio_sum += part.ratio_sum;
    total.ratio_squares += part.ratio_squares;
  }
  s.nnz = static_cast<double>(total.counted);
  if (s.exact) return s;
  double light_products = 0;
  for (eid_t p : row_products)
    if (p < tau) light_products += static_cast<double>(p);
  if (light_products == 0) return s;
  if (total.sampled_rows < 2) {  // no estimate of the spread: all that is known is nnz <= products
    s.nnz += light_products / 2;
    s.nnz_stderr = light_products / 2;
    return s;
  }
  const double k = static_cast<double>(total.sampled_rows);
  const double mean = total.ratio_sum / k;
  const double variance = std::max(0.0, (total.ratio_squares - k * mean * mean) / (k - 1));
  s.nnz += light_products * mean;
  s.nnz_stderr = light_products * std::sqrt(variance / k);
  return s;
}

}  // namespace

template <class V>
GraphStats graph_stats(const Csr<V>& a, const StatsOptions& o) {
  if (!(o.sample_work > 0))
    throw Error("graph_stats: sample_work must be positive, got " + std::to_string(o.sample_work));
  GraphStats s;
  s.nrows = a.nrows;
  s.ncols = a.ncols;
  s.nnz = a.nnz();
  for (vid_t i = 0; i < a.nrows; ++i) {
    s.max_row = std::max(s.max_row, a.row_length(i));
    s.empty_rows += a.row_length(i) == 0;
  }
  const std::vector<eid_t> column_counts = in_degrees(a);
  if (!column_counts.empty()) s.max_column = *std::max_element(column_counts.begin(), column_counts.end());
  const Structure sa = structure_of(a);
  if (a.nrows == a.ncols) s.aa = product_stats(sa, sa, o.aa, o);
  if (o.aat == NnzCount::Skip) {
    // Products need only the column counts, not the transpose.
    std::vector<eid_t> colptr(static_cast<std::size_t>(a.ncols) + 1, 0);
    std::partial_sum(column_counts.begin(), column_counts.end(), colptr.begin() + 1);
    s.aat = product_stats(sa, Structure{a.ncols, a.nrows, colptr.data(), nullptr}, NnzCount::Skip, o);
  } else {
    Csr<V> pattern;  // the transpose of the structure only: values would double the memory
    pattern.nrows = a.nrows;
    pattern.ncols = a.ncols;
    pattern.rowptr = a.rowptr;
    pattern.col = a.col;
    const Csr<V> at = transpose(pattern);
    pattern = Csr<V>{};
    s.aat = product_stats(sa, structure_of(at), o.aat, o);
  }
  return s;
}

template GraphStats graph_stats<float>(const Csr<float>&, const StatsOptions&);
template GraphStats graph_stats<double>(const Csr<double>&, const StatsOptions&);
template GraphStats graph_stats<std::int32_t>(const Csr<std::int32_t>&, const StatsOptions&);
template GraphStats graph_stats<std::int64_t>(const Csr<std::int64_t>&, const StatsOptions&);
template GraphStats graph_stats<bool>(const Csr<bool>&, const StatsOptions&);

}  // namespace spgraph::io
