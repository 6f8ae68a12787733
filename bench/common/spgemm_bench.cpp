#include "spgemm_bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "cusparse_spgemm.hpp"
#include "device_compare.hpp"
#include "json_output.hpp"
#include "peak_memory.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/graph_ops.hpp"
#include "table.hpp"

namespace spgraph::bench {
namespace {

using nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A's values are all ones, so C holds path counts: integers, exact in float and double
// whatever the summation order. The tolerances only matter for inputs with larger counts.
template <class V> constexpr double tolerance() { return sizeof(V) == 4 ? 1e-5 : 1e-12; }

struct ImplResult {
  std::string implementation;  // "ours hash", "cuSPARSE alg2"
  bool ours = false;
  std::string status = "ok";  // ok, "ok (unchecked: ...)", "failed: ...", "wrong result: ..."
  std::string note;           // ours: what SpgemmInfo adds (another algorithm ran, row panels)
  std::optional<gpu::SpgemmInfo> info;  // ours
  Timing timing;
  bool timed = false;
  std::size_t peak_bytes = 0;
  eid_t nnz = -1;
  double speedup = kNaN;  // cuSPARSE's best median / this median
};

struct CaseResult {
  std::string input;
  std::string op;  // "A*A", "A*A'"
  Precision precision = Precision::Double;
  eid_t products = 0;
  eid_t nnz = -1;        // nnz(C) of the reference
  std::string skipped;   // why the case did not run
  std::vector<ImplResult> impls;

  std::string label() const { return input + " " + op + " " + to_string(precision); }
  const ImplResult* best(bool ours) const {
    const ImplResult* b = nullptr;
    for (const auto& r : impls)
      if (r.ours == ours && r.timed && r.status == "ok" && (!b || r.timing.median_ms < b->timing.median_ms)) b = &r;
    return b;
  }
  const ImplResult* find(const std::string& implementation) const {
    for (const auto& r : impls)
      if (r.implementation == implementation) return &r;
    return nullptr;
  }
};

struct Context {
  GpuTimer& timer;
  CusparseHandle& cusparse;
  double max_products;
  bool panels_above_max;
};

template <class V>
Csr<V> with_ones(const Csr<double>& graph) {
  Csr<V> a = convert_values<V>(graph);
  a.val.assign(static_cast<std::size_t>(a.nnz()), V(1));
  return a;
}

const char* algorithm_name(MxmAlgorithm a) {
  switch (a) {
    case MxmAlgorithm::Hash: return "hash";
    case MxmAlgorithm::Esc: return "esc";
    case MxmAlgorithm::Auto: return "auto";
  }
  return "?";
}

std::string compared(const CsrComparison& cmp) { return cmp.equal() ? "ok" : "wrong result: " + cmp.difference; }

// Runs `run` once for the check and the peak memory, then, when the result is right, times it.
// `check` says "ok" or what is wrong with the result (and may keep it: it gets it to move from).
template <class Result>
void check_and_time(ImplResult& r, GpuTimer& timer, const std::function<void(Result&)>& run,
                    const std::function<std::string(Result&)>& check) {
  try {
    {
      Result out;
      PeakMemory peak;
      run(out);
      SPGRAPH_CUDA(cudaDeviceSynchronize());
      r.peak_bytes = peak.bytes();
      r.status = check(out);
    }
    if (!r.status.starts_with("ok")) return;
    Result out;
    r.timing = timer.time([&] { run(out); }, [&] { out = Result(); });
    r.timed = true;
  } catch (const std::exception& e) {
    r.status = failure(e);
  }
}

// A product above --max-products, whose C may not fit on the device at all: one run through
// gpu::mxm_panels, each panel counted and dropped as it comes (no repeats, no cuSPARSE, whose
// C would have to fit), so that what mxm cannot hold is still measured.
template <class V>
ImplResult run_in_panels(const gpu::Matrix<V>& A, const gpu::Matrix<V>& B, const TimingOptions& timing) {
  ImplResult r;
  r.ours = true;
  r.implementation = "ours panels";
  try {
    GpuTimer once({.warmup = 0, .repeats = 1, .flush_l2 = false, .synchronize_device = timing.synchronize_device});
    eid_t nnz = 0;
    gpu::SpgemmInfo info;
    PeakMemory peak;
    r.timing = once.time([&] {
      nnz = 0;
      info = gpu::mxm_panels<PlusTimes, V>(A, B, PlusTimes{}, MxmOptions{},
                                           [&](vid_t, gpu::Matrix<V>&& panel) { nnz += panel.nnz(); });
    });
    r.peak_bytes = peak.bytes();
    r.timed = true;
    r.info = info;
    r.nnz = nnz;
    r.note = info.algorithm + ", " + std::to_string(info.panels) + " panels, counted and dropped; one run";
    r.status = nnz == info.nnz ? "ok" : "wrong result: the panels hold " + std::to_string(nnz) +
                                            " entries, mxm_panels reports " + std::to_string(info.nnz);
  } catch (const std::exception& e) {
    r.status = failure(e);
  }
  return r;
}

template <class V>
CaseResult bench_case(const std::string& input, const char* op, const gpu::Matrix<V>& A, const gpu::Matrix<V>& B,
                      Precision precision, Context& ctx) {
  CaseResult c;
  c.input = input;
  c.op = op;
  c.precision = precision;
  c.products = gpu::count_products(A, B);
  if (static_cast<double>(c.products) > ctx.max_products) {
    if (!ctx.panels_above_max) {
      c.skipped = std::to_string(c.products) + " intermediate products, more than --max-products " +
                  fixed(ctx.max_products, 0);
      return c;
    }
    c.impls.push_back(run_in_panels(A, B, ctx.timer.options()));
    c.nnz = c.impls.back().nnz;
    return c;
  }

  std::optional<gpu::Matrix<V>> reference;  // the first of ours that completes
  for (MxmAlgorithm algorithm : {MxmAlgorithm::Hash, MxmAlgorithm::Esc}) {
    ImplResult r;
    r.ours = true;
    r.implementation = std::string("ours ") + algorithm_name(algorithm);
    MxmOptions options;
    options.algorithm = algorithm;
    gpu::SpgemmInfo info;
    check_and_time<gpu::Matrix<V>>(
        r, ctx.timer,
        [&](gpu::Matrix<V>& C) { info = gpu::mxm<PlusTimes, V>(C, nullptr, A, B, PlusTimes{}, Descriptor{}, options); },
        [&](gpu::Matrix<V>& C) {
          r.info = info;
          if (info.algorithm != algorithm_name(algorithm)) r.note = "ran as " + info.algorithm;
          if (info.panels > 1) r.note += (r.note.empty() ? "" : ", ") + std::to_string(info.panels) + " panels";
          r.nnz = C.nnz();
          if (reference) return compared(compare_csr(reference->csr(), C.csr(), tolerance<V>()));
          reference = std::move(C);
          return std::string("ok");
        });
    c.impls.push_back(r);
  }
  if (reference) c.nnz = reference->nnz();

  try {
    CusparseCsr<V> ca = CusparseCsr<V>::from(A.csr());
    std::optional<CusparseCsr<V>> cb;
    if (&A != &B) cb = CusparseCsr<V>::from(B.csr());
    CusparseCsr<V>& b = cb ? *cb : ca;
    for (const auto& alg : cusparse_spgemm_algorithms()) {
      ImplResult r;
      r.implementation = alg.name;
      check_and_time<CusparseCsr<V>>(
          r, ctx.timer,
          [&](CusparseCsr<V>& C) { C = cusparse_spgemm(ctx.cusparse.get(), ca, b, alg.id); },
          [&](CusparseCsr<V>& C) {
            r.nnz = C.nnz;
            if (!reference) return std::string("ok (unchecked: none of ours completed)");
            return compared(compare_csr(reference->csr(), C, tolerance<V>()));
          });
      c.impls.push_back(r);
    }
  } catch (const std::exception& e) {  // cuSPARSE's copies of A and B
    for (const auto& alg : cusparse_spgemm_algorithms()) {
      ImplResult r;
      r.implementation = alg.name;
      r.status = failure(e);
      c.impls.push_back(r);
    }
  }

  const ImplResult* cusparse_best = c.best(false);
  for (auto& r : c.impls)
    if (r.timed && cusparse_best) r.speedup = cusparse_best->timing.median_ms / r.timing.median_ms;
  return c;
}

double gflops(const CaseResult& c, const ImplResult& r) {
  return 2.0 * static_cast<double>(c.products) / (r.timing.median_ms * 1e-3) / 1e9;
}

void add_rows(Table& table, const CaseResult& c) {
  if (!c.skipped.empty()) {
    table.add_row({c.op, to_string(c.precision), count(c.products), "-", "all", "-", "-", "-", "-", "-",
                   "skipped: " + c.skipped});
    return;
  }
  bool first = true;
  for (const auto& r : c.impls) {
    std::vector<std::string> row = {first ? c.op : "", first ? to_string(c.precision) : "",
                                    first ? count(c.products) : "", r.nnz >= 0 ? count(r.nnz) : "-",
                                    r.implementation + (r.note.empty() ? "" : " (" + r.note + ")")};
    first = false;
    if (r.timed)
      row.insert(row.end(), {fixed(r.timing.median_ms, 3), fixed(r.timing.min_ms, 3), fixed(gflops(c, r), 2),
                             gib(r.peak_bytes), times(r.speedup)});
    else
      row.insert(row.end(), {"-", "-", "-", r.peak_bytes ? gib(r.peak_bytes) : "-", "-"});
    row.push_back(r.status);
    table.add_row(row);
  }
}

json case_json(const CaseResult& c) {
  json j = {{"input", c.input}, {"operation", c.op}, {"precision", to_string(c.precision)}, {"products", c.products}};
  if (!c.skipped.empty()) {
    j["skipped"] = c.skipped;
    return j;
  }
  j["nnz"] = c.nnz;
  json impls = json::array();
  for (const auto& r : c.impls) {
    json i = {{"implementation", r.implementation}, {"ours", r.ours}, {"status", r.status}};
    if (r.info)
      i["spgemm_info"] = {{"algorithm", r.info->algorithm},
                          {"panels", r.info->panels},
                          {"products", r.info->products},
                          {"global_table_rows", r.info->global_table_rows},
                          {"dense_rows", r.info->dense_rows}};
    if (r.nnz >= 0) i["nnz"] = r.nnz;
    if (r.peak_bytes) i["peak_bytes"] = r.peak_bytes;
    if (r.timed) {
      i.update({{"median_ms", r.timing.median_ms}, {"min_ms", r.timing.min_ms}, {"gflops", gflops(c, r)}});
      if (!std::isnan(r.speedup)) i["speedup_vs_cusparse_best"] = r.speedup;
    }
    impls.push_back(i);
  }
  j["implementations"] = impls;
  return j;
}

void print_summary(const std::vector<CaseResult>& cases, std::ostream& out, json& summary) {
  Table table({"case", "ours best", "ms", "cuSPARSE best", "ms", "speedup", "ours peak", "alg2 peak", "memory ratio"});
  std::vector<double> speedups, memory_ratios;
  const CaseResult* slowest = nullptr;
  double slowest_speedup = 0;
  json failures = json::array(), skipped = json::array();
  for (const auto& c : cases) {
    if (!c.skipped.empty()) {
      skipped.push_back({{"case", c.label()}, {"reason", c.skipped}});
      continue;
    }
    const ImplResult* ours = c.best(true);
    const ImplResult* theirs = c.best(false);
    const ImplResult* alg2 = c.find("cuSPARSE alg2");
    std::vector<std::string> row = {c.label(), ours ? ours->implementation : "none completed",
                                    ours ? fixed(ours->timing.median_ms, 3) : "-",
                                    theirs ? theirs->implementation : "none completed",
                                    theirs ? fixed(theirs->timing.median_ms, 3) : "-"};
    if (ours && theirs) {
      double s = theirs->timing.median_ms / ours->timing.median_ms;
      speedups.push_back(s);
      if (!slowest || s < slowest_speedup) {
        slowest = &c;
        slowest_speedup = s;
      }
      row.push_back(times(s));
    } else {
      row.push_back("-");
    }
    bool alg2_ok = alg2 && alg2->timed && alg2->status == "ok";
    row.push_back(ours ? gib(ours->peak_bytes) : "-");
    row.push_back(alg2_ok ? gib(alg2->peak_bytes) : "-");
    if (ours && alg2_ok && alg2->peak_bytes) {
      double m = double(ours->peak_bytes) / double(alg2->peak_bytes);
      memory_ratios.push_back(m);
      row.push_back(fixed(m, 2));
    } else {
      row.push_back("-");
    }
    table.add_row(row);

    json failed = json::array();
    std::string line;
    for (const auto& r : c.impls)
      if (!r.ours && !r.status.starts_with("ok")) {
        failed.push_back({{"implementation", r.implementation}, {"status", r.status}});
        line += (line.empty() ? "" : "; ") + r.implementation + " " + r.status;
      }
    if (!failed.empty()) {
      std::string ours_text = ours ? "ours completed (" + ours->implementation + ", " +
                                         fixed(ours->timing.median_ms, 2) + " ms)"
                                   : "ours did not complete either";
      failures.push_back({{"case", c.label()}, {"cusparse", failed}, {"ours_completed", ours != nullptr},
                          {"ours", ours_text}});
    }
  }
  out << "\n== summary: our best against cuSPARSE's best completing algorithm\n";
  table.print(out);
  out << '\n';
  if (!speedups.empty()) {
    double g = geometric_mean(speedups);
    out << "speedup: geometric mean " << times(g) << " over " << speedups.size() << " cases; minimum "
        << times(slowest_speedup) << " (" << slowest->label() << ")\n";
    summary.update({{"speedup_geometric_mean", g}, {"speedup_minimum", slowest_speedup},
                    {"speedup_minimum_at", slowest->label()}, {"cases_compared", speedups.size()}});
  } else {
    out << "speedup: no case where ours and cuSPARSE both completed\n";
  }
  if (!memory_ratios.empty()) {
    double g = geometric_mean(memory_ratios);
    double worst = *std::max_element(memory_ratios.begin(), memory_ratios.end());
    out << "peak memory, ours best / cuSPARSE alg2: geometric mean " << fixed(g, 2) << ", largest " << fixed(worst, 2)
        << " (below 1: ours needs less)\n";
    summary.update({{"peak_memory_ratio_vs_alg2_geometric_mean", g}, {"peak_memory_ratio_vs_alg2_largest", worst}});
  }
  if (failures.empty()) out << "cuSPARSE failures: none\n";
  for (const auto& f : failures) {
    out << "cuSPARSE failed on " << f["case"].get<std::string>() << ":";
    for (const auto& r : f["cusparse"])
      out << ' ' << r["implementation"].get<std::string>() << ' ' << r["status"].get<std::string>() << ';';
    out << ' ' << f["ours"].get<std::string>() << '\n';
  }
  for (const auto& s : skipped)
    out << "skipped " << s["case"].get<std::string>() << ": " << s["reason"].get<std::string>() << '\n';
  summary["cusparse_failures"] = failures;
  summary["skipped"] = skipped;
}

template <class V>
void bench_input(const BenchInput& in, Precision precision, const SpgemmBenchOptions& options, Context& ctx,
                 std::vector<CaseResult>& cases, Table& table) {
  gpu::Matrix<V> A = gpu::Matrix<V>::from_host(with_ones<V>(in.graph));
  if (options.a_times_a) {
    cases.push_back(bench_case<V>(in.name, "A*A", A, A, precision, ctx));
    add_rows(table, cases.back());
    table.add_gap();
  }
  if (options.a_times_a_transpose) {
    gpu::Matrix<V> At = gpu::transpose(A);
    cases.push_back(bench_case<V>(in.name, "A*A'", A, At, precision, ctx));
    add_rows(table, cases.back());
    table.add_gap();
  }
}

}  // namespace

int run_spgemm_bench(const SpgemmBenchOptions& options, std::ostream& out) {
  std::vector<InputSpec> specs = resolve_inputs(options.inputs, out);
  out << "spgraph SpGEMM benchmark: C = A*A and A*A' (plus-times) on " << device::device_description() << '\n';
  GpuTimer timer(options.timing);
  CusparseHandle cusparse;
  Context ctx{timer, cusparse, options.max_products, options.panels_above_max};
  out << "timing: CUDA events, median (and min) of " << options.timing.repeats << " runs after "
      << options.timing.warmup << " warm-up(s) and one checked run; each run computes C from scratch,\n"
      << "  allocation included, and waits for the whole device before its stop event\n"
      << "A: the graph with all values 1, so C holds path counts (exact); A' is built on the device outside the\n"
      << "  timing. cuSPARSE gets 32-bit copies of A and A' (its SpGEMM's index type), made outside the timing.\n"
      << "GFLOPS: 2 * intermediate products / median time. peak: most device bytes live during the checked run\n"
      << "  above what was live before it (workspace + C; inputs excluded), the same pool for every\n"
      << "  implementation. cuSPARSE ALG3 runs with chunk fraction " << kCusparseChunkFraction << ".\n"
      << "check: ours hash is the reference (ours esc when hash fails); every other C must have the same\n"
      << "  rows and columns and values within 1e-12 (double) / 1e-5 (float) relative, before it is timed.\n"
      << "speedup: cuSPARSE's best median / this median.\n";

  std::vector<CaseResult> cases;
  bool ours_wrong = false;
  json failed_inputs = json::array();
  for_each_input(specs, out, failed_inputs, [&](const BenchInput& in) {
    Table table({"op", "prec", "products", "nnz(C)", "implementation", "ms", "min ms", "GFLOPS", "peak", "speedup",
                 "check"});
    try {
      for (Precision p : options.precisions) {
        if (p == Precision::Float) bench_input<float>(in, p, options, ctx, cases, table);
        else bench_input<double>(in, p, options, ctx, cases, table);
      }
    } catch (...) {  // what ran is shown before the input is reported stopped
      if (!table.empty()) table.print(out);
      throw;
    }
    table.print(out);
  });
  for (const CaseResult& c : cases)
    for (const auto& r : c.impls) {
      if (r.ours && r.status.starts_with("wrong")) ours_wrong = true;
      // The product in panels is the only run of its case: its failure fails the input.
      if (r.implementation == "ours panels" && r.status.starts_with("failed"))
        failed_inputs.push_back({{"input", c.label()}, {"error", "gpu::mxm_panels " + r.status}});
    }

  json summary;
  print_summary(cases, out, summary);
  if (ours_wrong) out << "WRONG RESULTS: our hash and ESC results differ; see the check column above\n";
  json results = json::array();
  for (const auto& c : cases) results.push_back(case_json(c));
  const json doc = {{"benchmark", "spgemm"},
                    {"timing", to_json(options.timing)},
                    {"max_products", options.max_products},
                    {"panels_above_max", options.panels_above_max},
                    {"cusparse_alg3_chunk_fraction", kCusparseChunkFraction},
                    {"results", results}};
  return finish_run(out, options.json_path, doc, failed_inputs, summary, ours_wrong);
}

}  // namespace spgraph::bench
