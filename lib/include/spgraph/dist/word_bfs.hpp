#pragma once
// dist::Backend's WordBfs: breadth-first search from up to 64 sources at once, one bit per source
// in a 64-bit word per vertex (gpu/word_bfs.hpp), over the pr x pc grid, so that msbfs runs its
// bit-parallel form (WordFrontierBfs) across ranks. Each level, on rank (i, j):
//
//   push: frontier words of row block i gathered along the grid row, seen words of column
//         block j along the grid column; out_links' block (i, j) expanded (next(v) |= frontier(u)
//         & ~seen(v)); the partial next words OR-reduced and scattered along the grid column
//   pull: frontier words of column block j gathered along the grid column, seen words of row
//         block i along the grid row; in_links' block (i, j) expanded (next(v) = OR of
//         frontier(u) over v's in-links, cut short once every searching source has reached v);
//         the partials OR-reduced and scattered along the grid row
//   then on the rank owning v (its vector piece): new = next & ~seen, seen |= new, levels.
//
// The same gathers and reduce-scatters as mxv's and vxm's (dist/exchange.hpp). Direction per
// level as on one GPU (Beamer's alpha: push while the frontier's links are fewer than a
// fourteenth of all links, the first level a push), from counts summed over every rank, so every
// rank takes the same; the search stops at the first level that reaches nothing new, anywhere.
// Parents: each rank proposes, for every (v, source) it finds new, a parent from its block (in a
// pull the first in-link whose word has the bit); the candidates go to v's owner, which keeps
// the smallest id. Levels are exact; parents valid (u at level L-1 with a link u -> v), and the
// same run to run where each CPU rank expands on one thread (a push's candidate is then the
// smallest u of the block too; on a GPU it is the u whose atomicOr came first).
//
// The local expansion runs where the block is: on GPU ranks on the GPU (gpu::WordExpansion, the
// local backend's WordExpansion), the words crossing ranks through host memory as every other
// block of this backend does; on CPU ranks on the host's threads (host/word_expansion.hpp), the
// block copied to a host CSR once a run. A grid of one rank runs the local backend's own search
// instead where it has one (gpu::WordBfs).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/types.hpp"
#include "spgraph/word_bfs_result.hpp"

namespace spgraph::dist {

using spgraph::WordBfsResult;  // push_levels and pull_levels the same on every rank

namespace detail {

// This rank's pieces of the searches' levels and parents, laid out as a Vector of
// sources.size() * n elements (level[b * n + v]); empty where not asked for.
struct WordBfsPieces {
  std::vector<std::int32_t> level;
  std::vector<vid_t> parent;
};

// A level's local step on this rank's blocks, with local ids: block (i, j) of out_links (row u
// lists the v with a link u -> v) and block (i, j) of in_links (out_links' transpose); push and
// pull as host/word_expansion.hpp defines them.
class WordBlocks {
 public:
  using Word = std::uint64_t;
  virtual ~WordBlocks() = default;
  virtual std::int64_t rows() const = 0;
  virtual std::int64_t cols() const = 0;
  virtual std::int64_t out_links() const = 0;
  virtual std::int64_t in_links() const = 0;
  virtual std::vector<std::int64_t> out_row_lengths() const = 0;
  virtual void push(std::span<const Word> frontier, std::span<const Word> seen, std::span<Word> next,
                    std::vector<WordParentCandidate>* parents) = 0;
  virtual void pull(std::span<const Word> frontier, std::span<const Word> seen, Word active, std::span<Word> next,
                    std::vector<WordParentCandidate>* parents) = 0;
};

// The blocks as host CSRs, expanded on the host's threads.
std::unique_ptr<WordBlocks> host_word_blocks(Csr<std::int32_t> out_block, Csr<std::int32_t> in_block);

// The blocks where the local backend keeps them, expanded by its own E (Local::WordExpansion).
template <class E>
class LocalWordBlocks final : public WordBlocks {
 public:
  template <class M>
  LocalWordBlocks(const M& out_block, const M& in_block) : e_(out_block, in_block) {}
  std::int64_t rows() const override { return e_.rows(); }
  std::int64_t cols() const override { return e_.cols(); }
  std::int64_t out_links() const override { return e_.out_links(); }
  std::int64_t in_links() const override { return e_.in_links(); }
  std::vector<std::int64_t> out_row_lengths() const override { return e_.out_row_lengths(); }
  void push(std::span<const Word> frontier, std::span<const Word> seen, std::span<Word> next,
            std::vector<WordParentCandidate>* parents) override {
    e_.push(frontier, seen, next, parents);
  }
  void pull(std::span<const Word> frontier, std::span<const Word> seen, Word active, std::span<Word> next,
            std::vector<WordParentCandidate>* parents) override {
    e_.pull(frontier, seen, active, next, parents);
  }

 private:
  E e_;
};

// The search on this rank's blocks. Collective over the grid, which must be on host (MPI)
// communicators.
WordBfsResult word_bfs_on_blocks(const ProcessGrid& grid, std::int64_t n, WordBlocks& blocks,
                                 const std::vector<vid_t>& sources, bool want_levels, bool want_parents,
                                 WordBfsPieces& pieces);

}  // namespace detail

template <class Local>
class WordBfs {
 public:
  static constexpr int kSources = 64;
  using Result = WordBfsResult;

  // As gpu::WordBfs::run: out_links (n x n) lists in row u every v with a link u -> v the search
  // follows, in_links is its transpose, both on one grid; sources: 1 to kSources vertices (may
  // repeat). levels, parents: null, or set to vectors of sources.size() * n on that grid, with
  // level[b * n + v] (-1 where v is not reached) and a parent of v for source b (-1 for the
  // source and unreached vertices). Collective.
  static Result run(const Matrix<Local, std::int32_t>& out_links, const Matrix<Local, std::int32_t>& in_links,
                    const std::vector<vid_t>& sources, Vector<Local, std::int32_t>* levels,
                    Vector<Local, vid_t>* parents = nullptr) {
    const ProcessGrid* grid = out_links.grid();
    if (!grid || in_links.grid() != grid)
      throw Error("dist::WordBfs: out_links and in_links must both be on the same process grid");
    const std::int64_t n = out_links.nrows();
    if (out_links.ncols() != n || in_links.nrows() != n || in_links.ncols() != n)
      throw Error("dist::WordBfs: out_links is " + std::to_string(n) + " x " + std::to_string(out_links.ncols()) +
                  " and in_links " + std::to_string(in_links.nrows()) + " x " + std::to_string(in_links.ncols()) +
                  "; both must be n x n, one the transpose of the other");
    if constexpr (WordFrontierBfs<Local>)
      if (grid->world().size() == 1) return on_one_rank(*grid, out_links, in_links, sources, levels, parents);
    detail::WordBfsPieces pieces;
    const auto search = [&](detail::WordBlocks& blocks) {
      return detail::word_bfs_on_blocks(*grid, n, blocks, sources, levels != nullptr, parents != nullptr, pieces);
    };
    Result r;
    if constexpr (requires { typename Local::WordExpansion; }) {
      detail::LocalWordBlocks<typename Local::WordExpansion> blocks(out_links.block(), in_links.block());
      r = search(blocks);
    } else {
      r = search(*detail::host_word_blocks(Local::to_host(out_links.block()), Local::to_host(in_links.block())));
    }
    const std::int64_t size = std::int64_t(sources.size()) * n;
    if (levels) *levels = Vector<Local, std::int32_t>(*grid, size, Local::from_host(pieces.level));
    if (parents) *parents = Vector<Local, vid_t>(*grid, size, Local::from_host(pieces.parent));
    return r;
  }

 private:
  // A grid of one rank: the local backend's own search (gpu::WordBfs) on the whole graph.
  static Result on_one_rank(const ProcessGrid& grid, const Matrix<Local, std::int32_t>& out_links,
                            const Matrix<Local, std::int32_t>& in_links, const std::vector<vid_t>& sources,
                            Vector<Local, std::int32_t>* levels, Vector<Local, vid_t>* parents) {
    typename Local::template Vector<std::int32_t> level;
    typename Local::template Vector<vid_t> parent;
    Result r = Local::WordBfs::run(out_links.block(), in_links.block(), sources, levels ? &level : nullptr,
                                   parents ? &parent : nullptr);
    const std::int64_t size = std::int64_t(sources.size()) * out_links.nrows();
    if (levels) *levels = Vector<Local, std::int32_t>(grid, size, std::move(level));
    if (parents) *parents = Vector<Local, vid_t>(grid, size, std::move(parent));
    return r;
  }
};

}  // namespace spgraph::dist
