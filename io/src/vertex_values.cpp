#include "spgraph/io/vertex_values.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::io {
namespace {

// Vertices formatted by one thread into one string; a round formats as many blocks as there
// are threads, several times over, and writes them in order, so memory stays at a few MiB a
// thread whatever the graph.
constexpr vid_t kBlock = 1 << 16;
constexpr int kBlocksPerThread = 4;

template <class X>
void append_number(std::string& s, X x) {
  char buf[32];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

template <class T>
void format_block(std::string& s, const LoadedGraph& g, const std::vector<T>& values, vid_t first, vid_t last) {
  s.clear();
  for (vid_t v = first; v < last; ++v) {
    if (g.labels.empty()) append_number(s, static_cast<long long>(v) + g.id_base);
    else s += g.labels[v];
    s += '\t';
    append_number(s, values[v]);
    s += '\n';
  }
}

}  // namespace

template <class T>
void write_vertex_values(AtomicFile& out, const LoadedGraph& graph, const std::vector<T>& values) {
  const vid_t n = graph.matrix.nrows;
  if (values.size() != static_cast<std::size_t>(n))
    throw Error("cannot write " + std::to_string(values.size()) + " values for " + std::to_string(n) +
                " vertices to " + out.path());
  const int round_blocks = std::max(1, omp_get_max_threads()) * kBlocksPerThread;
  std::vector<std::string> text(static_cast<std::size_t>(round_blocks));
  for (vid_t start = 0; start < n; start += vid_t(round_blocks) * kBlock) {
    const int blocks = static_cast<int>(std::min<std::int64_t>(round_blocks, (std::int64_t(n) - start + kBlock - 1) / kBlock));
#pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0; b < blocks; ++b) {
      const vid_t first = start + vid_t(b) * kBlock;
      format_block(text[b], graph, values, first, std::min<vid_t>(n, first + kBlock));
    }
    for (int b = 0; b < blocks; ++b) out.write(text[b]);
  }
}

template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<float>&);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<double>&);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<std::int64_t>&);

}  // namespace spgraph::io
