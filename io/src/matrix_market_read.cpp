// Matrix Market readers: the coordinate (sparse) reader behind load_graph, and the dense one
// for vectors.
#include <algorithm>
#include <string>

#include "entry_lines.hpp"
#include "host_memory.hpp"
#include "matrix_market_entries.hpp"
#include "matrix_market_header.hpp"
#include "parallel_text.hpp"
#include "vertex_count.hpp"
#include "weight_check.hpp"

namespace spgraph::io {
namespace {

using detail::FieldCursor;
using detail::LineReader;

__attribute__((noinline)) std::string index_refusal(const FieldCursor at, vid_t n, const char* what) {
  if (at.at_end()) return std::string("missing ") + what + " index";
  FieldCursor probe = at;
  std::int64_t x = 0;
  if (probe.number(x) != std::errc()) return std::string("expected a ") + what + " index, found " + at.peek_quoted();
  return std::string(what) + " index " + std::to_string(x) + " out of range 1.." + std::to_string(n);
}

// The hot path: no strings are built unless the index is bad. `Lines` is the LineReader or a
// TextChunk (parallel_text.hpp): whichever names the line.
template <class Lines>
inline vid_t parse_index(FieldCursor& f, const Lines& in, vid_t n, const char* what) {
  std::int64_t x = 0;
  const FieldCursor at = f;
  if (f.index(x) != std::errc() || x < 1 || x > n) in.fail(index_refusal(at, n, what));
  return static_cast<vid_t>(x - 1);
}

// Entry lines start with a digit; anything else must be blank or a comment.
inline bool skippable(std::string_view line) {
  return (line.empty() || line[0] < '0' || line[0] > '9') && detail::is_blank_or_comment(line, "%");
}

// Deflate's largest ratio is about 1032:1 (a 258-byte match in under 2 bits): the text of a
// gzip file is at most this many times the file's size.
constexpr std::uint64_t kMaxGzipRatio = 1032;

// Refuses a size line that claims more entries than the rest of the file can hold, before
// anything is allocated for them: an uncompressed file by its remaining bytes, a compressed
// one by the most text its size could inflate to (a declared count that no .gz of that size
// could hold, such as 10^12 entries in 1 MB, fails here instead of after reading it all).
// `min_line` is the shortest entry line, newline included; the last line may lack its newline.
void check_declared_count(const LineReader& in, eid_t declared, std::uint64_t min_line) {
  const auto refuse = [&](const std::string& text_bound, std::uint64_t room) {
    if (static_cast<std::uint64_t>(declared) > room)
      in.fail("the size line declares " + std::to_string(declared) + " entries, but " + text_bound +
              " can hold at most " + std::to_string(room));
  };
  if (in.remaining_known())
    refuse("the remaining " + std::to_string(in.remaining_bytes()) + " bytes of the file",
           (in.remaining_bytes() + 1) / min_line);
  else if (in.compressed() && in.file_size() > 0)
    refuse("a gzip file of " + std::to_string(in.file_size()) + " bytes (at most " + std::to_string(kMaxGzipRatio) +
               " times that as text)",
           (in.file_size() * kMaxGzipRatio + 1) / min_line);
}

// Capacity to reserve: the declared count when the file size vouches for it; for compressed
// input a guess bounded by the compressed size, after which the vectors grow as needed.
eid_t initial_capacity(const LineReader& in, eid_t declared) {
  if (in.remaining_known()) return declared;
  return std::min<eid_t>(declared, static_cast<eid_t>(in.file_size()));
}

}  // namespace

std::string detail::count_refusal(eid_t seen, eid_t declared, const char* what) {
  if (seen < declared)
    return "file ends after " + std::to_string(seen) + " of the " + std::to_string(declared) + " " + what +
           " the size line declares";
  return "more " + std::string(what) + " than the " + std::to_string(declared) + " the size line declares";
}

namespace {

[[noreturn]] void fail_count(const LineReader& in, eid_t seen, eid_t declared, const char* what) {
  in.fail(detail::count_refusal(seen, declared, what));
}

struct Entry {
  vid_t i, j;  // 0-based
  double v;
};

// One entry line (not blank, not a comment), checked.
template <class Lines>
inline Entry parse_entry(std::string_view line, const Lines& in, const MatrixMarketHeader& h,
                         const detail::MmValueRule& rule) {
  FieldCursor f(line);
  const vid_t i = parse_index(f, in, h.nrows, "row");
  const vid_t j = parse_index(f, in, h.ncols, "column");
  const double v = rule.parse(f, in);
  if (!f.at_end()) in.fail("unexpected text after the entry: " + detail::quote(f.rest()));
  if (h.symmetry == MmSymmetry::SkewSymmetric && i == j)
    in.fail("diagonal entry (" + std::to_string(i + 1) + ", " + std::to_string(i + 1) +
            ") in a skew-symmetric matrix (its diagonal is zero and must not be stored)");
  return {i, j, v};
}

// Calls sink(row, col, value, line) (0-based ids) for every entry line, in file order, until
// it returns false. Serial: for the error path of duplicate_error.
template <class Sink>
void read_coordinate_entries(LineReader& in, const MatrixMarketHeader& h, Sink&& sink) {
  const detail::MmValueRule rule(h);
  eid_t k = 0;
  std::string_view line;
  while (in.next(line)) {
    if (skippable(line)) continue;
    if (k == h.stored_entries) fail_count(in, k + 1, h.stored_entries, "entries");
    const Entry e = parse_entry(line, in, h, rule);
    ++k;
    if (!sink(e.i, e.j, e.v, in.line_number())) return;
  }
  if (k != h.stored_entries) fail_count(in, k, h.stored_entries, "entries");
}

// coo_to_csr reports a repeat by its positions in the Coo; reading the file again (only on
// this error path) turns them into line numbers, so the normal path stores no line table.
ParseError duplicate_error(const std::string& path, const DuplicateEntryError& e) {
  detail::EntryOrigin first, second;
  LineReader in(path);
  const MatrixMarketHeader h = detail::parse_matrix_market_header(in);
  const bool mirrored = h.symmetry != MmSymmetry::General;
  eid_t pos = 0;
  auto note = [&](long long line, bool mirror) {
    if (pos == e.first_position) first = {line, mirror};
    if (pos == e.second_position) second = {line, mirror};
    ++pos;
  };
  read_coordinate_entries(in, h, [&](vid_t i, vid_t j, double, long long line) {
    note(line, false);
    if (mirrored && i != j) note(line, true);
    return pos <= e.second_position;
  });
  return ParseError(path, second.line, detail::duplicate_entry_reason(e.row, e.col, first, second));
}

}  // namespace

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  LineReader in(path);
  return detail::parse_matrix_market_header(in);
}

void detail::check_before_entries(const LineReader& in, const MatrixMarketHeader& h,
                                  const MatrixMarketOptions& options) {
  if (h.format == MmFormat::Array)
    throw ParseError(in.path(), 1, "dense 'array' files are not supported as graphs (a graph must be 'coordinate')");
  check_declared_count(in, h.stored_entries, h.field != MmField::Pattern ? 6 : 4);  // "1 1 1\n", "1 1\n"
  const vid_t vertices = std::max(h.nrows, h.ncols);
  if (!options.trust_vertex_count && !detail::vertex_count_justified(vertices, h.stored_entries))
    in.fail(detail::vertex_count_refusal(
        "the size line declares " + std::to_string(h.nrows) + " x " + std::to_string(h.ncols) + ", that is",
        vertices, h.stored_entries,
        "pass --trust-vertex-count if the matrix really is this sparse"));
}

detail::MmEntryParser::MmEntryParser(const MatrixMarketHeader& header, bool require_nonnegative_weights)
    : h(header),
      rule(header),
      valued(header.field != MmField::Pattern),
      mirrored(header.symmetry != MmSymmetry::General),
      check_weights(valued && require_nonnegative_weights),
      mirror_sign(header.symmetry == MmSymmetry::SkewSymmetric ? -1.0 : 1.0) {}

void detail::MmEntryParser::operator()(TextChunk& lines, MmEntryPart& part) const {
  std::string_view line;
  while (lines.next(line)) {
    if (skippable(line)) continue;
    const auto [i, j, v] = parse_entry(line, lines, h, rule);
    if (check_weights) {
      detail::check_weight(v, lines);
      if (mirrored && i != j && !detail::acceptable_weight(mirror_sign * v))
        lines.fail(detail::weight_refusal(mirror_sign * v, " of the skew-symmetric mirror (" + std::to_string(j + 1) +
                                                               ", " + std::to_string(i + 1) + ") of this entry"));
    }
    ++part.entries;
    part.row.push_back(i);
    part.col.push_back(j);
    if (valued) part.val.push_back(v);
    if (mirrored && i != j) {
      part.row.push_back(j);
      part.col.push_back(i);
      if (valued) part.val.push_back(mirror_sign * v);
    }
  }
}

std::string detail::duplicate_entry_reason(vid_t row, vid_t col, EntryOrigin first, EntryOrigin second) {
  const std::string r = std::to_string(row + 1), c = std::to_string(col + 1);
  const std::string as_mirror = " (through symmetry, as the mirror of (" + c + ", " + r + "))";
  return "duplicate entry (" + r + ", " + c + ") (1-based)" + (second.mirror ? as_mirror : "") +
         ", first given at line " + std::to_string(first.line) + (first.mirror ? as_mirror : "") +
         "; Matrix Market files list each entry once (--duplicates sum, max or first combines repeats)";
}

MatrixMarketMatrix read_matrix_market(const std::string& path, const MatrixMarketOptions& options) {
  LineReader in(path);
  MatrixMarketMatrix out;
  const MatrixMarketHeader& h = out.header = detail::parse_matrix_market_header(in);
  detail::check_before_entries(in, h, options);
  const bool valued = h.field != MmField::Pattern;
  const bool mirrored = h.symmetry != MmSymmetry::General;

  Coo<double> coo;
  coo.nrows = h.nrows;
  coo.ncols = h.ncols;
  const auto capacity = static_cast<std::size_t>(initial_capacity(in, h.stored_entries) * (mirrored ? 2 : 1));
  detail::allocating(path, capacity * (valued ? 16 : 8),
                     std::to_string(capacity) + (mirrored ? " entries (the size line's and their mirrors)" : " entries"),
                     [&] {
                       coo.row.reserve(capacity);
                       coo.col.reserve(capacity);
                       if (valued) coo.val.reserve(capacity);
                     });
  const detail::MmEntryParser parse(h, options.require_nonnegative_weights);
  eid_t seen = 0;  // entry lines merged
  auto check = [&](const detail::Piece<detail::MmEntryPart>& piece, long long first_line) {
    // The serial reader counts an entry line before parsing it: a failing line counts too.
    const eid_t here = piece.part.entries + (piece.failure ? 1 : 0);
    if (seen + here > h.stored_entries)
      throw ParseError(path, first_line - 1 + detail::nth_entry_line(piece.text, h.stored_entries - seen + 1, "%"),
                       detail::count_refusal(seen + here, h.stored_entries, "entries"));
    seen += piece.part.entries;
  };
  detail::parse_in_parallel<detail::MmEntryPart>(in, coo, parse, check);
  if (seen != h.stored_entries) fail_count(in, seen, h.stored_entries, "entries");
  const std::uint64_t csr_bytes = detail::csr_bytes(coo.nrows, coo.nnz(), valued);
  const std::string csr_arrays = detail::csr_arrays(coo.nrows, coo.nnz());
  try {
    out.matrix = detail::allocating(path, csr_bytes, csr_arrays,
                                    [&] { return coo_to_csr(std::move(coo), options.duplicates); });
  } catch (const DuplicateEntryError& e) {
    throw duplicate_error(path, e);
  }
  return out;
}

MatrixMarketDense read_matrix_market_dense(const std::string& path) {
  LineReader in(path);
  MatrixMarketDense out;
  const MatrixMarketHeader& h = out.header = detail::parse_matrix_market_header(in);
  if (h.format != MmFormat::Array)
    throw ParseError(path, 1, "expected a dense 'array' file, found 'coordinate'");
  if (h.symmetry != MmSymmetry::General)
    throw ParseError(path, 1, "only 'general' dense files are supported, not " + std::string(to_string(h.symmetry)));
  check_declared_count(in, h.stored_entries, 2);  // "1\n"
  out.values.reserve(static_cast<std::size_t>(initial_capacity(in, h.stored_entries)));
  const detail::MmValueRule rule(h, "value");
  std::string_view line;
  while (in.next(line)) {
    if (detail::is_blank_or_comment(line, "%")) continue;
    if (static_cast<eid_t>(out.values.size()) == h.stored_entries)
      fail_count(in, h.stored_entries + 1, h.stored_entries, "values");
    FieldCursor f(line);
    out.values.push_back(rule.parse(f, in));
    if (!f.at_end()) in.fail("unexpected text after the value: " + detail::quote(f.rest()));
  }
  if (static_cast<eid_t>(out.values.size()) != h.stored_entries)
    fail_count(in, static_cast<eid_t>(out.values.size()), h.stored_entries, "values");
  return out;
}

}  // namespace spgraph::io
