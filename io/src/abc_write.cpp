#include <string>
#include <string_view>
#include <vector>

#include "graph_write_checks.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "text_fields.hpp"
#include "text_writer.hpp"

namespace spgraph::io {
namespace {

// A label read_abc gives back unchanged: one field, not a comment.
void check_label(const std::string& path, std::string_view label) {
  std::string why;
  if (label.empty())
    why = "an empty label";
  else if (label.front() == '#')
    why = "the label " + detail::quote(label) + " starts with '#', which makes its lines comments";
  else if (label.find_first_of(" \t\r\n") != std::string_view::npos)
    why = "the label " + detail::quote(label) + " holds a blank or a line break, which separate the fields";
  if (!why.empty()) throw Error("cannot write " + path + " as .abc: " + why + " (.spgcsr keeps any label)");
}

}  // namespace

void write_abc(const std::string& path, const Csr<double>& a, const std::vector<std::string>& labels) {
  a.validate(/*require_sorted=*/false);
  detail::require_square(path, a, "an .abc file");
  if (labels.size() != static_cast<std::size_t>(a.nrows))
    throw Error("write_abc: " + std::to_string(labels.size()) + " labels for " + std::to_string(a.nrows) +
                " vertices");
  std::vector<char> linked(static_cast<std::size_t>(a.nrows), 0);  // the vertices written
  for (vid_t v = 0; v < a.nrows; ++v)
    if (a.row_length(v) > 0) linked[v] = 1;
  for (const vid_t c : a.col) linked[c] = 1;
  for (vid_t v = 0; v < a.nrows; ++v)
    if (linked[v]) check_label(path, labels[v]);
  detail::require_finite_weights(path, a, [&](vid_t v) { return detail::quote(labels[v]); });
  AtomicFile out(path);
  detail::TextWriter w(out, detail::ends_with_gz(path));
  w.entries(a, '\t', [&](vid_t v) { w.put(labels[v]); });
  w.finish();
  out.commit();
}

}  // namespace spgraph::io
