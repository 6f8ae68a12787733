#pragma once
// Parsing the rest of a text file on every core while keeping the serial reader's results
// and errors: the text comes in blocks of whole lines, each block is cut at line ends into
// one piece per thread, the pieces are parsed at the same time into parts of their own, and
// the parts are merged in file order. Merging in order is what keeps the serial behaviour:
// entries are concatenated as the file lists them, and the first failing piece's error is
// thrown only after every piece before it was merged (whose lines give its line number, and
// whose merge may find an earlier error of its own, such as one entry too many).
// OMP_NUM_THREADS (omp_get_max_threads) sets the threads; small inputs use one piece.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <string_view>
#include <vector>

#include "line_reader.hpp"
#include "text_chunk.hpp"

namespace spgraph::io::detail {

// A block is this many bytes a thread: big enough that a round's fork and join are noise,
// small enough to stay in the caches' reach and to bound a round's parts.
inline constexpr std::size_t kPieceBytes = std::size_t{4} << 20;
// Below this, a piece is not worth a thread of its own.
inline constexpr std::size_t kMinPieceBytes = std::size_t{256} << 10;

// A cache line apart: each thread appends to its own part's vectors without sharing a line.
template <class Part>
struct alignas(64) Piece {
  std::string_view text;
  Part part;
  long long lines = 0;                   // lines in text (when it parsed whole)
  std::optional<ChunkFailure> failure;   // the first failing line of the piece
  std::exception_ptr other;              // anything else thrown (out of memory, ...)
};

// Cuts `block` (whole lines) into at most `count` pieces of about equal size at line ends.
inline std::vector<std::string_view> cut_at_lines(std::string_view block, std::size_t count) {
  std::vector<std::string_view> pieces;
  std::size_t begin = 0;
  for (std::size_t k = 1; k <= count && begin < block.size(); ++k) {
    std::size_t end = block.size();
    if (k < count) {
      const std::size_t target = std::max(begin, block.size() * k / count);
      const void* nl = std::memchr(block.data() + target, '\n', block.size() - target);
      end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - block.data()) + 1 : block.size();
    }
    if (end > begin) pieces.push_back(block.substr(begin, end - begin));
    begin = end;
  }
  return pieces;
}

// Calls parse(TextChunk&, Part&) for each piece on its own thread (after Part::clear()),
// then merge(Piece<Part>&, first_line) for each in file order,
// first_line being the file line of the piece's first line. After merge, a piece's failure
// is thrown as ParseError "FILE:LINE: reason".
template <class Part, class Parse, class Merge>
void parse_in_parallel(LineReader& in, Parse&& parse, Merge&& merge) {
  const auto threads = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  std::vector<Piece<Part>> pieces(threads);
  for (;;) {
    const std::string_view block = in.next_block(threads * kPieceBytes);
    if (block.empty()) return;
    const auto texts = cut_at_lines(block, std::clamp<std::size_t>(block.size() / kMinPieceBytes, 1, threads));
    const auto n = static_cast<int>(texts.size());
#pragma omp parallel for num_threads(n) schedule(static, 1) if (n > 1)
    for (int t = 0; t < n; ++t) {
      Piece<Part>& p = pieces[static_cast<std::size_t>(t)];
      p.text = texts[static_cast<std::size_t>(t)];
      p.failure.reset();
      p.other = nullptr;
      try {
        p.part.clear();
        TextChunk lines(p.text);
        parse(lines, p.part);
        p.lines = lines.line_number();
      } catch (ChunkFailure& f) {
        p.failure = std::move(f);
      } catch (...) {
        p.other = std::current_exception();
      }
    }
    for (int t = 0; t < n; ++t) {
      Piece<Part>& p = pieces[static_cast<std::size_t>(t)];
      if (p.other) std::rethrow_exception(p.other);
      const long long first_line = in.line_number() + 1;
      merge(p, first_line);
      if (p.failure) throw ParseError(in.path(), first_line - 1 + p.failure->line, p.failure->reason);
      in.count_lines(p.lines);
    }
  }
}

}  // namespace spgraph::io::detail
