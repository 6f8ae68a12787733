#include "spgraph/io/abc.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

#include "entry_lines.hpp"
#include "host_memory.hpp"
#include "line_reader.hpp"
#include "text_fields.hpp"
#include "weight_check.hpp"

namespace spgraph::io {
namespace {

using detail::FieldCursor;
using detail::LineReader;

constexpr std::string_view kComments = "#";

// Hashing string_views directly lets a lookup of an already-seen label allocate nothing.
struct LabelHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Labels {
 public:
  vid_t operator()(std::string_view label, const LineReader& in) {
    if (auto it = index_.find(label); it != index_.end()) return it->second;
    if (labels_.size() >= static_cast<std::size_t>(std::numeric_limits<vid_t>::max()))
      in.fail("more than 2147483646 distinct labels");
    const auto v = static_cast<vid_t>(labels_.size());
    labels_.emplace_back(label);
    index_.emplace(labels_.back(), v);
    return v;
  }
  std::vector<std::string>& all() { return labels_; }

 private:
  std::vector<std::string> labels_;
  std::unordered_map<std::string, vid_t, LabelHash, std::equal_to<>> index_;
};

}  // namespace

LabeledGraph read_abc(const std::string& path, const AbcOptions& options) {
  LineReader in(path);
  Labels labels;
  Coo<double> coo;
  bool weighted = false;  // values are kept (1 where missing) and dropped if no line had one
  std::string_view line;
  // The entries' arrays grow by doubling as lines come: a failed growth is named by the room
  // it asked for (the labels' small strings are most likely not what failed).
  const auto growing = [&] {
    const std::uint64_t room = 2 * std::max<std::size_t>(coo.row.capacity(), 1);
    detail::allocating(path, room * (2 * sizeof(vid_t) + sizeof(double)),
                       std::to_string(room) + " entries, reading line " + std::to_string(in.line_number()),
                       [&] { coo.row.reserve(room), coo.col.reserve(room), coo.val.reserve(room); });
  };
  while (in.next(line)) {
    if (detail::is_blank_or_comment(line, kComments)) continue;
    FieldCursor f(line);
    const std::string_view a = f.token();
    if (f.at_end()) in.fail("expected 'label1 label2 [weight]'; found only " + detail::quote(a));
    const std::string_view b = f.token();
    double w = 1.0;
    if (!f.at_end()) {
      const FieldCursor at = f;
      if (f.number(w) != std::errc()) in.fail("weight " + at.peek_quoted() + " is not a number");
      detail::check_finite(w, at, in);
      if (options.require_nonnegative_weights) detail::check_weight(w, in);
      if (!f.at_end())
        in.fail("expected 'label1 label2 [weight]'; found more fields: " + detail::quote(f.rest()));
      weighted = true;
    }
    if (coo.row.size() == coo.row.capacity()) growing();
    coo.row.push_back(labels(a, in));
    coo.col.push_back(labels(b, in));
    coo.val.push_back(w);
  }
  coo.nrows = coo.ncols = static_cast<vid_t>(labels.all().size());
  if (!weighted) std::vector<double>().swap(coo.val);

  LabeledGraph out;
  const std::uint64_t csr_bytes = detail::csr_bytes(coo.nrows, coo.nnz(), weighted);
  const std::string csr_arrays = detail::csr_arrays(coo.nrows, coo.nnz());
  try {
    out.matrix =
        detail::allocating(path, csr_bytes, csr_arrays, [&] { return coo_to_csr(std::move(coo), options.duplicates); });
  } catch (const DuplicateEntryError& e) {
    const auto lines = detail::lines_of_duplicate(path, kComments, e);
    throw ParseError(path, lines.second,
                     "duplicate edge " + detail::quote(labels.all()[e.row]) + " -> " + detail::quote(labels.all()[e.col]) +
                         ", first given at line " + std::to_string(lines.first) +
                         " (mcl keeps the larger weight: --duplicates max does too)");
  }
  out.labels = std::move(labels.all());
  return out;
}

}  // namespace spgraph::io
