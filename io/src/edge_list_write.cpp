#include <string>

#include "graph_write_checks.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/edge_list.hpp"
#include "text_writer.hpp"

namespace spgraph::io {

void write_edge_list(const std::string& path, const Csr<double>& a, const std::vector<vid_t>& ids, char separator) {
  a.validate(/*require_sorted=*/false);
  detail::require_square(path, a, "an edge list");
  if (!ids.empty() && ids.size() != static_cast<std::size_t>(a.nrows))
    throw Error("write_edge_list: " + std::to_string(ids.size()) + " ids for " + std::to_string(a.nrows) +
                " vertices");
  auto id = [&](vid_t v) { return ids.empty() ? v : ids[v]; };
  detail::require_finite_weights(path, a, [&](vid_t v) { return std::to_string(id(v)); });
  AtomicFile out(path);
  detail::TextWriter w(out, detail::ends_with_gz(path));
  w.entries(a, separator, [&](vid_t v) { w.number(id(v)); });
  w.finish();
  out.commit();
}

}  // namespace spgraph::io
