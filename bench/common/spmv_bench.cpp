#include "spmv_bench.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>

#include "copy_bandwidth.hpp"
#include "cusparse_spmv.hpp"
#include "device_compare.hpp"
#include "json_output.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/spmv.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/graph_ops.hpp"
#include "table.hpp"

namespace spgraph::bench {
namespace {

using nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Values of the valued matrices and of x are small multiples of powers of two (matrix
// {0.5, 1, 1.5, 2}, x {0.25, 0.5, 0.75, 1}), so every product and every partial sum of a
// row of up to a million entries is exact in float: all implementations must agree whatever
// their summation order, and any difference is a bug, not rounding.
std::uint64_t mix(std::uint64_t v) {  // splitmix64's finaliser
  v += 0x9e3779b97f4a7c15ull;
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}
template <class V> V matrix_value(std::uint64_t p) { return V(0.5) * V(1 + mix(p) % 4); }
template <class V> V x_value(std::uint64_t j) { return V(0.25) * V(1 + mix(~j) % 4); }

template <class V> constexpr double tolerance() { return sizeof(V) == 4 ? 1e-5 : 1e-10; }

// Every kernel of ours, then the automatic choice.
constexpr SpmvKernel kOurKernels[] = {SpmvKernel::CsrVector, SpmvKernel::CsrMergePath, SpmvKernel::CsrStream,
                                      SpmvKernel::CooLoadBalanced, SpmvKernel::SellP, SpmvKernel::Hyb,
                                      SpmvKernel::Amb,             SpmvKernel::Auto};

struct ImplResult {
  std::string implementation;  // "ours csr-vector", "ours auto", "cuSPARSE default"
  std::string kernel;          // the kernel that ran (auto: its pick)
  bool ours = false;
  bool is_auto = false;
  std::string status = "ok";  // ok, "failed: ...", "wrong result: ..."
  Timing timing;
  double max_relative_error = 0;
  double speedup = kNaN;  // cuSPARSE's best median / this median
  double bytes = kNaN;    // what this implementation's format moves (AMB: 16-bit columns and y twice)
  bool timed() const { return status == "ok"; }
};

struct ConfigResult {
  std::string input;
  Precision precision = Precision::Float;
  bool valued = false;
  vid_t n = 0;
  eid_t nnz = 0;
  double bytes = 0;  // what one SpMV must move: CSR as given, x once, y once
  double amb_bytes = 0;  // AMB's: 16-bit columns, values, 4 per segment, x once, y set and written
  std::vector<ImplResult> impls;
  std::string cusparse_best;
  double cusparse_best_ms = kNaN;

  const ImplResult* find(bool want_auto, bool want_ours) const {
    for (const auto& r : impls)
      if (r.is_auto == want_auto && r.ours == want_ours) return &r;
    return nullptr;
  }
  const ImplResult* best_ours() const {
    const ImplResult* best = nullptr;
    for (const auto& r : impls)
      if (r.ours && !r.is_auto && r.timed() && (!best || r.timing.median_ms < best->timing.median_ms)) best = &r;
    return best;
  }
  std::string label() const {
    return input + " " + to_string(precision) + " " + (valued ? "valued" : "pattern");
  }
};

struct PageRankRow {
  std::string input;
  Precision precision = Precision::Float;
  std::string status = "ok";
  double iteration_ms = kNaN;     // the loop PageRankLoop::Auto takes
  bool auto_device_loop = false;  // ... which is the device loop
  double host_loop_ms = kNaN, device_loop_ms = kNaN;  // each loop, an iteration
  double spmv_ms = kNaN;    // our automatic choice on A' without values, back to back: PageRank's product
  std::string spmv_kernel;  // ... and the kernel it picks there
};

struct Context {
  GpuTimer& timer;
  CusparseHandle& cusparse;
};

template <class V>
Csr<V> make_matrix(const Csr<double>& graph, bool valued) {
  Csr<V> a = drop_values(convert_values<V>(graph));
  if (valued) {
    a.val.resize(static_cast<std::size_t>(a.nnz()));
    for (std::size_t p = 0; p < a.val.size(); ++p) a.val[p] = matrix_value<V>(p);
  }
  return a;
}

// Exact for these values (see matrix_value), so it is the reference every result must match.
template <class V>
std::vector<V> host_spmv(const Csr<V>& a, const std::vector<V>& x) {
  std::vector<V> y(static_cast<std::size_t>(a.nrows));
  for (vid_t i = 0; i < a.nrows; ++i) {
    double sum = 0;
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      sum += (a.is_pattern() ? 1.0 : double(a.val[p])) * double(x[a.col[p]]);
    y[i] = V(sum);
  }
  return y;
}

// Runs once into y, compares with the reference, and times the run only when it matched.
template <class V>
void check_and_time(ImplResult& r, const std::function<void()>& run, gpu::Vector<V>& y,
                    const gpu::Vector<V>& reference, GpuTimer& timer) {
  try {
    y.fill_zero();
    run();
    SPGRAPH_CUDA(cudaDeviceSynchronize());
    VectorComparison cmp = compare_vectors(y.data(), reference.data(), y.size(), tolerance<V>());
    r.max_relative_error = cmp.max_relative_error;
    if (!cmp.equal()) {
      r.status = "wrong result: " + std::to_string(cmp.mismatches) + " of " + std::to_string(y.size()) +
                 " entries differ (first " + std::to_string(cmp.first_mismatch) + ", max relative error " +
                 scientific(cmp.max_relative_error) + ")";
      return;
    }
    r.timing = timer.time(run);
  } catch (const std::exception& e) {
    r.status = failure(e);
  }
}

template <class V>
ConfigResult bench_config(const BenchInput& in, Precision precision, bool valued, Context& ctx) {
  ConfigResult c;
  c.input = in.name;
  c.precision = precision;
  c.valued = valued;
  Csr<V> a = make_matrix<V>(in.graph, valued);
  c.n = a.nrows;
  c.nnz = a.nnz();
  c.bytes = 8.0 * (a.nrows + 1.0) + 4.0 * a.nnz() + (valued ? double(sizeof(V)) * a.nnz() : 0.0) +
            double(sizeof(V)) * (a.ncols + a.nrows);

  std::vector<V> xh(static_cast<std::size_t>(a.ncols));
  for (std::size_t j = 0; j < xh.size(); ++j) xh[j] = x_value<V>(j);
  gpu::Vector<V> x, y(static_cast<std::size_t>(a.nrows)), reference;
  x.upload(xh);
  reference.upload(host_spmv(a, xh));
  gpu::Matrix<V> A = gpu::Matrix<V>::from_host(a);
  const gpu::SpmvRowStats& stats = gpu::spmv_row_stats(A);
  c.amb_bytes = (2.0 + (valued ? double(sizeof(V)) : 0.0)) * a.nnz() + 4.0 * stats.amb_segments +
                double(sizeof(V)) * (a.ncols + 2.0 * a.nrows);

  for (const auto& alg : cusparse_spmv_algorithms()) {
    ImplResult r;
    r.implementation = r.kernel = alg.name;
    r.bytes = c.bytes;
    try {
      CusparseCsr<V> ca = CusparseCsr<V>::from(A.csr());
      CusparseSpmv<V> spmv(ctx.cusparse.get(), ca, x.data(), y.data(), alg.id);
      check_and_time(r, [&] { spmv.run(); }, y, reference, ctx.timer);
    } catch (const std::exception& e) {
      r.status = failure(e);
    }
    c.impls.push_back(r);
  }

  for (SpmvKernel k : kOurKernels) {
    ImplResult r;
    r.ours = true;
    r.is_auto = k == SpmvKernel::Auto;
    r.kernel = gpu::spmv_kernel_name(k);
    r.implementation = "ours " + r.kernel;
    try {
      if (r.is_auto) {
        r.kernel = gpu::spmv_kernel_name(gpu::choose_spmv_kernel(A));
        r.implementation = "ours auto -> " + r.kernel;
      }
      r.bytes = r.kernel == gpu::spmv_kernel_name(SpmvKernel::Amb) ? c.amb_bytes : c.bytes;
      gpu::prepare_spmv(A, k);  // builds the kernel's format once, outside the timing
      SpmvOptions options{k};
      check_and_time(
          r, [&] { gpu::mxv<PlusTimes, V>(y, nullptr, A, x, PlusTimes{}, Descriptor{}, options); }, y, reference,
          ctx.timer);
    } catch (const std::exception& e) {
      r.status = failure(e);
    }
    c.impls.push_back(r);
  }

  for (const auto& r : c.impls)
    if (!r.ours && r.timed() && (c.cusparse_best.empty() || r.timing.median_ms < c.cusparse_best_ms)) {
      c.cusparse_best_ms = r.timing.median_ms;
      c.cusparse_best = r.implementation;
    }
  for (auto& r : c.impls)
    if (r.timed()) r.speedup = c.cusparse_best_ms / r.timing.median_ms;
  return c;
}

// Both sides in steady state, as PageRank runs them: kPageRankIterations back to back without
// an L2 flush between them. The iterations are timed by PageRank itself with CUDA events
// (PageRankResult::iterate_seconds); the product alone by the same events around as many SpMVs.
constexpr int kPageRankIterations = 100;

template <class V>
PageRankRow bench_pagerank(const BenchInput& in, Precision precision, int repeats) {
  PageRankRow row;
  row.input = in.name;
  row.precision = precision;
  try {
    const gpu::Matrix<V> in_links = gpu::transpose(gpu::Matrix<V>::from_host(make_matrix<V>(in.graph, false)));
    row.spmv_kernel = gpu::spmv_kernel_name(gpu::choose_spmv_kernel(in_links));
    gpu::prepare_spmv(in_links, SpmvKernel::Auto);
    gpu::Vector<V> x(static_cast<std::size_t>(in_links.ncols())), y(static_cast<std::size_t>(in_links.nrows()));
    x.fill_zero();
    GpuTimer loop_timer({.warmup = 1, .repeats = repeats, .flush_l2 = false});
    row.spmv_ms = loop_timer
                      .time([&] {
                        for (int i = 0; i < kPageRankIterations; ++i)
                          gpu::mxv<PlusSecond, V>(y, nullptr, in_links, x, PlusSecond{}, Descriptor{}, SpmvOptions{});
                      })
                      .median_ms /
                  kPageRankIterations;

    // Both ways of iterating (PageRankLoop), each after a warm-up run; Auto's pick is one of them.
    // Auto takes the device loop wherever it runs (gpu::MxvLoop::suits), so where it does not,
    // only the host loop is timed.
    algorithms::PageRankOptions options;
    options.fixed_iterations = kPageRankIterations;
    row.auto_device_loop = algorithms::pagerank<V>(algorithms::Backend::Gpu, in.graph, options).device_loop;
    for (auto loop : {algorithms::PageRankLoop::Host, algorithms::PageRankLoop::Device}) {
      if (loop == algorithms::PageRankLoop::Device && !row.auto_device_loop) continue;
      options.loop = loop;
      algorithms::pagerank<V>(algorithms::Backend::Gpu, in.graph, options);  // warm-up
      std::vector<double> ms;
      for (int i = 0; i < repeats; ++i)
        ms.push_back(algorithms::pagerank<V>(algorithms::Backend::Gpu, in.graph, options).iterate_seconds * 1e3 / kPageRankIterations);
      (loop == algorithms::PageRankLoop::Host ? row.host_loop_ms : row.device_loop_ms) = median(ms);
    }
    row.iteration_ms = row.auto_device_loop ? row.device_loop_ms : row.host_loop_ms;
  } catch (const std::exception& e) {
    row.status = failure(e);
  }
  return row;
}

json config_json(const ConfigResult& c, double copy_gb_per_s) {
  json impls = json::array();
  for (const auto& r : c.impls) {
    json j = {{"implementation", r.implementation}, {"kernel", r.kernel}, {"ours", r.ours},
              {"automatic", r.is_auto}, {"status", r.status}};
    if (r.timed()) {
      double gbs = c.bytes / (r.timing.median_ms * 1e-3) / 1e9;
      j.update({{"median_ms", r.timing.median_ms}, {"min_ms", r.timing.min_ms}, {"gb_per_s", gbs},
                {"fraction_of_copy_bandwidth", gbs / copy_gb_per_s},
                {"max_relative_error", r.max_relative_error}, {"format_bytes_per_nonzero", r.bytes / c.nnz},
                {"format_gb_per_s", r.bytes / (r.timing.median_ms * 1e-3) / 1e9}});
      if (!std::isnan(r.speedup)) j["speedup_vs_cusparse_best"] = r.speedup;
    }
    impls.push_back(j);
  }
  json j = {{"input", c.input},  {"precision", to_string(c.precision)}, {"values", c.valued ? "valued" : "pattern"},
            {"n", c.n},          {"nnz", c.nnz},
            {"bytes_per_spmv", c.bytes}, {"implementations", impls}};
  if (!c.cusparse_best.empty()) j.update({{"cusparse_best", c.cusparse_best}, {"cusparse_best_ms", c.cusparse_best_ms}});
  return j;
}

void add_rows(Table& table, const ConfigResult& c, double copy_gb_per_s) {
  bool first = true;
  for (const auto& r : c.impls) {
    std::string name = r.implementation;
    if (!r.ours && !c.valued) name += " (ones)";
    std::vector<std::string> row = {first ? to_string(c.precision) : "", first ? (c.valued ? "valued" : "pattern") : "",
                                    name};
    first = false;
    if (r.timed()) {
      double gbs = c.bytes / (r.timing.median_ms * 1e-3) / 1e9;
      row.insert(row.end(), {fixed(r.timing.median_ms, 4), fixed(r.timing.min_ms, 4), fixed(gbs, 0),
                             percent(gbs / copy_gb_per_s), fixed(r.bytes / c.nnz, 1),
                             fixed(r.bytes / (r.timing.median_ms * 1e-3) / 1e9, 0), times(r.speedup), "ok"});
    } else {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "-", r.status});
    }
    table.add_row(row);
  }
}

void print_summary(const std::vector<ConfigResult>& configs, const std::vector<PageRankRow>& pageranks,
                   double copy_gb_per_s, std::ostream& out, json& summary) {
  Table table({"input", "prec", "values", "auto pick", "ms", "GB/s", "%copy", "auto/best ours", "cuSPARSE best",
               "ms", "speedup"});
  std::vector<double> speedups;
  std::map<std::string, std::vector<double>> speedups_by_kind;  // "float pattern" -> ...
  const ConfigResult* slowest = nullptr;
  double slowest_speedup = 0;
  json wb_edu = json::array();
  for (const auto& c : configs) {
    const ImplResult* a = c.find(true, true);
    const ImplResult* best = c.best_ours();
    std::vector<std::string> row = {c.input, to_string(c.precision), c.valued ? "valued" : "pattern",
                                    a ? a->kernel : "-"};
    if (a && a->timed()) {
      double gbs = c.bytes / (a->timing.median_ms * 1e-3) / 1e9;
      row.insert(row.end(), {fixed(a->timing.median_ms, 4), fixed(gbs, 0), percent(gbs / copy_gb_per_s),
                             best ? fixed(a->timing.median_ms / best->timing.median_ms, 2) : "-"});
      if (c.input == "wb-edu-like")
        wb_edu.push_back({{"precision", to_string(c.precision)}, {"values", c.valued ? "valued" : "pattern"},
                          {"fraction_of_copy_bandwidth", gbs / copy_gb_per_s}});
    } else {
      row.insert(row.end(), {"-", "-", "-", "-"});
    }
    row.insert(row.end(), {c.cusparse_best.empty() ? "-" : c.cusparse_best, fixed(c.cusparse_best_ms, 4)});
    if (a && a->timed() && !std::isnan(a->speedup)) {
      row.push_back(times(a->speedup));
      speedups.push_back(a->speedup);
      speedups_by_kind[std::string(to_string(c.precision)) + " " + (c.valued ? "valued" : "pattern")].push_back(
          a->speedup);
      if (!slowest || a->speedup < slowest_speedup) {
        slowest = &c;
        slowest_speedup = a->speedup;
      }
    } else {
      row.push_back("-");
    }
    table.add_row(row);
  }
  out << "\n== summary: our automatic choice against cuSPARSE's best CSR SpMV\n";
  table.print(out);
  out << '\n';
  if (!speedups.empty()) {
    double g = geometric_mean(speedups);
    out << "auto vs cuSPARSE: geometric mean " << times(g) << " over " << speedups.size()
        << " configurations; minimum " << times(slowest_speedup) << " (" << slowest->label() << ")\n";
    summary["auto_speedup_geometric_mean"] = g;
    summary["auto_speedup_minimum"] = slowest_speedup;
    summary["auto_speedup_minimum_at"] = slowest->label();
    summary["configurations_compared"] = speedups.size();
    out << "  by kind:";
    for (const auto& [kind, values] : speedups_by_kind) {
      out << ' ' << kind << ' ' << times(geometric_mean(values)) << ';';
      summary["auto_speedup_geometric_mean_by_kind"][kind] = geometric_mean(values);
    }
    out << '\n';
  } else {
    out << "auto vs cuSPARSE: no configuration where both completed\n";
  }
  if (!wb_edu.empty()) {
    out << "wb-edu-like, auto as % of copy bandwidth:";
    for (const auto& w : wb_edu)
      out << ' ' << w["precision"].get<std::string>() << '/' << w["values"].get<std::string>() << ' '
          << percent(w["fraction_of_copy_bandwidth"].get<double>());
    out << '\n';
  }
  summary["wb_edu_like_copy_bandwidth_fraction"] = wb_edu;
  json pr = json::array();
  for (const auto& p : pageranks) {
    out << "PageRank iteration, " << p.input << ' ' << to_string(p.precision) << ": ";
    json j = {{"input", p.input}, {"precision", to_string(p.precision)}, {"status", p.status}};
    if (std::isnan(p.iteration_ms)) {
      out << p.status << '\n';
    } else {
      out << fixed(p.iteration_ms, 4) << " ms";
      j["iteration_ms"] = p.iteration_ms;
      j["loop"] = p.auto_device_loop ? "device" : "host";
      j["host_loop_iteration_ms"] = p.host_loop_ms;
      if (!std::isnan(p.device_loop_ms)) j["device_loop_iteration_ms"] = p.device_loop_ms;
      if (!std::isnan(p.spmv_ms)) {
        out << " = " << fixed(p.iteration_ms / p.spmv_ms, 2) << " value-free SpMVs on A' (" << fixed(p.spmv_ms, 4)
            << " ms, " << p.spmv_kernel << ")";
        j["value_free_spmv_ms"] = p.spmv_ms;
        j["value_free_spmv_kernel"] = p.spmv_kernel;
        j["ratio_to_value_free_spmv"] = p.iteration_ms / p.spmv_ms;
      }
      out << "; " << (p.auto_device_loop ? "device" : "host") << " loop (host loop " << fixed(p.host_loop_ms, 4)
          << " ms, device loop ";
      if (std::isnan(p.device_loop_ms)) out << "too big for shared memory)\n";
      else out << fixed(p.device_loop_ms, 4) << " ms)\n";
    }
    pr.push_back(j);
  }
  summary["pagerank"] = pr;
}

}  // namespace

int run_spmv_bench(const SpmvBenchOptions& options, std::ostream& out) {
  std::vector<InputSpec> specs = resolve_inputs(options.inputs, out);
  out << "spgraph SpMV benchmark: y = A*x (plus-times) on " << device::device_description() << '\n';
  CopyBandwidth bw = measure_copy_bandwidth();
  GpuTimer timer(options.timing);
  CusparseHandle cusparse;
  Context ctx{timer, cusparse};
  out << "timing: CUDA events, median (and min) of " << options.timing.repeats << " runs after "
      << options.timing.warmup << " warm-ups" << (options.timing.flush_l2 ? ", L2 flushed before each run" : "")
      << "\ncopy bandwidth: " << fixed(bw.gb_per_s, 0) << " GB/s (cudaMemcpyAsync device to device of "
      << gib(bw.bytes) << ", bytes read + written, median of " << bw.timing.repeats << ")\n"
      << "GB/s: bytes one SpMV must move, the CSR as given (row offsets 8(n+1) + column ids 4 nnz + values when\n"
      << "  valued) + x + y, over the median time; the same bytes for every implementation. cuSPARSE has no\n"
      << "  value-free CSR: on pattern matrices it reads explicit ones, marked (ones).\n"
      << "B/nnz: bytes the implementation's own format moves per nonzero (AMB: 16-bit columns, values, 4 a\n"
      << "  segment, x once, y set then written; the others the CSR bytes above); own GB/s: those over the time.\n"
      << "check: every result is compared with y computed on the host before it is timed (values are chosen\n"
      << "  so that sums are exact; tolerance 1e-5 relative in float, 1e-10 in double); a mismatch is shown\n"
      << "  instead of a time. speedup: cuSPARSE's best median / this median.\n";

  json results = json::array();
  std::vector<ConfigResult> configs;
  std::vector<PageRankRow> pageranks;
  bool ours_wrong = false;
  json failed_inputs = json::array();
  for_each_input(specs, out, failed_inputs, [&](const BenchInput& in) {
    Table table({"prec", "values", "implementation", "ms", "min ms", "GB/s", "%copy", "B/nnz", "own GB/s", "speedup",
                 "check"});
    try {
      for (Precision p : options.precisions) {
        for (bool valued : {false, true}) {
          ConfigResult c = p == Precision::Float ? bench_config<float>(in, p, valued, ctx)
                                                 : bench_config<double>(in, p, valued, ctx);
          add_rows(table, c, bw.gb_per_s);
          table.add_gap();
          for (const auto& r : c.impls)
            if (r.ours && r.status.starts_with("wrong")) ours_wrong = true;
          results.push_back(config_json(c, bw.gb_per_s));
          configs.push_back(std::move(c));
        }
        if (options.pagerank_repeats > 0) {
          pageranks.push_back(p == Precision::Float
                                  ? bench_pagerank<float>(in, p, options.pagerank_repeats)
                                  : bench_pagerank<double>(in, p, options.pagerank_repeats));
        }
      }
    } catch (...) {  // what ran is shown before the input is reported stopped
      if (!table.empty()) table.print(out);
      throw;
    }
    table.print(out);
  });

  json summary;
  print_summary(configs, pageranks, bw.gb_per_s, out, summary);
  if (ours_wrong) out << "WRONG RESULTS from our kernels: see the check column above\n";
  const json doc = {
      {"benchmark", "spmv"},
      {"copy_bandwidth", {{"bytes", bw.bytes}, {"median_ms", bw.timing.median_ms}, {"gb_per_s", bw.gb_per_s}}},
      {"timing", to_json(options.timing)},
      {"results", results}};
  return finish_run(out, options.json_path, doc, failed_inputs, summary, ours_wrong);
}

}  // namespace spgraph::bench
