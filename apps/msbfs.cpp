// msbfs: breadth-first search from many sources at once, on the GPU or with
// SuiteSparse:GraphBLAS on the CPU: each source's level of every vertex, and optionally a
// parent of each. Definition and method: algorithms/.../msbfs.hpp.
//
// Exit status: 0 done; 1 bad input (a malformed graph, a source that is not one of its
// vertices, --random K above its vertex count) or a failure; 2 bad flags.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "backend_option.hpp"
#include "input_options.hpp"
#include "positive_option.hpp"
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "start_and_load.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

using algorithms::BfsDirection;
using algorithms::kNoParent;
using algorithms::MsbfsBatch;
using algorithms::MsbfsOptions;
using algorithms::MsbfsSummary;

static_assert(sizeof(vid_t) == 4, "the binary output stores vertices as int32");

// The binary form (--binary), little-endian: a 32-byte header, then one record per source.
constexpr char kMagic[8] = {'S', 'P', 'G', 'B', 'F', 'S', '1', '\0'};
constexpr std::uint32_t kFlagParents = 1, kFlagInLinks = 2;

// Sources shown one line each up to this many; above it, their min/median/max.
constexpr std::size_t kListedSources = 16;

struct Flags {
  InputOptions input;
  BackendChoice backend = BackendChoice::Auto;
  MsbfsOptions search;
  std::vector<std::string> sources;
  std::string sources_file;
  std::int64_t random = 0;
  std::uint64_t seed = 1;
  bool in_links = false;
  std::string output;
  bool binary = false;
};

void declare(CLI::App& cli, Flags& f) {
  cli.description(
      "Breadth-first search from each of the given sources, many searched at once. The level of a vertex is the "
      "number of links on a shortest path from the source to it: the source 0, the vertices it links to 1, and "
      "so on; a vertex no path reaches has level -1. A parent of a reached vertex (--parents) is any vertex one "
      "level up with a link to it (a search may pick any such one); the source and unreached vertices have none. "
      "Row i of the matrix (Matrix Market) or line 'i j' (edge lists, .abc) is a link i -> j, followed from i to "
      "j; --in-links follows links backwards, --undirected both ways (an edge list whose header says 'Undirected "
      "graph', SNAP's, has its links both ways already). A symmetric (undirected) graph is searched the same "
      "either way. A graph without vertices is valid input but has no source to search from: any source is an "
      "error. "
      "Edge weights are ignored. Sources and results name vertices as the input does (Matrix Market: 1-based "
      "ids; edge lists: the file's ids; .abc: labels); a source may be given more than once. Prints the backend "
      "that ran, the graph, for each source the vertices reached (the source included) and the depth (the "
      "largest level; above 16 sources the min/median/max of both instead), the time to load, build (the graph "
      "on the backend, and the answers copied back), search and write, and the edges traversed per second of "
      "search (Graph500's count: the out-links, or with --in-links the in-links, of every vertex reached, summed "
      "over the sources). SPGRAPH_GPU_MEMORY_LIMIT (e.g. 8G) caps the GPU memory it takes.");
  add_input_options(cli, f.input);
  add_undirected_option(cli, f.input);
  auto* list = cli.add_option("--sources", f.sources,
                              "the sources, comma-separated or by repeating the flag (use --sources-file for "
                              "labels with commas)")
                   ->type_name("NAME,...")
                   ->delimiter(',')
                   ->expected(1)
                   ->allow_extra_args(false)  // one NAME,... per --sources, so the graph is not taken for one
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  auto* file = cli.add_option("--sources-file", f.sources_file,
                              "read the sources from FILE: names separated by blanks or newlines; lines starting "
                              "with '#' or '%' are comments")
                   ->type_name("FILE");
  auto* random = cli.add_option("--random", f.random,
                                "search from K distinct vertices drawn at random (std::mt19937_64 seeded by --seed; "
                                "the same K, seed and graph give the same sources in the same order); K above the "
                                "number of vertices is an error")
                     ->type_name("K")
                     ->check(greater_than_zero());
  list->excludes(file, random);
  file->excludes(random);
  cli.add_option("--seed", f.seed, "seed of --random's draw")->needs(random)->capture_default_str();
  cli.add_flag("--parents", f.search.parents,
               "also find a parent of every reached vertex (written to the -o FILE; without one only the time "
               "changes)");
  cli.add_flag("--in-links", f.in_links, "follow links backwards: from j to i for a link i -> j");
  cli.add_option("--batch", f.search.batch,
                 "sources searched at once (their levels take 4 bytes per vertex each, 8 with --parents, and are "
                 "written out batch by batch); on the GPU and under mpirun the search is bit-parallel, one bit per "
                 "source in a 64-bit word per vertex, and a larger batch runs 64 at a time")
      ->type_name("N")
      ->check(greater_than_zero())
      ->capture_default_str();
  add_backend_option(cli, f.backend);
  auto* output = cli.add_option("-o,--output", f.output,
                                "write every source's levels: for each source, in the order given, a line "
                                "'source<TAB>NAME', then one line 'vertex<TAB>level' per vertex in vertex order "
                                "(with --parents 'vertex<TAB>level<TAB>parent', '-' where there is none); "
                                "unreached vertices have level -1; the file appears only once complete")
                     ->type_name("FILE");
  cli.add_flag("--binary", f.binary,
               "write -o FILE in binary instead, little-endian: a 32-byte header (8 bytes \"SPGBFS1\\0\"; int64 n, "
               "the vertices; int64 k, the sources; uint32 flags, bit 0 parents present, bit 1 --in-links; uint32 "
               "0), then for each source in the order given: int32 the source, n int32 levels (-1 unreached), and "
               "with --parents n int32 parents (-1 none); vertices are 0-based: vertex i is the one on the (i+1)-th "
               "vertex line of a source in the text form")
      ->needs(output);
}

// ---- the sources

// The names of --sources or --sources-file, as given.
std::vector<std::string> source_names(const Flags& f) {
  if (f.sources_file.empty()) return f.sources;
  std::ifstream in(f.sources_file);
  if (!in) throw Error(f.sources_file + ": cannot open the sources file");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && (line[0] == '#' || line[0] == '%')) continue;
    std::size_t i = 0;
    while (true) {
      i = line.find_first_not_of(" \t\r", i);
      if (i == std::string::npos) break;
      const std::size_t end = std::min(line.find_first_of(" \t\r", i), line.size());
      names.push_back(line.substr(i, end - i));
      i = end;
    }
  }
  if (in.bad()) throw Error(f.sources_file + ": read failed");
  if (names.empty()) throw Error(f.sources_file + ": no sources in the file");
  return names;
}

// The vertices the names call, each named as LoadedGraph::vertex_name would; the first name
// that is none is an error naming it.
std::vector<vid_t> resolve(const std::vector<std::string>& names, const io::LoadedGraph& graph,
                           const std::string& path) {
  const vid_t n = graph.matrix.nrows;
  auto unknown = [&](const std::string& name) {
    std::string known = n == 0 ? "the graph is empty"
                               : "its vertices are " + graph.vertex_name(0) + " .. " + graph.vertex_name(n - 1);
    if (!graph.labels.empty() && n > 0) known = "its vertices are named by its " + std::to_string(n) + " labels";
    return Error("source '" + name + "' is not a vertex of " + path + " (" + known + ")");
  };
  std::vector<vid_t> vertices;
  vertices.reserve(names.size());
  if (graph.labels.empty()) {  // vertex i is called i + id_base
    for (const std::string& name : names) {
      long long id = 0;
      const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
      if (ec != std::errc() || end != name.data() + name.size() || name.empty() || id < graph.id_base ||
          id - graph.id_base >= n)
        throw unknown(name);
      vertices.push_back(static_cast<vid_t>(id - graph.id_base));
    }
    return vertices;
  }
  // One pass over the labels, holding only the names asked for.
  std::unordered_map<std::string_view, vid_t> wanted;
  for (const std::string& name : names) wanted.emplace(name, -1);
  for (vid_t v = 0; v < n; ++v)
    if (auto it = wanted.find(graph.labels[v]); it != wanted.end()) it->second = v;
  for (const std::string& name : names) {
    const vid_t v = wanted.at(name);
    if (v < 0) throw unknown(name);
    vertices.push_back(v);
  }
  return vertices;
}

// k distinct vertices of 0..n-1 by a partial Fisher-Yates shuffle; the bounded draws reject
// rather than take a modulus, so every vertex is equally likely and the result depends on the
// seed alone (not on the standard library's distributions).
std::vector<vid_t> random_sources(std::int64_t k, vid_t n, std::uint64_t seed, const std::string& path) {
  if (k > n)
    throw Error("--random " + std::to_string(k) + ": " + path +
                (n == 0 ? " has no vertices (the graph is empty)" : " has only " + std::to_string(n) + " vertices"));
  std::mt19937_64 rng(seed);
  auto below = [&](std::uint64_t bound) {  // uniform in [0, bound)
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do x = rng();
    while (x >= limit);
    return x % bound;
  };
  std::vector<vid_t> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), vid_t{0});
  for (std::int64_t i = 0; i < k; ++i)
    std::swap(all[i], all[i + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(n - i)))]);
  all.resize(static_cast<std::size_t>(k));
  return all;
}

// ---- the output file, written batch by batch

template <class T>
void append_le(std::string& out, T x) {
  const auto u = static_cast<std::make_unsigned_t<T>>(x);
  for (std::size_t b = 0; b < sizeof(T); ++b) out += static_cast<char>((u >> (8 * b)) & 0xff);
}

void write_int32s(io::AtomicFile& out, const std::int32_t* p, std::size_t count) {
  if constexpr (std::endian::native == std::endian::little) {
    out.write(std::string_view(reinterpret_cast<const char*>(p), count * sizeof(std::int32_t)));
  } else {
    std::string chunk;
    for (std::size_t i = 0; i < count; ++i) append_le(chunk, p[i]);
    out.write(chunk);
  }
}

class LevelWriter {
 public:
  LevelWriter(io::AtomicFile& out, const io::LoadedGraph& graph, const std::vector<vid_t>& sources,
              const Flags& f)
      : out_(out), graph_(graph), sources_(sources), binary_(f.binary) {
    if (!binary_) return;
    std::string header(kMagic, sizeof kMagic);
    append_le(header, static_cast<std::int64_t>(graph.matrix.nrows));
    append_le(header, static_cast<std::int64_t>(sources.size()));
    append_le(header, (f.search.parents ? kFlagParents : 0) | (f.in_links ? kFlagInLinks : 0));
    append_le(header, std::uint32_t{0});
    out_.write(header);
  }

  void write(const MsbfsBatch& b) {
    const std::size_t n = static_cast<std::size_t>(graph_.matrix.nrows);
    const bool parents = !b.parent.empty();
    for (std::size_t s = 0; s < b.count; ++s) {
      const vid_t source = sources_[b.first + s];
      const std::int32_t* level = b.level.data() + s * n;
      const vid_t* parent = parents ? b.parent.data() + s * n : nullptr;
      if (binary_) {
        write_int32s(out_, &source, 1);
        write_int32s(out_, level, n);
        if (parents) write_int32s(out_, parent, n);
        continue;
      }
      std::string chunk = "source\t" + graph_.vertex_name(source) + '\n';
      for (std::size_t v = 0; v < n; ++v) {
        chunk += graph_.vertex_name(static_cast<vid_t>(v));
        chunk += '\t';
        char buf[16];
        chunk.append(buf, std::to_chars(buf, buf + sizeof buf, level[v]).ptr);
        if (parents) {
          chunk += '\t';
          chunk += parent[v] == kNoParent ? std::string("-") : graph_.vertex_name(parent[v]);
        }
        chunk += '\n';
        if (chunk.size() > (1u << 20)) {
          out_.write(chunk);
          chunk.clear();
        }
      }
      out_.write(chunk);
    }
  }

 private:
  io::AtomicFile& out_;
  const io::LoadedGraph& graph_;
  const std::vector<vid_t>& sources_;
  bool binary_;
};

// ---- what is printed

template <class T>
std::string min_median_max(std::vector<T> x) {
  std::sort(x.begin(), x.end());
  return std::to_string(x.front()) + "/" + std::to_string(x[(x.size() - 1) / 2]) + "/" + std::to_string(x.back());
}

void print_sources(const io::LoadedGraph& graph, const std::vector<vid_t>& sources, const MsbfsSummary& r) {
  if (sources.size() <= kListedSources) {
    for (std::size_t s = 0; s < sources.size(); ++s)
      std::printf("source %s: reached %lld, depth %d\n", graph.vertex_name(sources[s]).c_str(),
                  static_cast<long long>(r.reached[s]), static_cast<int>(r.depth[s]));
    return;
  }
  std::printf("%zu sources: reached min/median/max %s, depth min/median/max %s\n", sources.size(),
              min_median_max(r.reached).c_str(), min_median_max(r.depth).c_str());
}

int msbfs_main(Command& cmd) {
  Flags f;
  declare(cmd.cli(), f);
  cmd.add_timings_option();
  cmd.parse();
  if (f.sources.empty() && f.sources_file.empty() && f.random == 0)
    throw UsageError("no sources: give --sources, --sources-file or --random");
  f.search.direction = f.in_links ? BfsDirection::In : BfsDirection::Out;

  std::optional<io::AtomicFile> out;  // opened first, so an unwritable path fails before the work
  if (!f.output.empty() && mpi_job().root()) out.emplace(f.output);  // rank 0 alone writes, under mpirun

  const StartedRun run = start_backend_and_load(cmd.name(), f.backend, f.input, "breadth-first search", cmd.timings());
  const SelectedBackend& backend = run.backend;
  const io::LoadedGraph& graph = run.graph;
  const double load_seconds = run.load_seconds;
  std::printf("graph: %s: %s\n", f.input.path.c_str(), describe(graph, f.input.undirected).c_str());
  const std::vector<vid_t> sources =
      f.random > 0 ? random_sources(f.random, graph.matrix.nrows, f.seed, f.input.path)
                   : resolve(source_names(f), graph, f.input.path);

  std::optional<LevelWriter> writer;
  if (out) writer.emplace(*out, graph, sources, f);
  double write_seconds = 0;
  algorithms::MsbfsSink sink;
  // Under mpirun every rank passes a sink where rank 0 writes: fetching a batch's answers is
  // collective, so all ranks must ask for them.
  if (writer || (out.has_value() != !f.output.empty()))
    sink = [&](const MsbfsBatch& b) {
      if (!writer) return;
      WallTimer timer;
      writer->write(b);
      write_seconds += timer.seconds();
    };
  WallTimer run_timer;
  const MsbfsSummary r =
      run_on(backend, [&] { return algorithms::msbfs(backend.backend, graph.matrix, sources, sink, f.search); });
  if (out) {
    WallTimer timer;
    out->commit();
    write_seconds += timer.seconds();
  }
  // The summary times the searches alone; the rest of the call, less the writing, is building
  // the graph on the backend and copying the answers back.
  const double build_seconds = std::max(0.0, run_timer.seconds() - r.seconds - write_seconds);
  cmd.timings().add(Phase::Build, build_seconds);
  cmd.timings().add(Phase::Compute, r.seconds);
  cmd.timings().add(Phase::Write, write_seconds);

  print_sources(graph, sources, r);
  std::string times = "time: load " + format_seconds(load_seconds) + ", build " + format_seconds(build_seconds) +
                      ", search " + format_seconds(r.seconds);
  if (out) times += ", write " + format_seconds(write_seconds);
  std::printf("%s (total %s)\n", times.c_str(),
              format_seconds(load_seconds + run_timer.seconds()).c_str());
  if (r.seconds > 0)
    std::printf("edges traversed: %lld, %.4g per second of search\n", static_cast<long long>(r.edges_traversed),
                static_cast<double>(r.edges_traversed) / r.seconds);
  else
    std::printf("edges traversed: %lld\n", static_cast<long long>(r.edges_traversed));
  if (out)
    std::printf("%s written to %s\n", f.search.parents ? "levels and parents" : "levels", f.output.c_str());
  return 0;
}

}  // namespace
}  // namespace spgraph::apps

int main(int argc, char** argv) { return spgraph::apps::run_app("msbfs", argc, argv, spgraph::apps::msbfs_main); }
