// The host word expansion (word_expansion.hpp): OpenMP threads over the block's rows; a push
// ORs into next with atomics, as rows of different threads reach the same v.
#include "host/word_expansion.hpp"

#include <atomic>
#include <bit>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::host {
namespace {

void check_sizes(const char* what, const Csr<std::int32_t>& block, std::size_t frontier, std::size_t frontier_want,
                 std::size_t seen, std::size_t next, std::size_t reached_want) {
  if (frontier != frontier_want || seen != reached_want || next != reached_want)
    throw Error(std::string(what) + ": a " + std::to_string(block.nrows) + " x " + std::to_string(block.ncols) +
                " block needs " + std::to_string(frontier_want) + " frontier words and " + std::to_string(reached_want) +
                " seen and next words; got " + std::to_string(frontier) + ", " + std::to_string(seen) + " and " +
                std::to_string(next));
}

// One candidate per bit of `bits`: u a parent of v for that source.
void add_candidates(std::vector<WordParentCandidate>& out, vid_t v, vid_t u, Word bits) {
  for (; bits; bits &= bits - 1) out.push_back({v, u, std::int32_t(std::countr_zero(bits))});
}

// body(row, candidates) for every row of the block on the OpenMP threads, each with its own
// candidates, appended to *parents at the end.
template <class Body>
void over_rows(const Csr<std::int32_t>& block, std::vector<WordParentCandidate>* parents, Body body) {
  const std::int64_t rows = block.nrows;
#pragma omp parallel
  {
    std::vector<WordParentCandidate> mine;
#pragma omp for schedule(dynamic, 512) nowait
    for (std::int64_t r = 0; r < rows; ++r) body(r, mine);
    if (parents && !mine.empty()) {
#pragma omp critical(spgraph_word_expansion_parents)
      parents->insert(parents->end(), mine.begin(), mine.end());
    }
  }
}

}  // namespace

void push_words(const Csr<std::int32_t>& block, std::span<const Word> frontier, std::span<const Word> seen,
                std::span<Word> next, std::vector<WordParentCandidate>* parents) {
  check_sizes("push_words", block, frontier.size(), std::size_t(block.nrows), seen.size(), next.size(),
              std::size_t(block.ncols));
  const eid_t* rowptr = block.rowptr.data();
  const vid_t* col = block.col.data();
  over_rows(block, parents, [&](std::int64_t u, std::vector<WordParentCandidate>& mine) {
    const Word f = frontier[std::size_t(u)];
    if (!f) return;
    for (eid_t p = rowptr[u]; p < rowptr[u + 1]; ++p) {
      const vid_t v = col[p];
      const Word add = f & ~seen[std::size_t(v)];
      if (!add) continue;
      std::atomic_ref<Word> slot(next[std::size_t(v)]);
      if ((slot.load(std::memory_order_relaxed) & add) == add) continue;  // every bit set already
      const Word first = add & ~slot.fetch_or(add, std::memory_order_relaxed);
      if (parents && first) add_candidates(mine, v, vid_t(u), first);
    }
  });
}

void pull_words(const Csr<std::int32_t>& block, std::span<const Word> frontier, std::span<const Word> seen, Word active,
                std::span<Word> next, std::vector<WordParentCandidate>* parents) {
  check_sizes("pull_words", block, frontier.size(), std::size_t(block.ncols), seen.size(), next.size(),
              std::size_t(block.nrows));
  const eid_t* rowptr = block.rowptr.data();
  const vid_t* col = block.col.data();
  over_rows(block, parents, [&](std::int64_t v, std::vector<WordParentCandidate>& mine) {
    const Word s = seen[std::size_t(v)];
    Word acc = 0;
    if ((s & active) != active)  // a source still searching has not reached v
      for (eid_t p = rowptr[v]; p < rowptr[v + 1]; ++p) {
        acc |= frontier[std::size_t(col[p])];
        if (((acc | s) & active) == active) break;
      }
    const Word fresh = acc & ~s & active;
    next[std::size_t(v)] = fresh;
    if (!parents || !fresh) return;
    Word left = fresh;  // the first u of the row with each bit
    for (eid_t p = rowptr[v]; left && p < rowptr[v + 1]; ++p) {
      const Word hit = frontier[std::size_t(col[p])] & left;
      if (!hit) continue;
      add_candidates(mine, vid_t(v), col[p], hit);
      left &= ~hit;
    }
  });
}

}  // namespace spgraph::host
