// The distributed WordBfs (spgraph/dist/word_bfs.hpp): a level's words gathered along the grid,
// the blocks expanded where they are (WordBlocks: the host's threads, or the GPU), the partial
// words OR-reduced along the grid, settled on the owners; parents proposed by every rank and
// chosen by v's owner.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host/word_expansion.hpp"
#include "spgraph/dist/exchange.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/dist/word_bfs.hpp"

namespace spgraph::dist::detail {
namespace {

using host::Word;
using host::WordParentCandidate;

constexpr int kSources = 64;
// Beamer's alpha: push while the frontier's links are fewer than all links / alpha.
constexpr std::int64_t kAlpha = 14;

void check_blocks(const WordBlocks& blocks, BlockRange rows, BlockRange cols) {
  if (blocks.rows() != rows.size() || blocks.cols() != cols.size())
    throw Error("dist::WordBfs: this rank's blocks are " + std::to_string(blocks.rows()) + " x " +
                std::to_string(blocks.cols()) + " where the grid's layout gives them rows [" +
                std::to_string(rows.begin) + ", " + std::to_string(rows.end) + ") and columns [" +
                std::to_string(cols.begin) + ", " + std::to_string(cols.end) + ")");
}

class HostWordBlocks final : public WordBlocks {
 public:
  HostWordBlocks(Csr<std::int32_t> out_block, Csr<std::int32_t> in_block)
      : out_(std::move(out_block)), in_(std::move(in_block)) {
    if (in_.nrows != out_.nrows || in_.ncols != out_.ncols)
      throw Error("dist::WordBfs: this rank's block of out_links is " + std::to_string(out_.nrows) + " x " +
                  std::to_string(out_.ncols) + " and of in_links " + std::to_string(in_.nrows) + " x " +
                  std::to_string(in_.ncols) + "; both are block (i, j) of the grid");
  }
  std::int64_t rows() const override { return out_.nrows; }
  std::int64_t cols() const override { return out_.ncols; }
  std::int64_t out_links() const override { return out_.nnz(); }
  std::int64_t in_links() const override { return in_.nnz(); }
  std::vector<std::int64_t> out_row_lengths() const override {
    std::vector<std::int64_t> lengths(std::size_t(out_.nrows));
    for (vid_t u = 0; u < out_.nrows; ++u) lengths[std::size_t(u)] = out_.row_length(u);
    return lengths;
  }
  void push(std::span<const Word> frontier, std::span<const Word> seen, std::span<Word> next,
            std::vector<WordParentCandidate>* parents) override {
    host::push_words(out_, frontier, seen, next, parents);
  }
  void pull(std::span<const Word> frontier, std::span<const Word> seen, Word active, std::span<Word> next,
            std::vector<WordParentCandidate>* parents) override {
    host::pull_words(in_, frontier, seen, active, next, parents);
  }

 private:
  Csr<std::int32_t> out_, in_;
};

// For each source b of k, the run of global indices b * n + [vertices) that falls in `window`
// (an index range of a k * n vector), in increasing order: f(b, begin, end).
template <class F>
void for_each_run(std::int64_t n, int k, BlockRange vertices, BlockRange window, F f) {
  if (vertices.empty() || window.empty()) return;
  const std::int64_t b0 = window.begin / n, b1 = std::min<std::int64_t>(k - 1, (window.end - 1) / n);
  for (std::int64_t b = b0; b <= b1; ++b) {
    const std::int64_t lo = std::max(b * n + vertices.begin, window.begin);
    const std::int64_t hi = std::min(b * n + vertices.end, window.end);
    if (lo < hi) f(b, lo, hi);
  }
}

// by_source[b * len + (v - mine.begin)] for this rank's vertices `mine`, moved to the pieces of
// a k * n vector (index b * n + v): returns this rank's piece of it (all-to-all).
std::vector<std::int32_t> to_source_major(const ProcessGrid& g, std::int64_t n, int k, BlockRange mine,
                                          const std::vector<std::int32_t>& by_source) {
  const int p = g.world().size();
  if (p == 1) return by_source;  // one piece of n: b * n + v already
  const std::int64_t len = mine.size();
  std::vector<std::int64_t> send_counts(std::size_t(p), 0), recv_counts(std::size_t(p), 0);
  std::vector<std::int32_t> send;
  send.reserve(by_source.size());
  for (int d = 0; d < p; ++d) {
    const std::size_t before = send.size();
    for_each_run(n, k, mine, vector_piece(std::int64_t(k) * n, g.shape(), d), [&](std::int64_t b, std::int64_t lo, std::int64_t hi) {
      const auto first = by_source.begin() + (b * len + lo - b * n - mine.begin);
      send.insert(send.end(), first, first + (hi - lo));
    });
    send_counts[std::size_t(d)] = std::int64_t(send.size() - before);
  }
  const BlockRange window = vector_piece(std::int64_t(k) * n, g.shape(), g.world().rank());
  for (int q = 0; q < p; ++q)
    for_each_run(n, k, vector_piece(n, g.shape(), q), window,
                 [&](std::int64_t, std::int64_t lo, std::int64_t hi) { recv_counts[std::size_t(q)] += hi - lo; });
  // What rank q sends here comes in increasing index order, so it lands in q's runs one after
  // another: the received buffer, ordered by rank, is the piece's order once runs are placed.
  const auto send_displs = offsets_of(send_counts), recv_displs = offsets_of(recv_counts);
  std::vector<std::int32_t> received(std::size_t(recv_displs.back() + recv_counts.back()));
  g.world().alltoallv(send.data(), send_counts, send_displs, received.data(), recv_counts, recv_displs);
  std::vector<std::int32_t> piece(std::size_t(window.size()));
  std::size_t at = 0;
  for (int q = 0; q < p; ++q)
    for_each_run(n, k, vector_piece(n, g.shape(), q), window, [&](std::int64_t, std::int64_t lo, std::int64_t hi) {
      std::copy_n(received.begin() + std::ptrdiff_t(at), hi - lo, piece.begin() + (lo - window.begin));
      at += std::size_t(hi - lo);
    });
  return piece;
}

// The parent candidates of a level (local ids of the block: v + to_offset, u + from_offset
// global), each kept by v's owner, which keeps the smallest u for every (v, source) it found new
// (`fresh`, its piece's new words): this rank's own at once, the others' sent by all-to-all.
// parent: by source, as to_source_major's input.
void settle_parents(const ProcessGrid& g, std::int64_t n, BlockRange mine, const std::vector<Word>& fresh,
                    const std::vector<WordParentCandidate>& candidates, std::int64_t to_offset, std::int64_t from_offset,
                    std::vector<vid_t>& parent) {
  const int p = g.world().size(), me = g.world().rank();
  const std::int64_t len = mine.size();
  auto keep = [&](std::int64_t v_global, std::int64_t u, std::int64_t bit) {
    const std::int64_t v = v_global - mine.begin;
    if (v < 0 || v >= len || bit < 0 || bit >= kSources || !((fresh[std::size_t(v)] >> bit) & 1))
      throw Error("dist::WordBfs: a parent candidate " + std::to_string(u) + " for vertex " + std::to_string(v_global) +
                  " and source " + std::to_string(bit) + " reached rank " + std::to_string(me) +
                  ", which does not own that vertex or did not find it new at this level (the ranks disagree)");
    vid_t& slot = parent[std::size_t(bit * len + v)];
    if (slot < 0 || u < slot) slot = vid_t(u);
  };
  std::vector<int> owner(candidates.size());
  std::vector<std::int64_t> send_counts(std::size_t(p), 0), recv_counts(std::size_t(p), 0);
  for (std::size_t e = 0; e < candidates.size(); ++e) {
    owner[e] = int(block_owner(n, p, to_offset + candidates[e].v));
    if (owner[e] == me) keep(to_offset + candidates[e].v, from_offset + candidates[e].u, candidates[e].bit);
    else send_counts[std::size_t(owner[e])] += 3;
  }
  std::vector<std::int64_t> send_displs = offsets_of(send_counts), next = send_displs;
  std::vector<std::int64_t> send(std::size_t(send_displs.back() + send_counts.back()));
  for (std::size_t e = 0; e < candidates.size(); ++e) {
    if (owner[e] == me) continue;
    std::int64_t& at = next[std::size_t(owner[e])];
    send[std::size_t(at++)] = to_offset + candidates[e].v;
    send[std::size_t(at++)] = from_offset + candidates[e].u;
    send[std::size_t(at++)] = candidates[e].bit;
  }
  if (p == 1) return;
  g.world().alltoall(send_counts.data(), recv_counts.data(), 1);
  const auto recv_displs = offsets_of(recv_counts);
  std::vector<std::int64_t> received(std::size_t(recv_displs.back() + recv_counts.back()));
  g.world().alltoallv(send.data(), send_counts, send_displs, received.data(), recv_counts, recv_displs);
  for (std::size_t e = 0; e < received.size(); e += 3) keep(received[e], received[e + 1], received[e + 2]);
}

}  // namespace

std::unique_ptr<WordBlocks> host_word_blocks(Csr<std::int32_t> out_block, Csr<std::int32_t> in_block) {
  return std::make_unique<HostWordBlocks>(std::move(out_block), std::move(in_block));
}

WordBfsResult word_bfs_on_blocks(const ProcessGrid& g, std::int64_t n, WordBlocks& blocks,
                                 const std::vector<vid_t>& sources, bool want_levels, bool want_parents,
                                 WordBfsPieces& pieces) {
  require_host_grid(g);
  const int k = int(sources.size());
  if (k < 1 || k > kSources)
    throw Error("dist::WordBfs: " + std::to_string(sources.size()) + " sources; one word holds 1 to " +
                std::to_string(kSources));
  for (vid_t s : sources)
    if (s < 0 || s >= n)
      throw Error("dist::WordBfs: source " + std::to_string(s) + " is not a vertex (0.." + std::to_string(n - 1) + ")");
  if (want_parents && n - 1 > std::numeric_limits<vid_t>::max())
    throw Error("dist::WordBfs: parents of a graph of " + std::to_string(n) +
                " vertices do not fit 32-bit vertex ids; search without parents");
  const BlockRange rows = matrix_row_block(n, g.shape(), g.row()), cols = matrix_col_block(n, g.shape(), g.col());
  check_blocks(blocks, rows, cols);
  std::int64_t links_here[2] = {blocks.out_links(), blocks.in_links()}, links[2] = {0, 0};
  g.world().allreduce(links_here, links, 2, ReduceOp::Sum);
  if (links[0] != links[1])
    throw Error("dist::WordBfs: out_links has " + std::to_string(links[0]) + " links and in_links " +
                std::to_string(links[1]) + "; in_links must be out_links' transpose");
  const std::int64_t all_links = links[0];

  const BlockRange mine = vector_piece(n, g.shape(), g.world().rank());
  const std::size_t len = std::size_t(mine.size());
  // links out of each of this rank's vertices
  const std::vector<std::int64_t> degree = reduce_row_partials(g, n, blocks.out_row_lengths(), ReduceOp::Sum);
  std::vector<Word> seen(len, 0), frontier(len, 0);
  std::vector<std::int32_t> level(want_levels ? std::size_t(k) * len : 0, -1);
  std::vector<vid_t> parent(want_parents ? std::size_t(k) * len : 0, -1);
  for (int b = 0; b < k; ++b) {
    const std::int64_t s = sources[std::size_t(b)];
    if (s < mine.begin || s >= mine.end) continue;
    seen[std::size_t(s - mine.begin)] |= Word(1) << b;
    frontier[std::size_t(s - mine.begin)] |= Word(1) << b;
    if (want_levels) level[std::size_t(b) * len + std::size_t(s - mine.begin)] = 0;
  }

  WordBfsResult r;
  r.depth.assign(std::size_t(k), 0);
  Word active = k == kSources ? ~Word(0) : (Word(1) << k) - 1;
  bool push = true;  // the first frontier is the sources alone
  std::vector<WordParentCandidate> candidates;
  for (std::int32_t depth = 1; active != 0; ++depth) {
    candidates.clear();
    std::vector<WordParentCandidate>* proposed = want_parents ? &candidates : nullptr;
    std::vector<Word> next;
    std::int64_t to_offset = 0, from_offset = 0;  // the candidates' local ids, made global
    if (push) {
      const std::vector<Word> f = gather_row_block(g, n, frontier), s = gather_col_block(g, n, seen);
      std::vector<Word> partial(std::size_t(cols.size()), 0);
      blocks.push(f, s, partial, proposed);
      next = reduce_col_partials(g, n, partial, ReduceOp::BitOr);
      to_offset = cols.begin, from_offset = rows.begin;
      ++r.push_levels;
    } else {
      const std::vector<Word> f = gather_col_block(g, n, frontier), s = gather_row_block(g, n, seen);
      std::vector<Word> partial(std::size_t(rows.size()), 0);
      blocks.pull(f, s, active, partial, proposed);
      next = reduce_row_partials(g, n, partial, ReduceOp::BitOr);
      to_offset = rows.begin, from_offset = cols.begin;
      ++r.pull_levels;
    }
    // Settle this rank's vertices: new = next & ~seen; the counts that choose the next level.
    std::int64_t found_links[1] = {0}, all_found_links[1] = {0};
    Word found = 0;
    for (std::size_t v = 0; v < len; ++v) {
      const Word fresh = next[v] & ~seen[v] & active;
      frontier[v] = fresh;
      if (!fresh) continue;
      seen[v] |= fresh;
      found |= fresh;
      found_links[0] += degree[v];
      if (want_levels)
        for (Word bits = fresh; bits; bits &= bits - 1) level[std::size_t(std::countr_zero(bits)) * len + v] = depth;
    }
    if (want_parents) settle_parents(g, n, mine, frontier, candidates, to_offset, from_offset, parent);
    Word all_found = 0;
    g.world().allreduce(&found, &all_found, 1, ReduceOp::BitOr);
    g.world().allreduce(found_links, all_found_links, 1, ReduceOp::Sum);
    active = all_found;
    for (int b = 0; b < k; ++b)
      if ((active >> b) & 1) r.depth[std::size_t(b)] = depth;
    push = all_found_links[0] * kAlpha < all_links;
  }

  // reached[b]: the vertices whose seen word has bit b; then the links out of every vertex times
  // the sources that reached it, summed over ranks in one allreduce.
  std::vector<std::int64_t> tally(std::size_t(k) + 1, 0), total(std::size_t(k) + 1, 0);
  for (std::size_t v = 0; v < len; ++v) {
    for (Word bits = seen[v]; bits; bits &= bits - 1) ++tally[std::size_t(std::countr_zero(bits))];
    tally[std::size_t(k)] += std::int64_t(std::popcount(seen[v])) * degree[v];
  }
  g.world().allreduce(tally.data(), total.data(), std::int64_t(total.size()), ReduceOp::Sum);
  r.reached.assign(total.begin(), total.begin() + k);
  r.edges_traversed = total[std::size_t(k)];

  if (want_levels) pieces.level = to_source_major(g, n, k, mine, level);
  if (want_parents) pieces.parent = to_source_major(g, n, k, mine, parent);
  return r;
}

}  // namespace spgraph::dist::detail
