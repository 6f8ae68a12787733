// Multi-source BFS (spgraph/algorithms/msbfs.hpp) on the GPU against three other ways of getting
// the same answers, on the same graphs and the same sources, in one run:
//
//   gpu-msbfs        ours: k sources, --batch at once (Graph<GpuBackend> built once per input), in
//                    --form: auto (the bit-parallel words) or matrix (the frontier matrix)
//   gpu-single       ours, one source at a time: msbfs called k times with a single source
//   graphblas-msbfs  the same algorithm on the GraphBLAS backend (SuiteSparse, every host core)
//   boost-bfs        Boost.Graph's breadth_first_search from each source (one host thread)
//
// For each input and each k of --sources-counts the sources are the first k of one sequence drawn
// by std::mt19937_64(--seed), without replacement, among the vertices with a link to another
// vertex (so no search is trivial); every contender gets the same ones. gpu-msbfs: one checked
// run (its peak device memory above the built graph), --warmup untimed runs, the median of
// --repeats runs of summary.seconds (CUDA events, by the algorithm). gpu-single: each source the
// same way, the medians summed. graphblas-msbfs: one untimed single-source run per input, then
// the median of --graphblas-repeats runs. boost-bfs: one run per source, the times summed. The
// slow contenders run a prefix of the k sources (--single-max, --graphblas-max-sources,
// --boost-max; 64 each by default) and their time is scaled to k, which the table says; a
// prefix measured once serves every k it is the prefix of. Every contender's reached count and
// depth per source is checked against ours; exit status 1 when one differs, a run failed or an
// input could not be completed.
//
//   bench_msbfs [graph files] [--data-dir DIR] [--generated wb-edu,cit-patents | --no-generated]
//               [--sources-counts 1,64,512,4096] [--seed 1] [--batch 64] [--form auto|matrix]
//               [--warmup 1] [--repeats 5] [--single-max 64] [--graphblas-repeats 1]
//               [--graphblas-max-sources 64 | --no-graphblas] [--boost-max 64 | --no-boost] [--json FILE]
#include <omp.h>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/two_bit_color_map.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "gpu_timer.hpp"
#include "json_output.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "table.hpp"
#include "timed_runs.hpp"

namespace {

using namespace spgraph;
using algorithms::MsbfsOptions;
using algorithms::MsbfsSummary;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr const char* kOurs = "gpu-msbfs";
constexpr const char* kSingle = "gpu-single";
constexpr const char* kGraphBlas = "graphblas-msbfs";
constexpr const char* kBoost = "boost-bfs";

// The targets of the issue: GraphBLAS on the H200 machine's 16 cores, and ours 100x faster.
struct Target {
  const char* input;
  std::size_t sources;
  const char* contender;  // whose time is held to the aim
  double graphblas_s;     // measured there
  const char* measured;   // what GraphBLAS ran
};
constexpr double kTargetRatio = 100;
constexpr Target kTargets[] = {{"wb-edu-like", 64, kOurs, 6.19, "64 sources"},
                               {"wb-edu-like", 512, kOurs, 20.9, "512 sources"},
                               {"cit-patents-like", 64, kOurs, 5.48, "64 sources"},
                               {"wb-edu-like", 64, kSingle, 7.14, "64 single-source runs"}};
// ... and k sources at once at least 20x faster than k runs of our single-source BFS.
constexpr double kBatchRatio = 20;
constexpr std::size_t kBatchRatioSources = 64;
constexpr const char* kBatchRatioInputs[] = {"wb-edu-like", "cit-patents-like"};

struct Options {
  bench::InputOptions inputs;
  std::vector<int> counts = {1, 64, 512, 4096};
  std::uint64_t seed = 1;
  int batch = 64;
  algorithms::MsbfsForm form = algorithms::MsbfsForm::Auto;  // GraphBLAS has only the matrix form
  bench::TimingOptions timing;  // gpu-msbfs and gpu-single: warm-up and repeats
  int single_max = 64;
  int graphblas_repeats = 1;  // 0: no GraphBLAS
  int graphblas_max = 64;
  int boost_max = 64;  // 0: no Boost
  std::string json_path;
};

// One contender's searches from a prefix of the sources: per source its reached count and depth,
// and in all the edges traversed and the time.
struct Measured {
  std::size_t sources = 0;
  std::string status = "ok";  // ok, "failed: ...", "wrong: ..."
  std::vector<std::int64_t> reached;
  std::vector<std::int32_t> depth;
  std::int64_t edges = 0;
  double median_s = kNaN, min_s = kNaN;
  double wall_median_s = kNaN;   // the call(s) as the host waits for them
  std::optional<std::size_t> peak_bytes;  // GPU: above the built graph, during the checked run
  bool timed() const { return !std::isnan(median_s); }
};

// Every run must give the first run's reached counts and depths.
std::string differs(const MsbfsSummary& got, const MsbfsSummary& first, int run) {
  if (got.reached == first.reached && got.depth == first.depth) return "";
  return "wrong: run " + std::to_string(run) + " reached or depth differ from the first run's";
}

// One checked run (peak device memory on the GPU), `warmup` untimed runs, the median of
// `repeats` runs of summary.seconds.
template <class B>
Measured time_msbfs(Graph<B>& g, const std::vector<vid_t>& sources, const MsbfsOptions& options, int warmup,
                    int repeats, bool gpu) {
  Measured m;
  m.sources = sources.size();
  try {
    const auto t = bench::timed_runs([&] { return algorithms::msbfs(g, sources, {}, options); },
                                     [](const MsbfsSummary& r) { return r.seconds; }, differs, warmup, repeats, gpu);
    m.reached = t.first.reached;
    m.depth = t.first.depth;
    m.edges = t.first.edges_traversed;
    m.peak_bytes = t.peak_bytes;
    m.status = t.status;
    if (t.status == "ok") {
      m.median_s = t.median_s;
      m.min_s = t.min_s;
      m.wall_median_s = t.wall_median_s;
    }
  } catch (const std::exception& e) {
    m.status = bench::failure(e);
  }
  return m;
}

// A contender that searches one source at a time: each source measured once, on demand, and any
// prefix summed from them.
class PerSource {
 public:
  using MeasureOne = std::function<Measured(vid_t)>;
  PerSource(const std::vector<vid_t>& sources, MeasureOne measure) : sources_(&sources), measure_(std::move(measure)) {}

  Measured prefix(std::size_t count) {
    while (done_.size() < count) done_.push_back(measure_((*sources_)[done_.size()]));
    Measured sum;
    sum.sources = count;
    sum.median_s = sum.min_s = sum.wall_median_s = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Measured& one = done_[i];
      if (one.status != "ok" && sum.status == "ok") sum.status = one.status + " (source #" + std::to_string(i) + ")";
      sum.reached.insert(sum.reached.end(), one.reached.begin(), one.reached.end());
      sum.depth.insert(sum.depth.end(), one.depth.begin(), one.depth.end());
      sum.edges += one.edges;
      sum.median_s += one.median_s;
      sum.min_s += one.min_s;
      sum.wall_median_s += one.wall_median_s;
      if (one.peak_bytes) sum.peak_bytes = std::max(sum.peak_bytes.value_or(0), *one.peak_bytes);
    }
    return sum;
  }

 private:
  const std::vector<vid_t>* sources_;
  MeasureOne measure_;
  std::vector<Measured> done_;
};

// Boost.Graph on the input's links (row i: vertex i's out-links), in its CSR form.
using BoostGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                      boost::no_property, std::uint32_t, std::uint64_t>;

// The links of a Csr in row order, as the (source, target) pairs Boost's sorted-edge constructor
// reads.
class CsrEdges {
 public:
  using Edge = std::pair<std::uint32_t, std::uint32_t>;
  CsrEdges(const Csr<double>& g, eid_t p) : g_(&g), p_(p) { settle(); }
  const Edge* operator->() const { return &edge_; }
  const Edge& operator*() const { return edge_; }
  CsrEdges& operator++() {
    ++p_;
    settle();
    return *this;
  }
  bool operator!=(const CsrEdges& o) const { return p_ != o.p_; }

 private:
  void settle() {
    if (p_ >= g_->nnz()) return;
    while (g_->rowptr[u_ + 1] <= p_) ++u_;
    edge_ = {static_cast<std::uint32_t>(u_), static_cast<std::uint32_t>(g_->col[p_])};
  }
  const Csr<double>* g_;
  eid_t p_;
  vid_t u_ = 0;
  Edge edge_;
};

class BoostBfs {
 public:
  explicit BoostBfs(const Csr<double>& host)
      : host_(&host),
        graph_(boost::edges_are_sorted, CsrEdges(host, 0), CsrEdges(host, host.nnz()),
               static_cast<std::uint32_t>(host.nrows), static_cast<std::uint64_t>(host.nnz())),
        level_(static_cast<std::size_t>(host.nrows)),
        colors_(static_cast<std::size_t>(host.nrows), get(boost::vertex_index, graph_)) {}

  // One search, timed by the host's clock from the levels' reset to the end of the search.
  Measured search(vid_t source) {
    Measured m;
    m.sources = 1;
    const auto start = Clock::now();
    std::fill(level_.begin(), level_.end(), algorithms::kUnreached);
    level_[static_cast<std::size_t>(source)] = 0;
    boost::breadth_first_search(graph_, static_cast<std::uint32_t>(source),
                                boost::visitor(Recorder{level_.data()}).color_map(colors_));
    m.median_s = m.min_s = m.wall_median_s = since(start);
    std::int64_t reached = 0;
    std::int32_t depth = 0;
    for (vid_t v = 0; v < host_->nrows; ++v)
      if (level_[static_cast<std::size_t>(v)] != algorithms::kUnreached) {
        ++reached;
        depth = std::max(depth, level_[static_cast<std::size_t>(v)]);
        m.edges += host_->row_length(v);  // the same count as ours: out-degrees of the reached
      }
    m.reached = {reached};
    m.depth = {depth};
    return m;
  }

 private:
  struct Recorder : boost::default_bfs_visitor {
    std::int32_t* level;
    explicit Recorder(std::int32_t* l) : level(l) {}
    template <class Edge, class G>
    void tree_edge(Edge e, const G& g) const {
      level[boost::target(e, g)] = level[boost::source(e, g)] + 1;
    }
  };
  const Csr<double>* host_;
  BoostGraph graph_;
  std::vector<std::int32_t> level_;
  boost::two_bit_color_map<boost::property_map<BoostGraph, boost::vertex_index_t>::const_type> colors_;
};

// The sources: `count` vertices drawn by mt19937_64(seed) without replacement (a partial
// Fisher-Yates shuffle; the draw is the same with every standard library) among those with a
// link to another vertex, repeating from the start where the graph has fewer. Sets `pool_size`.
std::vector<vid_t> draw_sources(const Csr<double>& g, std::size_t count, std::uint64_t seed, std::size_t& pool_size) {
  std::vector<vid_t> pool;
  for (vid_t v = 0; v < g.nrows; ++v)
    for (eid_t p = g.rowptr[v]; p < g.rowptr[v + 1]; ++p)
      if (g.col[p] != v) {
        pool.push_back(v);
        break;
      }
  pool_size = pool.size();
  if (pool.empty()) throw Error("no vertex has a link to another vertex: no source to draw");
  std::mt19937_64 rng(seed);
  const std::size_t distinct = std::min(count, pool.size());
  std::vector<vid_t> sources;
  sources.reserve(count);
  for (std::size_t i = 0; i < distinct; ++i) {
    std::swap(pool[i], pool[i + static_cast<std::size_t>(rng() % (pool.size() - i))]);
    sources.push_back(pool[i]);
  }
  for (std::size_t i = distinct; i < count; ++i) sources.push_back(sources[i % distinct]);
  return sources;
}

// One contender at one k: measured on the first `m.sources` of the k sources.
struct Row {
  std::string contender;
  std::size_t k = 0;
  Measured m;
  double vs_ours = kNaN;  // this time over ours at the same k
  double scale() const { return static_cast<double>(k) / static_cast<double>(m.sources); }
  bool scaled() const { return m.sources != k; }
  double time_s() const { return m.median_s * scale(); }
  double wall_s() const { return m.wall_median_s * scale(); }
  double teps() const { return static_cast<double>(m.edges) / m.median_s; }
  bool good() const { return m.status == "ok" && m.timed(); }
};

struct InputResult {
  std::string name, source;
  vid_t vertices = 0;
  eid_t links = 0;
  std::size_t source_pool = 0;  // vertices with a link to another vertex
  std::vector<vid_t> sources;   // the longest list; each k takes its first k
  std::vector<Row> rows;
  const Row* row(const std::string& contender, std::size_t k) const {
    for (const auto& r : rows)
      if (r.contender == contender && r.k == k) return &r;
    return nullptr;
  }
};

// Ours, per source: the first successful gpu-msbfs run that covered it. Every row is checked
// against it (the other gpu-msbfs rows too); returns whether the row differs.
class Reference {
 public:
  explicit Reference(std::size_t sources) : reached_(sources, -1), depth_(sources, -1) {}

  bool check(Row& r, const std::vector<vid_t>& sources, bool ours) {
    if (r.m.status != "ok") return false;
    for (std::size_t i = 0; i < r.m.reached.size(); ++i) {
      if (reached_[i] < 0 && ours) {
        reached_[i] = r.m.reached[i];
        depth_[i] = r.m.depth[i];
        continue;
      }
      if (reached_[i] < 0) {
        r.m.status = "unchecked: no result of ours for source #" + std::to_string(i);
        return true;
      }
      if (r.m.reached[i] != reached_[i] || r.m.depth[i] != depth_[i]) {
        r.m.status = "wrong: source #" + std::to_string(i) + " (vertex " + std::to_string(sources[i]) + ") reached " +
                     std::to_string(r.m.reached[i]) + " at depth " + std::to_string(r.m.depth[i]) + ", ours " +
                     std::to_string(reached_[i]) + " at depth " + std::to_string(depth_[i]);
        return true;
      }
    }
    return false;
  }

 private:
  std::vector<std::int64_t> reached_;
  std::vector<std::int32_t> depth_;
};

std::string ms(double s) { return bench::fixed(s * 1e3, 3); }

const std::map<std::string, algorithms::MsbfsForm> kForms = {{"auto", algorithms::MsbfsForm::Auto},
                                                             {"matrix", algorithms::MsbfsForm::Matrix}};
std::string form_name(algorithms::MsbfsForm form) {
  for (const auto& [name, f] : kForms)
    if (f == form) return name;
  return "?";
}

std::string sources_run(const Row& r) {
  if (!r.scaled()) return std::to_string(r.k);
  return std::to_string(r.m.sources) + " of " + std::to_string(r.k) + ", scaled x" + bench::fixed(r.scale(), 1);
}

InputResult bench_input(const bench::BenchInput& host_input, const Options& options, std::ostream& out, bool& bad) {
  const Csr<double>& host = host_input.graph;
  InputResult in;
  in.name = host_input.name;
  in.source = host_input.source;
  in.vertices = host.nrows;
  in.links = host.nnz();
  std::vector<std::size_t> counts(options.counts.begin(), options.counts.end());
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  in.sources = draw_sources(host, counts.back(), options.seed, in.source_pool);
  out << "sources: the first k of " << counts.back() << " drawn among " << in.source_pool
      << " vertices with a link to another vertex"
      << (in.source_pool < counts.back() ? " (fewer than that: the list repeats)" : "") << '\n'
      << std::flush;
  auto first = [&](std::size_t k) { return std::vector<vid_t>(in.sources.begin(), in.sources.begin() + k); };
  Reference reference(in.sources.size());
  MsbfsOptions msbfs_options;
  msbfs_options.batch = options.batch;
  msbfs_options.form = options.form;
  auto add = [&](const std::string& contender, std::size_t k, Measured m) {
    Row r{contender, k, std::move(m)};
    bad |= reference.check(r, in.sources, contender == kOurs) || r.m.status != "ok";
    in.rows.push_back(std::move(r));
  };
  auto add_failure = [&](const char* contender, const std::exception& e) {
    Measured failed;
    failed.sources = 1;
    failed.status = bench::failure(e);
    add(contender, counts.front(), failed);
  };
  // How many of the first k sources a contender limited to `most` runs.
  auto prefix = [](std::size_t k, int most) { return std::min(k, static_cast<std::size_t>(most)); };

  {  // ours, at once and one source at a time, on one device graph
    Graph<gpu::GpuBackend> g(host);
    // Both forms' structures, built before the checked runs so that their peak is the search's.
    g.pattern<std::int32_t>();
    g.in_links<std::int32_t>();
    for (std::size_t k : counts)
      add(kOurs, k, time_msbfs(g, first(k), msbfs_options, options.timing.warmup, options.timing.repeats, true));
    MsbfsOptions one = msbfs_options;
    one.batch = 1;
    PerSource single(in.sources, [&](vid_t s) {
      return time_msbfs(g, {s}, one, options.timing.warmup, options.timing.repeats, true);
    });
    for (std::size_t k : counts)
      add(kSingle, k, single.prefix(prefix(k, options.single_max)));
  }

  if (options.graphblas_repeats > 0) {
    std::map<std::size_t, Measured> done;  // by prefix length
    try {
      Graph<graphblas::GraphBlasBackend> cpu(host);
      algorithms::msbfs(cpu, first(1), {}, msbfs_options);  // untimed: the structure and threads start
      for (std::size_t k : counts) {
        const std::size_t m = prefix(k, options.graphblas_max);
        if (!done.count(m)) done[m] = time_msbfs(cpu, first(m), msbfs_options, 0, options.graphblas_repeats, false);
        add(kGraphBlas, k, done[m]);
      }
    } catch (const std::exception& e) {
      add_failure(kGraphBlas, e);
    }
  }

  if (options.boost_max > 0) {
    try {
      const auto start = Clock::now();
      BoostBfs boost_bfs(host);
      out << "boost: compressed_sparse_row_graph built in "
          << bench::fixed(since(start), 2) << " s\n"
          << std::flush;
      PerSource per_source(in.sources, [&](vid_t s) { return boost_bfs.search(s); });
      for (std::size_t k : counts)
        add(kBoost, k, per_source.prefix(prefix(k, options.boost_max)));
    } catch (const std::exception& e) {
      add_failure(kBoost, e);
    }
  }

  std::stable_sort(in.rows.begin(), in.rows.end(), [](const Row& a, const Row& b) { return a.k < b.k; });
  for (auto& r : in.rows)
    if (const Row* ours = in.row(kOurs, r.k); ours && ours->good() && r.good()) r.vs_ours = r.time_s() / ours->time_s();
  return in;
}

void print_rows(const InputResult& in, std::ostream& out) {
  bench::Table table({"input", "k", "contender", "sources run", "ms", "wall ms", "G TEPS", "time / ours", "peak MiB",
                      "mean reached", "max depth", "check"});
  std::size_t last_k = 0;
  for (const auto& r : in.rows) {
    if (r.k != last_k && !table.empty()) table.add_gap();
    std::vector<std::string> cells = {r.k != last_k ? in.name : "", std::to_string(r.k), r.contender, sources_run(r)};
    last_k = r.k;
    if (r.m.timed()) {
      cells.insert(cells.end(), {ms(r.time_s()), ms(r.wall_s()), bench::fixed(r.teps() / 1e9, 3),
                                 bench::times(r.vs_ours),
                                 r.m.peak_bytes ? bench::fixed(*r.m.peak_bytes / double(1 << 20), 1) : "-"});
    } else {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-"});
    }
    if (!r.m.reached.empty()) {
      double sum = 0;
      for (auto x : r.m.reached) sum += static_cast<double>(x);
      cells.push_back(bench::count(std::llround(sum / static_cast<double>(r.m.reached.size()))));
      cells.push_back(std::to_string(*std::max_element(r.m.depth.begin(), r.m.depth.end())));
    } else {
      cells.insert(cells.end(), {"-", "-"});
    }
    cells.push_back(r.m.status);
    table.add_row(cells);
  }
  table.print(out);
}

json row_json(const Row& r) {
  json j = {{"contender", r.contender}, {"sources", r.k}, {"sources_run", r.m.sources},
            {"scaled", r.scaled()},     {"status", r.m.status}};
  if (r.m.timed()) {
    j.update({{"seconds", r.time_s()},
              {"wall_seconds", r.wall_s()},
              {"measured_median_s", r.m.median_s},
              {"measured_min_s", r.m.min_s},
              {"edges_traversed", r.m.edges},
              {"traversed_edges_per_s", r.teps()}});
    if (!std::isnan(r.vs_ours)) j["time_over_ours"] = r.vs_ours;
  }
  if (r.m.peak_bytes) j["peak_device_bytes"] = *r.m.peak_bytes;
  if (!r.m.reached.empty()) j.update({{"reached", r.m.reached}, {"depth", r.m.depth}});
  return j;
}

json input_json(const InputResult& in) {
  json rows = json::array();
  for (const auto& r : in.rows) rows.push_back(row_json(r));
  return {{"input", in.name},         {"source", in.source},   {"vertices", in.vertices},
          {"links", in.links},        {"source_pool", in.source_pool},
          {"sources", in.sources},    {"rows", rows}};
}

// A time for the summary: "-" when not measured, "*" where scaled from a prefix.
std::string summary_ms(const Row* r) {
  if (!r || !r->good()) return "-";
  return ms(r->time_s()) + (r->scaled() ? "*" : "");
}

// Per input and k, ours against each contender; then the targets.
void print_summary(const std::vector<InputResult>& inputs, std::ostream& out, json& summary) {
  bench::Table table({"input", "k", "ours ms", "G TEPS", "single ms", "vs single", "graphblas ms", "vs graphblas",
                      "boost ms", "vs boost"});
  json per_input = json::array();
  for (const auto& in : inputs) {
    std::vector<std::size_t> ks;
    for (const auto& r : in.rows)
      if (r.contender == kOurs) ks.push_back(r.k);
    if (!table.empty() && !ks.empty()) table.add_gap();
    for (std::size_t k : ks) {
      const Row* ours = in.row(kOurs, k);
      std::vector<std::string> cells = {k == ks.front() ? in.name : "", std::to_string(k), summary_ms(ours),
                                        ours->good() ? bench::fixed(ours->teps() / 1e9, 3) : "-"};
      json j = {{"input", in.name}, {"sources", k}};
      if (ours->good()) j.update({{"ours_s", ours->time_s()}, {"ours_traversed_edges_per_s", ours->teps()}});
      for (const char* c : {kSingle, kGraphBlas, kBoost}) {
        const Row* r = in.row(c, k);
        cells.push_back(summary_ms(r));
        cells.push_back(r ? bench::times(r->vs_ours) : "-");
        if (r && r->good()) j[std::string(c) + "_s"] = r->time_s();
        if (r && !std::isnan(r->vs_ours)) j[std::string(c) + "_over_ours"] = r->vs_ours;
        if (r && r->scaled()) j[std::string(c) + "_scaled_from"] = r->m.sources;
      }
      table.add_row(cells);
      per_input.push_back(j);
    }
  }
  out << "\n== summary: ours (gpu-msbfs) against each contender; vs X: X's time over ours; * scaled from a prefix\n";
  table.print(out);
  summary["inputs"] = per_input;

  out << "\ntargets (reference: GraphBLAS on the H200 machine's 16 cores; aim: " << kTargetRatio << "x faster):\n";
  json targets = json::array();
  auto find = [&](const char* name) {
    auto in = std::find_if(inputs.begin(), inputs.end(), [&](const InputResult& i) { return i.name == name; });
    return in == inputs.end() ? nullptr : &*in;
  };
  for (const Target& t : kTargets) {
    const InputResult* in = find(t.input);
    const Row* r = in ? in->row(t.contender, t.sources) : nullptr;
    if (!r || !r->good()) continue;
    const double aim_s = t.graphblas_s / kTargetRatio;
    const bool met = r->time_s() <= aim_s;
    out << "  " << t.input << ", " << t.sources << " sources, " << t.contender << ": " << ms(r->time_s()) << " ms"
        << (r->scaled() ? " (scaled from " + std::to_string(r->m.sources) + ")" : "") << ", aim <= " << ms(aim_s)
        << " ms (GraphBLAS " << t.measured << " " << bench::fixed(t.graphblas_s, 2)
        << " s): " << (met ? "met" : "not met") << "; " << bench::times(t.graphblas_s / r->time_s())
        << " the reference";
    const Row* gb = in->row(kGraphBlas, t.sources);
    if (t.contender == std::string(kOurs) && gb && gb->good())
      out << ", " << bench::times(gb->vs_ours) << " GraphBLAS in this run" << (gb->scaled() ? " (scaled)" : "");
    out << '\n';
    targets.push_back({{"input", t.input}, {"sources", t.sources}, {"contender", t.contender},
                       {"seconds", r->time_s()}, {"scaled", r->scaled()}, {"aim_seconds", aim_s}, {"met", met},
                       {"reference_graphblas_s", t.graphblas_s},
                       {"speedup_vs_reference", t.graphblas_s / r->time_s()}});
  }
  for (const char* name : kBatchRatioInputs) {
    const InputResult* in = find(name);
    const Row* ours = in ? in->row(kOurs, kBatchRatioSources) : nullptr;
    const Row* single = in ? in->row(kSingle, kBatchRatioSources) : nullptr;
    if (!ours || !single || std::isnan(single->vs_ours)) continue;
    const bool met = single->vs_ours >= kBatchRatio;
    out << "  " << name << ", " << kBatchRatioSources << " sources at once against " << kBatchRatioSources
        << " single-source runs of ours: " << bench::times(single->vs_ours) << (single->scaled() ? " (scaled)" : "")
        << ", aim >= " << kBatchRatio << "x" << ": " << (met ? "met" : "not met") << '\n';
    targets.push_back({{"input", name}, {"sources", kBatchRatioSources}, {"single_over_batched", single->vs_ours},
                       {"aim_ratio", kBatchRatio}, {"met", met}});
  }
  if (targets.empty()) out << "  (no target input and source count ran)\n";
  summary["targets"] = targets;
}

int run(const Options& options, std::ostream& out) {
  const std::vector<bench::InputSpec> specs = bench::resolve_inputs(options.inputs, out);
  const int threads = omp_get_max_threads();
  out << "spgraph multi-source BFS benchmark on " << device::device_description() << '\n'
      << "sources: the first k of one list drawn by mt19937_64(" << options.seed
      << ") among the vertices with a link to another vertex; batch " << options.batch << "; direction out; form "
      << form_name(options.form) << " on the GPU\n"
      << kOurs << ": msbfs on the GPU, summary.seconds (CUDA events), median (and min) of " << options.timing.repeats
      << " runs after a checked run and " << options.timing.warmup << " warm-ups\n"
      << kSingle << ": msbfs with one source, called once a source, timed the same way, the medians summed; at most "
      << options.single_max << " sources, scaled to k\n";
  if (options.graphblas_repeats > 0)
    out << kGraphBlas << ": the same algorithm on SuiteSparse:GraphBLAS, " << threads
        << " OpenMP threads (omp_get_max_threads; " << std::thread::hardware_concurrency()
        << " host cores), summary.seconds (host clock), median of " << options.graphblas_repeats
        << " runs; at most " << options.graphblas_max << " sources, scaled to k\n";
  if (options.boost_max > 0)
    out << kBoost << ": Boost.Graph breadth_first_search on its compressed_sparse_row_graph, one thread, one run a "
        << "source, summed; at most " << options.boost_max << " sources, scaled to k\n";
  out << "G TEPS: edges traversed (the out-degrees of every vertex reached, over the sources) over the time;\n"
      << "  time / ours: this row's time over gpu-msbfs's at the same k; peak MiB: device memory above the\n"
      << "  built graph during the checked run; wall ms: the call(s) as the host waits for them. Every\n"
      << "  row's reached count and depth per source is checked against ours.\n";

  std::vector<InputResult> inputs;
  json results = json::array(), failed_inputs = json::array();
  bool bad = false;
  bench::for_each_input(specs, out, failed_inputs, [&](const bench::BenchInput& host) {
    InputResult in = bench_input(host, options, out, bad);
    print_rows(in, out);
    results.push_back(input_json(in));
    inputs.push_back(std::move(in));
  });

  json summary;
  print_summary(inputs, out, summary);
  if (bad) out << "WRONG RESULTS OR FAILED RUNS: see the check column above\n";
  json timing = bench::to_json(options.timing);
  timing["seconds"] = "summary.seconds: CUDA events on the GPU, the host clock on GraphBLAS, by the algorithm";
  const json doc = {
      {"benchmark", "msbfs"},
      {"timing", timing},
      {"gpu_form", form_name(options.form)},
      {"sources", {{"counts", options.counts}, {"seed", options.seed}, {"batch", options.batch},
                   {"drawn", "mt19937_64, without replacement, among vertices with a link to another vertex"}}},
      {"single", {{"max_sources", options.single_max}}},
      {"graphblas", {{"repeats", options.graphblas_repeats}, {"max_sources", options.graphblas_max},
                     {"threads", threads}, {"host_cores", std::thread::hardware_concurrency()}}},
      {"boost", {{"max_sources", options.boost_max}}},
      {"results", results}};
  return bench::finish_run(out, options.json_path, doc, failed_inputs, summary, bad);
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{
      "Benchmarks multi-source BFS on the GPU: spgraph's msbfs with k sources at once against k runs of it\n"
      "with one source, the same algorithm on SuiteSparse:GraphBLAS (every host core) and Boost.Graph's\n"
      "breadth_first_search (one thread), on the same sources of each graph. Prints the time, traversed\n"
      "edges per second, the ratio to ours and peak device memory of each, the issue's targets, and\n"
      "writes the results as JSON. Every contender's reached count and depth per source is checked\n"
      "against ours; exit status 1 when one differs."};
  Options options;
  options.timing = {.warmup = 1, .repeats = 5};
  bench::BenchFlags flags("double", "msbfs-bench.json");
  flags.add_to(cli, options.timing);
  cli.remove_option(cli.get_option("--precision"));  // the structure is searched, not values
  cli.add_option("--sources-counts", options.counts, "source counts k, comma-separated (default 1,64,512,4096)")
      ->delimiter(',')->allow_extra_args(false)
      ->check(CLI::Range(1, 1 << 24));
  cli.add_option("--seed", options.seed, "seed of the mt19937_64 that draws the sources")->capture_default_str();
  cli.add_option("--batch", options.batch, "sources searched at once (MsbfsOptions::batch), GPU and GraphBLAS")
      ->check(CLI::Range(1, 1 << 24))
      ->capture_default_str();
  cli.add_option("--form", options.form,
                 "GPU form: auto (the bit-parallel words, without parents) or matrix (the frontier matrix, "
                 "GraphBLAS's form)")
      ->transform(CLI::CheckedTransformer(kForms, CLI::ignore_case))
      ->default_str("auto");
  cli.add_option("--single-max", options.single_max,
                 "single-source runs of ours at most; a larger k runs this many and scales the time")
      ->check(CLI::Range(1, 1 << 24))
      ->capture_default_str();
  auto* gb_repeats = cli.add_option("--graphblas-repeats", options.graphblas_repeats,
                                    "timed GraphBLAS runs (after one untimed single-source run); their median is "
                                    "reported")
                         ->check(CLI::Range(1, 1000))
                         ->capture_default_str();
  auto* gb_max = cli.add_option("--graphblas-max-sources", options.graphblas_max,
                                "GraphBLAS sources at most; a larger k runs this prefix and scales the time")
                     ->check(CLI::Range(1, 1 << 24))
                     ->capture_default_str();
  bool no_graphblas = false;
  cli.add_flag("--no-graphblas", no_graphblas, "no GraphBLAS runs")->excludes(gb_repeats)->excludes(gb_max);
  auto* boost_max = cli.add_option("--boost-max", options.boost_max,
                                   "Boost.Graph searches at most; a larger k runs this prefix and scales the time")
                        ->check(CLI::Range(1, 1 << 24))
                        ->capture_default_str();
  bool no_boost = false;
  cli.add_flag("--no-boost", no_boost, "no Boost.Graph runs")->excludes(boost_max);
  CLI11_PARSE(cli, argc, argv);

  options.inputs = flags.input_options();
  options.json_path = flags.json_path;
  if (no_graphblas) options.graphblas_repeats = 0;
  if (no_boost) options.boost_max = 0;
  bench::require_gpu("bench_msbfs");
  return run(options, std::cout);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_msbfs: %s\n", e.what());
  return 1;
}
