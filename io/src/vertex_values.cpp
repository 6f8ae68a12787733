#include "spgraph/io/vertex_values.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <type_traits>

#include "spgraph/error.hpp"

namespace spgraph::io {
namespace {

// Vertices formatted by one task into one string. The output goes in rounds of a few blocks a
// thread: while round k reaches the file, the other threads format round k + 1 into the other
// set of strings (double buffering), so memory stays at a few MiB a thread whatever the graph.
constexpr vid_t kBlock = 1 << 14;
constexpr int kBlocksPerThread = 2;

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

// The longest text of one value: to_chars' shortest round-trip form of a float or double is at
// most max_digits10 significant digits, a sign, a point and an exponent ("-2.2250738585072014e-308").
template <class T>
constexpr std::size_t max_value_chars() {
  if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::digits10 + 2;
  else return std::numeric_limits<T>::max_digits10 + 3 + (std::numeric_limits<T>::max_exponent10 >= 100 ? 4 : 3);
}

// No more than the bytes the whole output takes, for the mapping.
template <class T>
std::size_t output_bound(const LoadedGraph& g, vid_t n) {
  std::size_t names = 0;
  if (g.labels.empty()) {
    const long long widest = std::max(std::abs(static_cast<long long>(g.id_base)), std::abs(static_cast<long long>(n) + g.id_base));
    names = static_cast<std::size_t>(n) * (std::to_string(widest).size() + (g.id_base < 0) + 1);
  } else {
#pragma omp parallel for reduction(+ : names)
    for (vid_t v = 0; v < n; ++v) names += g.labels[v].size();
  }
  return names + static_cast<std::size_t>(n) * (max_value_chars<T>() + 2);
}

}  // namespace

template <class T>
void write_vertex_values(AtomicFile& out, const LoadedGraph& graph, const std::vector<T>& values, OutputMethod method) {
  const vid_t n = graph.matrix.nrows;
  if (values.size() != static_cast<std::size_t>(n))
    throw Error("cannot write " + std::to_string(values.size()) + " values for " + std::to_string(n) +
                " vertices to " + out.path());
  const int round_blocks = std::max(1, omp_get_max_threads()) * kBlocksPerThread;
  const std::int64_t round_vertices = std::int64_t(round_blocks) * kBlock;
  const std::int64_t rounds = (std::int64_t(n) + round_vertices - 1) / round_vertices;
  std::vector<std::string> text[2] = {std::vector<std::string>(round_blocks), std::vector<std::string>(round_blocks)};
  std::size_t capacity = 0, written = 0;
  AtomicFile::Mapped mapped;
  if (method == OutputMethod::mapped && n > 0) {
    capacity = output_bound<T>(graph, n);
    mapped = out.append_mapped(capacity);
    if (!mapped.data()) method = OutputMethod::write;  // the file system cannot: write
  }
  std::exception_ptr error;
  auto blocks_of = [&](std::int64_t round) {
    return static_cast<int>(std::min<std::int64_t>(round_blocks, (n - round * round_vertices + kBlock - 1) / kBlock));
  };

  // One thread queues the work: round k + 1's formatting, then round k's output (by write(2)
  // itself, or by copy tasks into the mapping), then waits for both.
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
        for (int b = 0; b < blocks; ++b) {
          if (method == OutputMethod::stdio) {
            out.write(strings[b]);
          } else if (method == OutputMethod::write) {
            out.write_unbuffered(strings[b]);
          } else {
            if (capacity - written < strings[b].size()) throw Error("output of " + out.path() + " above its bound");
            char* to = mapped.data() + written;
#pragma omp task firstprivate(b, to) shared(strings)
            std::memcpy(to, strings[b].data(), strings[b].size());
            written += strings[b].size();
          }
        }
      } catch (...) {
        error = std::current_exception();
      }
    }
#pragma omp taskwait
  }
  if (error) std::rethrow_exception(error);
  if (mapped.data()) out.end_mapped(mapped, written);
}

template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<float>&, OutputMethod);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<double>&, OutputMethod);
template void write_vertex_values(AtomicFile&, const LoadedGraph&, const std::vector<std::int64_t>&, OutputMethod);

}  // namespace spgraph::io
