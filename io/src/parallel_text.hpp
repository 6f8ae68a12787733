#pragma once
// Parsing the rest of a text file on every core while keeping the serial reader's results
// and errors: the text comes in blocks of whole lines, each block is cut at line ends into
// one piece per thread, the pieces are parsed at the same time into parts of their own, and
// the parts are merged in file order. Merging in order is what keeps the serial behaviour:
// entries are concatenated as the file lists them, and the first failing piece's error is
// thrown only after every piece before it was merged (whose lines give its line number, and
// whose merge may find an earlier error of its own, such as one entry too many).
// The merge has two steps so that only bookkeeping is serial: the checks that must run in
// order (counts, the first edge's weight column) look at the parts' sizes on the calling
// thread, then every thread copies its own part into its slice of the result at once.
// OMP_NUM_THREADS (omp_get_max_threads) sets the threads; small inputs use one piece.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "host_memory.hpp"
#include "line_reader.hpp"
#include "spgraph/coo.hpp"
#include "text_chunk.hpp"

namespace spgraph::io::detail {

// A block is this many bytes a thread: big enough that a round's fork and join are noise,
// small enough to stay in the caches' reach and to bound a round's parts.
inline constexpr std::size_t kPieceBytes = std::size_t{4} << 20;
// Below this, a piece is not worth a thread of its own.
inline constexpr std::size_t kMinPieceBytes = std::size_t{256} << 10;

// The threads parse_in_parallel parses on (OMP_NUM_THREADS), and the text it asks its source
// for at a time: a block of kPieceBytes a thread.
inline std::size_t parse_threads() { return static_cast<std::size_t>(std::max(1, omp_get_max_threads())); }
inline std::size_t parse_block_bytes() { return parse_threads() * kPieceBytes; }

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

// Sets `out`'s size for a block's parts (a prefix sum of their sizes) and returns where each
// part's entries go, [k] for row and col, [n + 1 + k] for val. When `out` must grow, it is
// reserved for the whole file at the rate of entries a byte seen so far (a plain file's size
// is known), not doubled block after block. A failed allocation is an Error naming the file
// and the bytes (host_memory.hpp).
template <class Part, class T, class Source>
std::vector<std::size_t> make_room(Coo<T>& out, std::span<const Piece<Part>> pieces, const Source& in) {
  const std::size_t n = pieces.size();
  std::vector<std::size_t> at(2 * (n + 1));
  at[0] = out.row.size(), at[n + 1] = out.val.size();
  for (std::size_t k = 0; k < n; ++k) {
    at[k + 1] = at[k] + pieces[k].part.row.size();
    at[n + 2 + k] = at[n + 1 + k] + pieces[k].part.val.size();
  }
  // The capacity each array needs: a compressed file's arrays double, as std::vector's would.
  const auto room = [&](const auto& v, std::size_t size) {
    if (size <= v.capacity()) return v.capacity();
    if (!in.remaining_known()) return std::max(size, 2 * v.capacity());
    const double read = static_cast<double>(in.file_size() - in.remaining_bytes());
    const double whole = static_cast<double>(size) * static_cast<double>(in.file_size()) / std::max(read, 1.0);
    return std::max(size, static_cast<std::size_t>(whole * 1.1));
  };
  const std::size_t entries = room(out.row, at[n]), values = at[2 * n + 1] ? room(out.val, at[2 * n + 1]) : 0;
  const auto bytes = static_cast<std::uint64_t>(entries * 2 * sizeof(out.row[0]) + values * sizeof(T));
  allocating(in.path(), bytes, std::to_string(entries) + " entries as read", [&] {
    out.row.reserve(entries), out.col.reserve(entries), out.val.reserve(values);
    out.row.resize(at[n]), out.col.resize(at[n]), out.val.resize(at[2 * n + 1]);
  });
  return at;
}

// Calls parse(TextChunk&, Part&) for each piece on its own thread (after Part::clear() and
// Part::reserve(piece bytes)), then check(Piece<Part>&, first_line) for each in file order on
// the calling thread, first_line being the file line of the piece's first line; after check, a
// piece's failure is thrown as ParseError "FILE:LINE: reason". Once the whole block passed,
// its parts' entries (Part::row, col, val) are appended to `out`'s: the room is made here,
// and each thread copies its part of block k while it parses its piece of block k + 1 (two
// sets of parts take turns), so that a block costs one fork and join. `in` is the LineReader of a
// file, or a TextRange (text_range.hpp): one rank's share of a file, numbered as in the file.
template <class Part, class T, class Source, class Parse, class Check>
void parse_in_parallel(Source& in, Coo<T>& out, Parse&& parse, Check&& check) {
  const std::size_t threads = parse_threads();
  std::vector<Piece<Part>> sets(2 * threads);
  std::span<Piece<Part>> done;        // the last block's parts, checked, to copy
  std::vector<std::size_t> done_at;   // where they go (make_room)
  for (int round = 0;; ++round) {
    const std::string_view block = in.next_block(parse_block_bytes());
    const auto texts = cut_at_lines(block, std::clamp<std::size_t>(block.size() / kMinPieceBytes, 1, threads));
    const auto n = static_cast<int>(texts.size());
    const std::span<Piece<Part>> pieces(sets.data() + (round % 2) * threads, texts.size());
    const int d = static_cast<int>(done.size()), workers = std::max({n, d, 1});
#pragma omp parallel for num_threads(workers) schedule(static, 1) if (workers > 1)
    for (int t = 0; t < workers; ++t) {
      if (t < d) {
        const Part& part = done[static_cast<std::size_t>(t)].part;
        const std::size_t k = static_cast<std::size_t>(t), val_at = done_at[static_cast<std::size_t>(d) + 1 + k];
        std::copy(part.row.begin(), part.row.end(), out.row.begin() + static_cast<std::ptrdiff_t>(done_at[k]));
        std::copy(part.col.begin(), part.col.end(), out.col.begin() + static_cast<std::ptrdiff_t>(done_at[k]));
        std::copy(part.val.begin(), part.val.end(), out.val.begin() + static_cast<std::ptrdiff_t>(val_at));
      }
      if (t >= n) continue;
      Piece<Part>& p = pieces[static_cast<std::size_t>(t)];
      p.text = texts[static_cast<std::size_t>(t)];
      p.failure.reset();
      p.other = nullptr;
      try {
        p.part.clear();
        p.part.reserve(p.text.size() + p.text.size() / 8);  // slack: the next pieces fit too
        TextChunk lines(p.text);
        parse(lines, p.part);
        p.lines = lines.line_number();
      } catch (ChunkFailure& f) {
        p.failure = std::move(f);
      } catch (...) {
        p.other = std::current_exception();
      }
    }
    if (n == 0) return;
    for (Piece<Part>& p : pieces) {
      if (p.other) std::rethrow_exception(p.other);
      const long long first_line = in.line_number() + 1;
      check(p, first_line);
      if (p.failure) throw ParseError(in.path(), first_line - 1 + p.failure->line, p.failure->reason);
      in.count_lines(p.lines);
    }
    done = pieces;
    done_at = make_room(out, std::span<const Piece<Part>>(pieces), in);
  }
}

}  // namespace spgraph::io::detail
