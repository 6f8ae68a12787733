#include "spgraph/io/edge_list.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "entry_lines.hpp"
#include "line_reader.hpp"
#include "text_fields.hpp"
#include "vertex_count.hpp"
#include "weight_check.hpp"

namespace spgraph::io {
namespace {

using detail::FieldCursor;
using detail::LineReader;

constexpr std::string_view kComments = "#%";
constexpr std::int64_t kIdLimit = std::numeric_limits<vid_t>::max();  // ids below 2^31-1

[[noreturn]] __attribute__((noinline)) void fail_id(const FieldCursor at, const LineReader& in, const char* what) {
  if (at.at_end()) in.fail(std::string("missing ") + what + " vertex; expected 'source destination [weight]'");
  FieldCursor probe = at;
  std::int64_t x = 0;
  const std::errc ec = probe.number(x);
  if (ec == std::errc() && x < 0) in.fail(std::string("negative ") + what + " vertex id " + std::to_string(x));
  if (ec == std::errc::result_out_of_range || ec == std::errc())
    in.fail(std::string(what) + " vertex id " + at.peek_quoted() +
            " is too large (ids must be below 2147483647)");
  in.fail(std::string("expected a non-negative integer ") + what + " vertex id, found " + at.peek_quoted());
}

// The hot path: no strings are built unless the id is bad.
inline vid_t parse_id(FieldCursor& f, const LineReader& in, const char* what) {
  const FieldCursor at = f;
  std::int64_t x = 0;
  if (f.index(x) != std::errc() || x >= kIdLimit) fail_id(at, in, what);
  return static_cast<vid_t>(x);
}

// File ids to vertices: the ids themselves, or 0..n-1 in order of first appearance.
class VertexIds {
 public:
  explicit VertexIds(bool compact) : compact_(compact) {}
  vid_t operator()(vid_t file_id) {
    if (!compact_) {
      largest_ = std::max(largest_, file_id);
      return file_id;
    }
    auto [it, inserted] = index_.try_emplace(file_id, static_cast<vid_t>(original_.size()));
    if (inserted) original_.push_back(file_id);
    return it->second;
  }
  vid_t count() const { return compact_ ? static_cast<vid_t>(original_.size()) : largest_ + 1; }
  std::vector<vid_t>& original() { return original_; }

 private:
  bool compact_;
  vid_t largest_ = -1;
  std::unordered_map<vid_t, vid_t> index_;
  std::vector<vid_t> original_;
};

}  // namespace

EdgeList read_edge_list(const std::string& path, const EdgeListOptions& options) {
  LineReader in(path);
  VertexIds ids(options.compact_ids);
  Coo<double> coo;
  int fields = 0;  // 2 or 3, fixed by the first edge line
  long long first_edge_line = 0;
  std::string_view line;
  while (in.next(line)) {
    if (detail::is_blank_or_comment(line, kComments)) continue;
    FieldCursor f(line, /*allow_comma=*/true);
    const vid_t s = parse_id(f, in, "source");
    const vid_t d = parse_id(f, in, "destination");
    const int n = f.at_end() ? 2 : 3;
    if (fields == 0) {
      fields = n;
      first_edge_line = in.line_number();
    } else if (n != fields) {
      in.fail(std::string(n == 3 ? "this edge has a weight but" : "this edge has no weight but") + " the first edge (line " +
              std::to_string(first_edge_line) + ") " + (fields == 3 ? "has one" : "has none") +
              "; either every edge has a weight or none has");
    }
    if (n == 3) {
      const FieldCursor at = f;
      double w = 0;
      if (f.number(w) != std::errc()) in.fail("weight " + at.peek_quoted() + " is not a number");
      detail::check_finite(w, at, in);
      if (!f.at_end()) in.fail("unexpected text after the weight: " + detail::quote(f.rest()));
      if (options.require_nonnegative_weights) detail::check_weight(w, in);
      coo.val.push_back(w);
    }
    coo.row.push_back(ids(s));
    coo.col.push_back(ids(d));
  }
  coo.nrows = coo.ncols = ids.count();
  if (!options.compact_ids && !options.trust_vertex_count && !detail::vertex_count_justified(ids.count(), coo.nnz()))
    throw ParseError(path, 0,
                     detail::vertex_count_refusal(
                         "the largest vertex id, " + std::to_string(ids.count() - 1) + ", makes", ids.count(),
                         coo.nnz(),
                         "use --compact-ids (EdgeListOptions::compact_ids) to number the vertices 0..n-1 by first "
                         "appearance, or --trust-vertex-count (trust_vertex_count) to allocate them all"));

  EdgeList out;
  try {
    out.matrix = coo_to_csr(std::move(coo), options.duplicates);
  } catch (const DuplicateEntryError& e) {
    const auto lines = detail::lines_of_duplicate(path, kComments, e);
    const auto file_id = [&](vid_t v) { return std::to_string(options.compact_ids ? ids.original()[v] : v); };
    throw ParseError(path, lines.second,
                     "duplicate edge " + file_id(e.row) + " -> " + file_id(e.col) + ", first given at line " +
                         std::to_string(lines.first) +
                         " (choose a duplicates policy of sum, max or first to combine repeats)");
  }
  out.original_ids = std::move(ids.original());
  return out;
}

}  // namespace spgraph::io
