#pragma once
// One level of the bit-parallel BFS (gpu/word_bfs.hpp's kernels) on one block of a distributed
// graph: the local step of dist::WordBfs on GPU ranks (dist/word_bfs.hpp), with the meaning of
// the host's (host/word_expansion.hpp), whose results it gives:
//
//   push: block rows are the frontier side (u), columns the reached side (v):
//         next(v) = OR of frontier(u) & ~seen(v) over the block's links u -> v
//   pull: block rows are the reached side (v), columns the frontier side (u):
//         next(v) = (OR of frontier(u) over v's row) & ~seen(v) & active, the walk of a row cut
//         short once every active source has reached v
//
// The blocks stay on the device; the words come from the host and go back to it, where the
// ranks exchange them. Parent candidates, when asked for, one a (v, source) pair found: in a
// pull the first u of v's row with the bit, as on the host; in a push the u whose atomicOr set
// it first.
#include <cstdint>
#include <span>
#include <vector>

#include "spgraph/gpu/matrix.hpp"
#include "spgraph/types.hpp"
#include "spgraph/word_bfs_result.hpp"

namespace spgraph::gpu {

class WordExpansion {
 public:
  using Word = std::uint64_t;

  // out_block: a block of out_links (row u lists the v of its links u -> v); in_block: the block
  // of in_links (out_links' transpose) on the same rows and columns. Both are kept by reference
  // and must outlive this object.
  WordExpansion(const Matrix<std::int32_t>& out_block, const Matrix<std::int32_t>& in_block);

  std::int64_t rows() const { return out_.nrows(); }  // out_block's
  std::int64_t cols() const { return out_.ncols(); }
  std::int64_t out_links() const { return out_.nnz(); }
  std::int64_t in_links() const { return in_.nnz(); }
  std::vector<std::int64_t> out_row_lengths() const;  // links in each row of out_block

  // frontier: rows() words; seen and next: cols() words. parents: null, or appended to.
  void push(std::span<const Word> frontier, std::span<const Word> seen, std::span<Word> next,
            std::vector<WordParentCandidate>* parents);
  // frontier: cols() words; seen and next: rows() words; active: the sources searching.
  void pull(std::span<const Word> frontier, std::span<const Word> seen, Word active, std::span<Word> next,
            std::vector<WordParentCandidate>* parents);

 private:
  const Matrix<std::int32_t>& out_;
  const Matrix<std::int32_t>& in_;
  device::Buffer<unsigned long long> frontier_, seen_, next_;
  device::Buffer<WordParentCandidate> candidates_;
  device::Buffer<unsigned long long> count_;  // candidates written, or that would have been
};

}  // namespace spgraph::gpu
