// The generator presets against the real graphs they stand for (seed paper, Table II):
// generation time, then size, longest row and the cost of A*A (intermediate products, exact
// nnz) and of A*A' (products, sampled nnz), side by side with the real graphs' published
// figures. With --rmat, plain R-MAT (Graph500's a, b, c, d) at the same size, to show why the
// presets are not R-MAT.
//
//   bench_generators [--threads N] [--rmat]
// Threads default to all hardware threads; the graphs and the statistics do not depend on it.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"
#include "table.hpp"

namespace {

using namespace spgraph;
using bench::count;
using bench::fixed;
using bench::times;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string with_stderr(const io::ProductStats& p) {
  if (p.exact) return count(static_cast<long long>(p.nnz));
  return count(static_cast<long long>(p.nnz)) + " +- " + bench::percent(p.nnz > 0 ? p.nnz_stderr / p.nnz : 0);
}

void report(const std::string& name, const std::function<Csr<double>()>& generate, const io::GraphShape* real,
            io::NnzCount aa, int threads) {
  auto start = std::chrono::steady_clock::now();
  const Csr<double> a = generate();
  const double generation = seconds_since(start);
  io::StatsOptions options;
  options.aa = aa;
  options.aat = io::NnzCount::Sampled;
  options.threads = threads;
  start = std::chrono::steady_clock::now();
  const io::GraphStats s = io::graph_stats(a, options);
  const double statistics = seconds_since(start);

  std::cout << "\n" << name << ": generated in " << fixed(generation, 2) << " s, statistics in "
            << fixed(statistics, 2) << " s (" << threads << " threads)\n";
  bench::Table t({"", "generated", real ? "real graph" : "", real ? "generated/real" : ""});
  auto row = [&](const std::string& what, double generated, double target, const std::string& shown) {
    if (!real || target <= 0) return t.add_row({what, shown});
    t.add_row({what, shown, count(static_cast<long long>(target)), times(generated / target)});
  };
  const double nnz = static_cast<double>(s.nnz);
  row("vertices", s.nrows, real ? real->n : 0, count(s.nrows));
  row("edges", nnz, real ? static_cast<double>(real->nnz) : 0, count(s.nnz));
  row("longest row", static_cast<double>(s.max_row), real ? static_cast<double>(real->max_row) : 0, count(s.max_row));
  t.add_row({"longest column", count(s.max_column)});
  t.add_row({"empty rows", count(s.empty_rows)});
  t.add_gap();
  const double products = static_cast<double>(s.aa.products);
  row("A*A products", products, real ? real->products : 0, count(s.aa.products));
  t.add_row({"A*A products per edge", fixed(products / nnz, 2), real ? fixed(real->products / static_cast<double>(real->nnz), 2) : ""});
  row(s.aa.exact ? "A*A nnz (exact)" : "A*A nnz (sampled)", s.aa.nnz, real ? real->nnz_aa : 0, with_stderr(s.aa));
  t.add_row({"A*A products per nnz", fixed(products / s.aa.nnz, 2), real ? fixed(real->products / real->nnz_aa, 2) : ""});
  t.add_gap();
  t.add_row({"A*A' products", count(s.aat.products)});
  t.add_row({"A*A' nnz (sampled)", with_stderr(s.aat)});
  t.add_row({"A*A' products per nnz", fixed(static_cast<double>(s.aat.products) / s.aat.nnz, 2)});
  t.print(std::cout);
}

int run(int argc, char** argv) {
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool with_rmat = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
      if (threads < 1) throw Error("--threads needs a positive number");
    } else if (!std::strcmp(argv[i], "--rmat")) {
      with_rmat = true;
    } else {
      throw Error(std::string("unknown argument '") + argv[i] + "'; usage: bench_generators [--threads N] [--rmat]");
    }
  }
  const struct {
    const char* name;
    io::PowerLawParams params;
    const io::GraphShape& real;
  } presets[] = {{"wb_edu_like (vs SuiteSparse Gleich/wb-edu)", io::wb_edu_like(), io::kWbEduShape},
                 {"cit_patents_like (vs SNAP cit-Patents)", io::cit_patents_like(), io::kCitPatentsShape}};
  for (const auto& p : presets) {
    report(p.name, [&] { return io::power_law_graph(p.params, threads); }, &p.real, io::NnzCount::Exact, threads);
    if (!with_rmat) continue;
    io::RmatParams r;
    r.n = p.real.n;
    r.edges = p.real.nnz;
    // R-MAT's A*A is too large to count exactly in reasonable time: its nnz is sampled.
    report(std::string("R-MAT a=0.57 b=c=0.19 d=0.05 at the size of ") + p.name,
           [&] { return io::rmat(r, threads); }, &p.real, io::NnzCount::Sampled, threads);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench_generators: " << e.what() << '\n';
    return 1;
  }
}
