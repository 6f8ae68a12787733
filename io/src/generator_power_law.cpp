// The shaped power-law generator (see PowerLawParams in generators.hpp for the model).
// Rows are independent: row i's targets come from its own random stream, and its place in the
// output is fixed by the degree sequence, so rows are generated in parallel blocks with the same
// result for any thread count.
#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <utility>

#include "generator_parallel.hpp"
#include "generator_random.hpp"
#include "generator_values.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

using detail::Rng;
using u128 = unsigned __int128;

[[noreturn]] void bad_parameter(const std::string& reason) { throw Error("power_law_graph: " + reason); }

// counts[d] = number of vertices with out-degree >= d, for d = 1..max (counts[max+1] = 0), from
// the rank law degree(r) ~ (r + r0)^(-1/exponent): counts[d] = floor(r0 ((max/d)^exponent - 1)) + 1,
// capped at n, so exactly one vertex gets max. r0 (Q16) is the smallest giving a sum >= total;
// the few degrees too many are then taken from the lowest degrees.
std::vector<eid_t> power_law_counts(vid_t n, eid_t total, vid_t max, double exponent) {
  if (max < 1 || max >= n)
    bad_parameter("max_out_degree must be in [1, " + std::to_string(n - 1) + "] (rows with entries - 1), got " + std::to_string(max));
  if (!(exponent > 0 && exponent <= 3)) bad_parameter("out_exponent must be in (0, 3], got " + std::to_string(exponent));
  if (total < max || total > static_cast<eid_t>(n) * max)
    bad_parameter(std::to_string(total) + " edges cannot be spread over " + std::to_string(n) +
                  " rows with the longest " + std::to_string(max));
  const std::uint64_t exponent_q32 = detail::to_q32(exponent);
  std::vector<u128> excess(static_cast<std::size_t>(max) + 1);  // (max/d)^exponent - 1, Q32
  for (vid_t d = 1; d <= max; ++d)
    excess[d] = detail::ratio_power_q32(static_cast<std::uint64_t>(max), static_cast<std::uint64_t>(d), exponent_q32) -
                (u128{1} << 32);
  const u128 n_q48 = static_cast<u128>(n) << 48;
  auto count = [&](std::uint64_t r0_q16, vid_t d) -> eid_t {
    if (excess[d] != 0 && r0_q16 > n_q48 / excess[d]) return n;
    return std::min<eid_t>(n, static_cast<eid_t>((r0_q16 * excess[d]) >> 48) + 1);
  };
  auto sum = [&](std::uint64_t r0_q16) {
    eid_t s = 0;
    for (vid_t d = 1; d <= max; ++d) s += count(r0_q16, d);
    return s;
  };
  std::uint64_t lo = 0, hi = 1;
  while (sum(hi) < total) {
    if (hi >> 62) bad_parameter("out_exponent too small to reach the edge count");
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (sum(mid) >= total ? hi : lo) = mid;
  }
  std::vector<eid_t> counts(static_cast<std::size_t>(max) + 2, 0);
  for (vid_t d = 1; d <= max; ++d) counts[d] = count(hi, d);
  eid_t surplus = sum(hi) - total;
  for (vid_t d = 1; d < max && surplus > 0; ++d) {
    const eid_t take = std::min(surplus, counts[d] - counts[d + 1]);
    counts[d] -= take;
    surplus -= take;
  }
  return counts;
}

// Out-degrees by vertex. A share hub_fraction of the sites are hub sites; the largest degrees
// are dealt to them in groups of hub_group consecutive ranks (a site's index pages have similar
// lengths), one group per hub site, at the site's first ids (its most linked ranks). The other
// degrees go to the other vertices in random order.
std::vector<vid_t> out_degrees(const PowerLawParams& p) {
  const std::vector<eid_t> counts = power_law_counts(p.n - p.empty_rows, p.edges, p.max_out_degree, p.out_exponent);
  std::vector<vid_t> by_rank(p.n, 0);
  for (vid_t d = p.max_out_degree; d >= 1; --d)
    std::fill(by_rank.begin() + counts[d + 1], by_rank.begin() + counts[d], d);

  const std::uint64_t hub = detail::probability_threshold(p.hub_fraction);
  const vid_t sites = (p.n - 1) / p.site_size + 1;
  std::vector<vid_t> hub_sites;
  for (vid_t s = 0; s < sites; ++s)
    if (Rng(p.seed, detail::kHubSites, static_cast<std::uint64_t>(s)).next() < hub) hub_sites.push_back(s);
  Rng rng(p.seed, detail::kDegreeOrder, 0);
  auto shuffle = [&rng](auto& v) {
    for (std::size_t r = v.size(); r > 1; --r) std::swap(v[r - 1], v[rng.below(r)]);
  };
  shuffle(hub_sites);

  std::vector<vid_t> degree(p.n, -1);
  eid_t rank = 0;
  for (vid_t s : hub_sites) {
    const eid_t lo = static_cast<eid_t>(s) * p.site_size, hi = std::min<eid_t>(p.n, lo + p.site_size);
    for (eid_t v = lo; v < std::min(hi, lo + p.hub_group); ++v) degree[v] = by_rank[rank++];
  }
  std::vector<vid_t> rest;
  for (vid_t v = 0; v < p.n; ++v)
    if (degree[v] < 0) rest.push_back(v);
  shuffle(rest);
  for (vid_t v : rest) degree[v] = by_rank[rank++];
  return degree;
}

// Link targets: within a site, rank r has weight (r+1)^-site_exponent (Q32, integer). The
// cumulative weight of the ids below v is P(v) = (v / site_size) * site_total + rank_prefix[v % site_size],
// so a weighted draw in any id range is a uniform draw of P followed by its inverse: a division
// and a binary search in one site's table, whatever the range.
class TargetSampler {
 public:
  // Rows longer than 1/kReach of their site look at a window of kReach times their length.
  static constexpr eid_t kReach = 4;

  explicit TargetSampler(const PowerLawParams& p)
      : n_(p.n), site_(p.site_size), local_(detail::probability_threshold(p.local_fraction)), rank_prefix_(site_ + 1, 0) {
    const std::uint64_t exponent_q32 = detail::to_q32(p.site_exponent);
    for (vid_t r = 0; r < site_; ++r) {
      const u128 scale = detail::ratio_power_q32(static_cast<std::uint64_t>(r) + 1, 1, exponent_q32);
      rank_prefix_[r + 1] = rank_prefix_[r] + static_cast<std::uint64_t>((u128{1} << 64) / scale);
    }
    site_total_ = rank_prefix_[site_];
  }

  struct Range {
    vid_t lo, hi;
  };
  // The source's site, or for a row too long for it a window of kReach times its length.
  // Either holds more than `degree` vertices besides the source, so a row can always be filled.
  Range local_range(vid_t source, vid_t degree) const {
    const eid_t width = kReach * degree;
    const vid_t site_lo = source / site_ * site_;
    const auto site_hi = static_cast<vid_t>(std::min<eid_t>(n_, static_cast<eid_t>(site_lo) + site_));
    if (width <= site_hi - site_lo) return {site_lo, site_hi};
    return {static_cast<vid_t>(std::max<eid_t>(0, source - width / 2)),
            static_cast<vid_t>(std::min<eid_t>(n_, source + width / 2 + 1))};
  }

  // A candidate weighted by rank, in the local range or anywhere.
  std::pair<vid_t, Range> draw(Range local, Rng& rng) const {
    const Range r = rng.next() < local_ ? local : Range{0, n_};
    const std::uint64_t lo = prefix(r.lo), hi = prefix(r.hi);
    if (hi == lo) return {r.lo + static_cast<vid_t>(rng.below(static_cast<std::uint64_t>(r.hi - r.lo))), r};
    return {inverse(lo + rng.below(hi - lo)), r};
  }

 private:
  std::uint64_t prefix(vid_t v) const {
    return static_cast<std::uint64_t>(v / site_) * site_total_ + rank_prefix_[v % site_];
  }
  vid_t inverse(std::uint64_t x) const {
    const auto site = static_cast<vid_t>(x / site_total_);
    const std::uint64_t rem = x % site_total_;
    const auto rank = std::upper_bound(rank_prefix_.begin() + 1, rank_prefix_.end(), rem) - rank_prefix_.begin() - 1;
    return site * site_ + static_cast<vid_t>(rank);
  }

  vid_t n_, site_;
  std::uint64_t local_;
  std::vector<std::uint64_t> rank_prefix_;
  std::uint64_t site_total_ = 0;
};

// The targets already taken in the current row, and for each the next id that may be free
// (a union-find "next free slot" with path compression, Tarjan's trick for linear probing).
// Short rows, most of them, keep a sorted list instead: the same answers without touching two
// n-sized arrays at random (a cache miss per global target).
class TakenSet {
 public:
  static constexpr vid_t kShortRow = 64;

  explicit TakenSet(vid_t n) : owner_(static_cast<std::size_t>(n) + 1, -1), next_(static_cast<std::size_t>(n) + 1) {}

  void start_row(vid_t row, vid_t degree) {
    row_ = row;
    short_ = degree <= kShortRow;
    list_.clear();
    take(row);
  }
  void take(vid_t v) {
    if (short_) {
      list_.insert(std::lower_bound(list_.begin(), list_.end(), v), v);
      return;
    }
    owner_[v] = row_;
    next_[v] = v + 1;
  }
  // The first id >= v not taken in this row (possibly the sentinel n).
  vid_t first_free(vid_t v) {
    if (short_) {
      for (auto it = std::lower_bound(list_.begin(), list_.end(), v); it != list_.end() && *it == v; ++it) ++v;
      return v;
    }
    vid_t root = v;
    while (owner_[root] == row_) root = next_[root];
    while (owner_[v] == row_ && next_[v] != root) v = std::exchange(next_[v], root);
    return root;
  }

 private:
  std::vector<vid_t> owner_, next_, list_;
  vid_t row_ = -1;
  bool short_ = false;
};

// A drawn target already taken (or the source itself) moves on to the next free id of its
// range, wrapping around: every draw adds a target, and a long row fills its site's top ranks
// nearly in order, as a site's index pages all link to the same pages. That shared structure is
// what makes the rows a row of A gathers in A*A overlap.
void draw_row(vid_t source, vid_t degree, const TargetSampler& sampler, Rng& rng, TakenSet& taken,
              std::vector<vid_t>& targets) {
  targets.clear();
  taken.start_row(source, degree);
  const TargetSampler::Range local = sampler.local_range(source, degree);
  while (static_cast<vid_t>(targets.size()) < degree) {
    const auto [candidate, range] = sampler.draw(local, rng);
    vid_t v = taken.first_free(candidate);
    if (v >= range.hi) v = taken.first_free(range.lo);
    taken.take(v);
    targets.push_back(v);
  }
  std::sort(targets.begin(), targets.end());
}

void check(const PowerLawParams& p) {
  if (p.n < 2) bad_parameter("n must be at least 2, got " + std::to_string(p.n));
  if (p.site_size < 1 || p.site_size > p.n)
    bad_parameter("site_size must be in [1, n], got " + std::to_string(p.site_size));
  if (!(p.site_exponent >= 0 && p.site_exponent <= 3))
    bad_parameter("site_exponent must be in [0, 3], got " + std::to_string(p.site_exponent));
  if (p.empty_rows < 0 || p.empty_rows > p.n - 2)
    bad_parameter("empty_rows must be in [0, n-2], got " + std::to_string(p.empty_rows));
  if (p.hub_group < 0) bad_parameter("hub_group must be nonnegative, got " + std::to_string(p.hub_group));
  for (double f : {p.hub_fraction, p.local_fraction})
    if (!(f >= 0 && f <= 1)) bad_parameter("hub_fraction and local_fraction must be in [0, 1]");
}

}  // namespace

Csr<double> power_law_graph(const PowerLawParams& p, int threads) {
  check(p);
  const std::vector<vid_t> degree = out_degrees(p);
  Csr<double> a;
  a.nrows = a.ncols = p.n;
  a.rowptr.resize(static_cast<std::size_t>(p.n) + 1);
  a.rowptr[0] = 0;
  std::partial_sum(degree.begin(), degree.end(), a.rowptr.begin() + 1, std::plus<eid_t>());
  a.col.resize(p.edges);
  const TargetSampler sampler(p);

  constexpr vid_t kRowsPerBlock = 1 << 12;
  const int workers = detail::resolve_threads(threads);
  std::vector<std::vector<vid_t>> scratch(workers);
  std::vector<TakenSet> taken(workers, TakenSet(p.n));
  const std::int64_t blocks = (static_cast<std::int64_t>(p.n) + kRowsPerBlock - 1) / kRowsPerBlock;
  detail::parallel_blocks(blocks, workers, [&](std::int64_t block, int worker) {
    const vid_t first = static_cast<vid_t>(block * kRowsPerBlock);
    const vid_t last = static_cast<vid_t>(std::min<std::int64_t>(p.n, first + std::int64_t{kRowsPerBlock}));
    for (vid_t i = first; i < last; ++i) {
      Rng rng(p.seed, detail::kRowTargets, static_cast<std::uint64_t>(i));
      draw_row(i, degree[i], sampler, rng, taken[worker], scratch[worker]);
      std::copy(scratch[worker].begin(), scratch[worker].end(), a.col.begin() + a.rowptr[i]);
    }
  });
  if (p.random_values) detail::fill_random_values(a, p.seed, threads);
  return a;
}

}  // namespace spgraph::io
