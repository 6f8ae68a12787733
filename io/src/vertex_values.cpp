#include "spgraph/io/vertex_values.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <exception>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::io {
namespace {

// Vertices formatted by one task into one string. The output goes in rounds of a few blocks a
// thread: while round k reaches the file, the other threads format round k + 1 into the other
// set of strings (double buffering), so memory stays at a few MiB a thread whatever the graph.
// Small blocks keep the threads even at each round's end; at least kMinRoundBlocks a round
// keeps the rounds, and their waits, few where there are few threads.
constexpr vid_t kBlock = 1 << 13;
constexpr int kBlocksPerThread = 4;
constexpr int kMinRoundBlocks = 32;

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
  const int round_blocks = std::max(kMinRoundBlocks, omp_get_max_threads() * kBlocksPerThread);
  const std::int64_t round_vertices = std::int64_t(round_blocks) * kBlock;
  const std::int64_t rounds = (std::int64_t(n) + round_vertices - 1) / round_vertices;
  std::vector<std::string> text[2] = {std::vector<std::string>(round_blocks), std::vector<std::string>(round_blocks)};
  std::exception_ptr error;
  auto blocks_of = [&](std::int64_t round) {
    return static_cast<int>(std::min<std::int64_t>(round_blocks, (n - round * round_vertices + kBlock - 1) / kBlock));
  };

  // One thread queues round k + 1's formatting as tasks, writes round k meanwhile, then waits
  // for the tasks (and runs them with the others). Errors cannot leave the parallel region:
  // the first is kept and thrown after it.
#pragma omp parallel
#pragma omp single
  for (std::int64_t round = 0; round <= rounds && !error; ++round) {
    if (round < rounds) {
      auto& strings = text[round & 1];
      for (int b = 0, blocks = blocks_of(round); b < blocks; ++b) {
        const vid_t first = static_cast<vid_t>(round * round_vertices + std::int64_t(b) * kBlock);
#pragma omp task firstprivate(b, first) shared(strings)
        format_block(strings[b], graph, values, first, std::min<vid_t>(n, first + kBlock));
      }
    }
    if (round > 0) {
      const auto& strings = text[(round - 1) & 1];
      const int blocks = blocks_of(round - 1);
      try {
        for (int b = 0; b < blocks; ++b) out.write(strings[b]);
      } catch (...) {
        error = std::current_exception();
      }
    }
#pragma omp taskwait
  }
  if (error) std::rethrow_exception(error);
}

template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<float>&);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<double>&);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<std::int64_t>&);

}  // namespace spgraph::io
