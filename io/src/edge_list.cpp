#include "spgraph/io/edge_list.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <unordered_map>

#include "edge_list_entries.hpp"
#include "entry_lines.hpp"
#include "host_memory.hpp"
#include "line_reader.hpp"
#include "parallel_text.hpp"
#include "text_fields.hpp"
#include "vertex_count.hpp"
#include "weight_check.hpp"

namespace spgraph::io {
namespace {

using detail::FieldCursor;
using detail::LineReader;

constexpr std::string_view kComments = "#%";
constexpr std::int64_t kIdLimit = std::numeric_limits<vid_t>::max();  // ids below 2^31-1

__attribute__((noinline)) std::string id_refusal(const FieldCursor at, const char* what) {
  if (at.at_end()) return std::string("missing ") + what + " vertex; expected 'source destination [weight]'";
  FieldCursor probe = at;
  std::int64_t x = 0;
  const std::errc ec = probe.number(x);
  if (ec == std::errc() && x < 0) return std::string("negative ") + what + " vertex id " + std::to_string(x);
  if (ec == std::errc::result_out_of_range || ec == std::errc())
    return std::string(what) + " vertex id " + at.peek_quoted() + " is too large (ids must be below 2147483647)";
  return std::string("expected a non-negative integer ") + what + " vertex id, found " + at.peek_quoted();
}

// The hot path: no strings are built unless the id is bad. `in` is the piece's TextChunk.
inline vid_t parse_id(FieldCursor& f, const detail::TextChunk& in, const char* what) {
  const FieldCursor at = f;
  std::int64_t x = 0;
  if (f.index(x) != std::errc() || x >= kIdLimit) in.fail(id_refusal(at, what));
  return static_cast<vid_t>(x);
}

// SNAP's header for an undirected graph, "# Undirected graph: <file>": SNAP stores each pair
// of such a graph once (com-*.ungraph.txt; email-Enron in ../shared/datasets/real), so read
// as stored it would be a directed graph of half the links. Any comment whose text starts with
// "undirected graph", in any case, counts; "# Directed graph (each unordered pair of nodes is
// saved once)", SNAP's header of some directed graphs, does not.
bool says_undirected(std::string_view comment) {
  constexpr std::string_view kHeader = "undirected graph";
  std::size_t i = comment.find_first_not_of(" \t#%");
  if (i == std::string_view::npos || comment.size() - i < kHeader.size()) return false;
  for (char c : kHeader)
    if (std::tolower(static_cast<unsigned char>(comment[i++])) != c) return false;
  return true;
}

}  // namespace

std::string detail::mixed_weights_refusal(int fields, long long first_edge_line) {
  return std::string(fields == 2 ? "this edge has a weight but" : "this edge has no weight but") +
         " the first edge (line " + std::to_string(first_edge_line) + ") " + (fields == 3 ? "has one" : "has none") +
         "; either every edge has a weight or none has";
}

std::string detail::vertex_count_reason(vid_t largest, eid_t edges) {
  return detail::vertex_count_refusal("the largest vertex id, " + std::to_string(largest) + ", makes", largest + 1,
                                      edges,
                                      "use --compact-ids to number the vertices 0..n-1 by first appearance, or "
                                      "--trust-vertex-count to allocate them all");
}

std::string detail::duplicate_edge_reason(const std::string& source, const std::string& destination,
                                          long long first_line) {
  return "duplicate edge " + source + " -> " + destination + ", first given at line " + std::to_string(first_line) +
         " (--duplicates sum, max or first combines repeats)";
}

void detail::parse_edges(detail::TextChunk& lines, EdgePart& part, bool require_nonnegative) {
  std::string_view line;
  while (lines.next(line)) {
    if (detail::is_blank_or_comment(line, kComments)) {
      if (part.fields == 0 && !part.says_undirected) part.says_undirected = says_undirected(line);
      continue;
    }
    FieldCursor f(line, /*allow_comma=*/true);
    const vid_t s = parse_id(f, lines, "source");
    const vid_t d = parse_id(f, lines, "destination");
    const int n = f.at_end() ? 2 : 3;
    if (part.fields == 0) {
      part.fields = n;
      part.first_edge_line = lines.line_number();
    } else if (n != part.fields) {
      part.mixed_weights = true;  // the message needs the file's first edge line: merge writes it
      lines.fail("");
    }
    if (n == 3) {
      const FieldCursor at = f;
      double w = 0;
      if (f.number(w) != std::errc()) lines.fail("weight " + at.peek_quoted() + " is not a number");
      detail::check_finite(w, at, lines);
      if (!f.at_end()) lines.fail("unexpected text after the weight: " + detail::quote(f.rest()));
      if (require_nonnegative) detail::check_weight(w, lines);
      part.val.push_back(w);
    }
    part.row.push_back(s);
    part.col.push_back(d);
    part.largest = std::max({part.largest, s, d});
  }
}

namespace {

// File ids to vertices 0..n-1 in order of first appearance (--compact-ids).
class CompactIds {
 public:
  vid_t operator()(vid_t file_id) {
    auto [it, inserted] = index_.try_emplace(file_id, static_cast<vid_t>(original_.size()));
    if (inserted) original_.push_back(file_id);
    return it->second;
  }
  vid_t count() const { return static_cast<vid_t>(original_.size()); }
  std::vector<vid_t>& original() { return original_; }

 private:
  std::unordered_map<vid_t, vid_t> index_;
  std::vector<vid_t> original_;
};

}  // namespace

EdgeList read_edge_list(const std::string& path, const EdgeListOptions& options) {
  LineReader in(path);
  Coo<double> coo;
  vid_t largest = -1;
  int fields = 0;  // 2 or 3, fixed by the file's first edge line
  long long first_edge_line = 0;
  bool undirected = false;  // the header (the comments before the first edge) says so
  auto check = [&](const detail::Piece<detail::EdgePart>& piece, long long first_line) {
    const detail::EdgePart& p = piece.part;
    if (fields == 0 && p.says_undirected) undirected = true;
    if (fields == 0 && p.fields != 0) {
      fields = p.fields;
      first_edge_line = first_line - 1 + p.first_edge_line;
    } else if (p.fields != 0 && p.fields != fields) {  // the piece's first edge is unlike the file's
      throw ParseError(path, first_line - 1 + p.first_edge_line, detail::mixed_weights_refusal(fields, first_edge_line));
    }
    if (p.mixed_weights)
      throw ParseError(path, first_line - 1 + piece.failure->line,
                       detail::mixed_weights_refusal(fields, first_edge_line));
    largest = std::max(largest, p.largest);
  };
  auto parse = [&](detail::TextChunk& lines, detail::EdgePart& part) {
    detail::parse_edges(lines, part, options.require_nonnegative_weights);
  };
  detail::parse_in_parallel<detail::EdgePart>(in, coo, parse, check);

  // Compacting numbers the vertices by first appearance: in file order, after the merge.
  CompactIds ids;
  if (options.compact_ids)
    for (std::size_t k = 0; k < coo.row.size(); ++k) {
      coo.row[k] = ids(coo.row[k]);
      coo.col[k] = ids(coo.col[k]);
    }
  const vid_t vertices = options.compact_ids ? ids.count() : largest + 1;
  coo.nrows = coo.ncols = vertices;
  if (!options.compact_ids && !options.trust_vertex_count && !detail::vertex_count_justified(vertices, coo.nnz()))
    throw ParseError(path, 0, detail::vertex_count_reason(largest, coo.nnz()));

  EdgeList out;
  const bool valued = !coo.val.empty();
  const eid_t entries = coo.nnz();
  try {
    out.matrix = detail::allocating(path, detail::csr_bytes(vertices, entries, valued),
                                    detail::csr_arrays(vertices, entries),
                                    [&] { return coo_to_csr(std::move(coo), options.duplicates); });
  } catch (const DuplicateEntryError& e) {
    const auto lines = detail::lines_of_duplicate(path, kComments, e);
    const auto file_id = [&](vid_t v) { return std::to_string(options.compact_ids ? ids.original()[v] : v); };
    throw ParseError(path, lines.second, detail::duplicate_edge_reason(file_id(e.row), file_id(e.col), lines.first));
  }
  if (undirected && options.mirror_undirected) {
    // A pair the file gives both ways is one edge: mirroring merges the two, keeping the larger
    // weight (as spgraph-convert --symmetrize does). The transpose is built on the way.
    const eid_t stored = out.matrix.nnz();
    out.matrix = detail::allocating(
        path, detail::csr_bytes(vertices, 2 * stored, valued) + detail::csr_bytes(vertices, stored, valued),
        "mirroring the links the header calls undirected: " + detail::csr_arrays(vertices, 2 * stored) +
            " and the transpose",
        [&] { return symmetrize(out.matrix, Duplicates::Max); });
    out.mirrored = true;
  }
  out.original_ids = std::move(ids.original());
  return out;
}

}  // namespace spgraph::io
