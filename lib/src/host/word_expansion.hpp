#pragma once
// One level of a bit-parallel BFS (one bit per source in a 64-bit word per vertex, as
// gpu/word_bfs.hpp) over a host CSR, in either direction, on the threads of the calling rank:
// the local step of the distributed WordBfs (dist/word_bfs.hpp), on a rank's block with its
// local ids.
//
//   push_words: block rows are the frontier side (u), columns the reached side (v), a link u -> v
//               per entry: next(v) |= frontier(u) & ~seen(v) for every u with frontier bits.
//   pull_words: block rows are the reached side (v), columns the frontier side (u), a link u -> v
//               per entry: next(v) = (OR of frontier(u) over v's row) & ~seen(v) & active, the
//               walk of a row cut short once every active source has reached v.
// next must be zero on entry (push) and is overwritten (pull). Parents, when asked for, come as
// one candidate a (v, source) pair found: in a pull, the first (smallest) u of v's row whose word
// has the bit; in a push, the u whose OR set the bit first (the smallest u on one thread).
#include <cstdint>
#include <span>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/types.hpp"
#include "spgraph/word_bfs_result.hpp"

namespace spgraph::host {

using Word = std::uint64_t;
using spgraph::WordParentCandidate;

// frontier: block.nrows words; seen and next: block.ncols words.
void push_words(const Csr<std::int32_t>& block, std::span<const Word> frontier, std::span<const Word> seen,
                std::span<Word> next, std::vector<WordParentCandidate>* parents);

// frontier: block.ncols words; seen and next: block.nrows words. active: the sources searching.
void pull_words(const Csr<std::int32_t>& block, std::span<const Word> frontier, std::span<const Word> seen, Word active,
                std::span<Word> next, std::vector<WordParentCandidate>* parents);

}  // namespace spgraph::host
