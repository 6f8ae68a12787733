// HipMCL's algorithm (Azad, Pavlopoulos, Ouzounis, Kyrpides and Buluç, 2018: the driver
// Applications/MCL.cpp of CombBLAS, github.com/PASSIONLab/CombBLAS) on Debian's CombBLAS 1.6.2
// (libcombblas-dev), the anchor that `bench_mcl --gpus` runs under mpirun beside our jobs
// (docs/performance/mcl.md, "The CombBLAS anchor"). The package installs the library, not HipMCL's
// driver, nor its connected components (CC.h) or cluster writer: this is that loop, written for our
// inputs. On P ranks, P a square (1.6.2's 2D grid aborts otherwise; refused here with exit status 2):
//
//   read       a Matrix Market file (ParallelReadMM; repeated entries keep the largest weight, a
//              "symmetric" file gets both directions), zero weights dropped, negative ones refused
//   build      made symmetric as our MCL does (the larger weight of the two directions, where HipMCL
//              adds A and A'), loops set to each column's largest weight (1 where none: HipMCL's
//              AdjustLoops), column-stochastic; pruned once first (MCLPruneRecoverySelect) where the
//              average degree passes max(S, R) or with --preprune, as HipMCL does
//   iterate    until chaos < 1e-4 (HipMCL's criterion, measured after the pruning, see below):
//                A = MemEfficientSpGEMM(A, A) in `phases` phases, each pruned by
//                    MCLPruneRecoverySelect (entries <= 1/P dropped, at most S kept a column, up
//                    to R recovered while the kept mass is below pct); the phases from
//                    --per-process-mem by HipMCL's memory model (phases_for), one without it
//                A column-stochastic; chaos = max over columns of (max - sum of squares) * entries
//                A = A .^ I, column-stochastic
//   interpret  HipMCL's rule: the clusters are the connected components of the last matrix made
//              symmetric (every stored entry a link), gathered to rank 0 and found by union-find
//
// Writes the clusters one a line, members 0-based vertex ids separated by tabs, largest first
// (equal sizes by smallest member), as mcl writes them with --abc when the labels are our ids;
// prints a line per iteration and, last, one line "hipmcl_anchor_result: {JSON}" with the times
// (build + iterate + interpret is the run's time, as our MclResult's), the iterations, phases,
// clusters, ParFriends.h's expansion timers (compiled with -DTIMING; rank 0's) and the peak
// resident set (the most over ranks). Each timed part lies between two barriers: rank 0's clock
// then gives the slowest rank's time.
#include <mpi.h>
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "CombBLAS/CombBLAS.h"

// CombBLAS.h declares these extern for the application to define (HipMCL's MCL.cpp does);
// ParFriends.h adds the expansion's times to the mcl_ ones where TIMING is defined.
int cblas_splits = 1;
double cblas_alltoalltime, cblas_allgathertime, cblas_localspmvtime, cblas_mergeconttime, cblas_transvectime;
double mcl_Abcasttime, mcl_Bbcasttime, mcl_localspgemmtime, mcl_multiwaymergetime, mcl_kselecttime,
    mcl_prunecolumntime;

namespace {

using combblas::SpParMat;
using Local = combblas::SpDCCols<std::int64_t, double>;
using Matrix = SpParMat<std::int64_t, double, Local>;
using Vector = combblas::FullyDistVec<std::int64_t, double>;
using Semiring = combblas::PlusTimesSRing<double, double>;

constexpr double kChaosLimit = 1e-4;  // HipMCL's EPS, and mcl's
constexpr int kKselect = 1;           // HipMCL's default selection (tournament select)
constexpr const char* kResultTag = "hipmcl_anchor_result: ";

struct Options {
  std::string input, output;
  double inflation = 2.0;
  std::int64_t prune_number = 10000;  // entries <= 1/P dropped
  std::int64_t select_number = 1100;
  std::int64_t recover_number = 1400;
  double recover_percent = 90;
  std::uint64_t per_process_bytes = 0;  // 0: none, one phase an expansion (HipMCL's default)
  int max_iterations = 10000;
  bool preprune = false;
};

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void say(const std::string& s) {
  if (world_rank() == 0) {
    std::fputs(s.c_str(), stdout);
    std::fflush(stdout);
  }
}

// The command line: HipMCL's names for its options, but --pct (CLI11's single-dash names are
// one letter).
void add_options(CLI::App& app, Options& o) {
  app.add_option("GRAPH", o.input, "a Matrix Market file")->required();
  app.add_option("-o", o.output, "the clusters (default GRAPH.hipmcl)");
  app.add_option("-I", o.inflation, "inflation")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("-P", o.prune_number, "prune entries <= 1/N")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("-S", o.select_number, "keep at most N entries a column")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("-R", o.recover_number, "recover up to N entries a column ...")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--pct", o.recover_percent, "... while the kept mass is below X percent")
      ->check(CLI::Range(0.0, 100.0) & CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--per-process-mem", o.per_process_bytes,
                 "bytes a process may use, for the number of phases by HipMCL's memory model (suffix K, M, "
                 "G, T: powers of 1024; default none: one phase an expansion, as HipMCL)")
      ->type_name("BYTES")
      ->transform(CLI::AsSizeValue(false).description(""));
  app.add_flag("--preprune", o.preprune,
               "prune once before the first iteration (also done where the average degree passes max(S, R))");
  app.add_option("--max-iterations", o.max_iterations, "stop after N iterations, not converged")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

double most(double x) {
  double m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

double total(double x) {
  double s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

// Seconds since `start`, after a barrier: every rank is done, so rank 0's clock is the slowest's.
double since(double start) {
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime() - start;
}

void make_column_stochastic(Matrix& a) {
  Vector sums = a.Reduce(combblas::Column, std::plus<double>(), 0.0);
  sums.Apply(combblas::safemultinv<double>());
  a.DimApply(combblas::Column, sums, std::multiplies<double>());
}

// HipMCL's chaos: over the columns, the largest of (max - sum of squares) times the entries.
double chaos(const Matrix& a) {
  Vector squares = a.Reduce(combblas::Column, std::plus<double>(), 0.0, [](double v) { return v * v; });
  Vector peaks = a.Reduce(combblas::Column, combblas::maximum<double>(), 0.0);
  const Vector entries = a.Reduce(combblas::Column, std::plus<double>(), 0.0, [](double) { return 1.0; });
  peaks -= squares;
  peaks.EWiseApply(entries, std::multiplies<double>());
  return peaks.Reduce(combblas::maximum<double>(), 0.0);
}

// The phases of the next expansion of `a` by HipMCL's memory model (MemEfficientSpGEMM's
// estimate where -per-process-mem is given): 24 bytes an entry (two 8-byte indices, a double);
// held besides the phases: four copies of the largest local block of A (its own, its SUMMA
// copies) and the output, at most max(S, R) entries a column twice; split in phases: twice the
// unmerged product's entries estimated over SUMMA's stages (EstPerProcessNnzSUMMA, the most a
// rank) and the selection's 24 bytes for each kept entry of a column. The most over ranks, so that
// every rank runs as many (their local columns differ at the grid's edge). 1 where the held part
// alone passes the budget, as HipMCL keeps the phases then.
int phases_for(Matrix& a, double budget, const Options& o, int ranks, bool* over_budget) {
  constexpr double entry = 2 * sizeof(std::int64_t) + sizeof(double);
  const double held_in = 4 * entry * most(double(a.getlocalnnz()));
  const double unmerged = double(combblas::EstPerProcessNnzSUMMA(a, a));
  const double columns = std::max<double>(1, double(a.getlocalcols()));
  const double grid_side = std::sqrt(double(ranks));
  const double per_column = std::ceil(unmerged * grid_side / columns);
  const double kept = std::min(double(std::max(o.select_number, o.recover_number)), per_column);
  const double held_out = 2 * entry * (columns * kept / grid_side);
  const double split = 2 * entry * unmerged + 3 * 8.0 * columns * kept;
  const double left = budget - held_in - held_out;
  *over_budget = left <= 0;
  const double phases = left > 0 ? 1 + std::floor(split / left) : 1;
  return int(most(std::min(phases, 1e6)));
}

// The global row and column of this rank's block's first entry.
void block_offsets(Matrix& a, std::int64_t* row0, std::int64_t* col0) {
  std::int64_t rows = a.getlocalrows(), cols = a.getlocalcols();
  *row0 = *col0 = 0;
  MPI_Exscan(&rows, row0, 1, MPI_INT64_T, MPI_SUM, a.getcommgrid()->GetColWorld());
  MPI_Exscan(&cols, col0, 1, MPI_INT64_T, MPI_SUM, a.getcommgrid()->GetRowWorld());
  if (a.getcommgrid()->GetRankInProcCol() == 0) *row0 = 0;  // MPI_Exscan leaves the first undefined
  if (a.getcommgrid()->GetRankInProcRow() == 0) *col0 = 0;
}

// HipMCL's interpretation: the connected components of the last matrix with every stored entry a
// link in both directions, on rank 0 (its links gathered there: after convergence about one a
// vertex). Returns on rank 0 the clusters, largest first, equal sizes by smallest member.
std::vector<std::vector<std::int64_t>> components(Matrix& a) {
  const std::int64_t n = a.getnrow();  // collective: before the other ranks return
  std::int64_t row0 = 0, col0 = 0;
  block_offsets(a, &row0, &col0);
  std::vector<std::int64_t> links;
  Local& block = a.seq();
  for (auto c = block.begcol(); c != block.endcol(); ++c)
    for (auto e = block.begnz(c); e != block.endnz(c); ++e)
      if (e.value() > 0) links.insert(links.end(), {e.rowid() + row0, c.colid() + col0});
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool root = world_rank() == 0;
  std::vector<int> counts(ranks), offsets(ranks);
  const int mine = int(links.size());
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::int64_t all = 0;
  if (root)
    for (int r = 0; r < ranks; ++r) {
      offsets[r] = int(all);
      all += counts[r];
    }
  if (all > std::int64_t(INT32_MAX)) {
    say("hipmcl_anchor: the last matrix has too many entries to gather on one rank\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  std::vector<std::int64_t> gathered(root ? std::size_t(all) : 0);
  MPI_Gatherv(links.data(), mine, MPI_INT64_T, gathered.data(), counts.data(), offsets.data(), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  if (!root) return {};
  std::vector<std::int64_t> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), std::int64_t(0));
  const auto find = [&](std::int64_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (std::size_t i = 0; i + 1 < gathered.size(); i += 2) {
    const std::int64_t u = find(gathered[i]), v = find(gathered[i + 1]);
    if (u != v) parent[std::max(u, v)] = std::min(u, v);  // a component's root: its smallest vertex
  }
  std::vector<std::int64_t> index(static_cast<std::size_t>(n), -1);
  std::vector<std::vector<std::int64_t>> clusters;
  for (std::int64_t v = 0; v < n; ++v) {  // members ascending; clusters by smallest member
    std::int64_t& c = index[find(v)];
    if (c < 0) {
      c = std::int64_t(clusters.size());
      clusters.emplace_back();
    }
    clusters[c].push_back(v);
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
  return clusters;
}

bool write_clusters(const std::string& path, const std::vector<std::vector<std::int64_t>>& clusters) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  for (const auto& c : clusters)
    for (std::size_t i = 0; i < c.size(); ++i)
      std::fprintf(f, "%lld%c", (long long)c[i], i + 1 < c.size() ? '\t' : '\n');
  return std::fclose(f) == 0;
}

std::string num(double x) {
  if (!std::isfinite(x)) return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

struct Timers {
  double a_bcast, b_bcast, local, merge, kselect, prune;
  static Timers now() {
    return {mcl_Abcasttime, mcl_Bbcasttime, mcl_localspgemmtime, mcl_multiwaymergetime, mcl_kselecttime,
            mcl_prunecolumntime};
  }
  Timers minus(const Timers& t) const {
    return {a_bcast - t.a_bcast, b_bcast - t.b_bcast, local - t.local, merge - t.merge, kselect - t.kselect,
            prune - t.prune};
  }
  std::string json() const {
    return "{\"a_bcast_s\":" + num(a_bcast) + ",\"b_bcast_s\":" + num(b_bcast) + ",\"local_spgemm_s\":" + num(local) +
           ",\"multiway_merge_s\":" + num(merge) + ",\"kselect_s\":" + num(kselect) +
           ",\"prune_column_s\":" + num(prune) + "}";
  }
};

int run(const Options& o, int ranks) {
  const int side = int(std::lround(std::sqrt(double(ranks))));
  const double budget = double(o.per_process_bytes);
  const int threads = omp_get_max_threads();
  {
    std::ostringstream s;
    s << "hipmcl_anchor: " << ranks << " ranks (a " << side << "x" << side << " grid), " << threads
      << " threads a rank; -I " << o.inflation << " -P " << o.prune_number << " -S " << o.select_number << " -R "
      << o.recover_number << " -pct " << o.recover_percent << "; "
      << (budget > 0 ? num(budget / 1e9) + " GB a process" : "one phase an expansion (no --per-process-mem)") << '\n';
    say(s.str());
  }
  if (std::FILE* f = std::fopen(o.input.c_str(), "r")) std::fclose(f);
  else {
    say("hipmcl_anchor: " + o.input + ": cannot read: " + std::strerror(errno) + "\n");
    return 1;
  }
  for (double* t : {&mcl_Abcasttime, &mcl_Bbcasttime, &mcl_localspgemmtime, &mcl_multiwaymergetime,
                    &mcl_kselecttime, &mcl_prunecolumntime})
    *t = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  Matrix a(MPI_COMM_WORLD);
  a.ParallelReadMM(o.input, true, combblas::maximum<double>());
  const double read_s = since(t);
  const std::int64_t n = a.getnrow();
  if (n != a.getncol()) {
    say("hipmcl_anchor: " + o.input + ": not a square matrix\n");
    return 1;
  }
  const std::int64_t links = a.getnnz();

  t = MPI_Wtime();
  double bad = 0;  // negative or not finite
  for (auto c = a.seq().begcol(); c != a.seq().endcol(); ++c)
    for (auto e = a.seq().begnz(c); e != a.seq().endnz(c); ++e) bad += !(e.value() >= 0) || !std::isfinite(e.value());
  if ((bad = total(bad)) > 0) {
    say("hipmcl_anchor: " + o.input + ": " + num(bad) + " weights are negative or not numbers\n");
    return 1;
  }
  a.Prune([](double v) { return v == 0; });  // a zero weight is no link, as in ours
  {
    Matrix at = a;
    at.Transpose();
    a = combblas::EWiseApply<double, Local>(
        a, at, [](double x, double y) { return std::max(x, y); }, [](double, double) { return true; }, true, true, 0.0,
        0.0, true);
  }
  a.RemoveLoops();
  Vector loops = a.Reduce(combblas::Column, combblas::maximum<double>(), 0.0);
  loops.Apply([](double v) { return v > 0 ? v : 1.0; });  // a vertex without links: a loop of 1
  a.AddLoops(loops);
  make_column_stochastic(a);
  const std::int64_t entries0 = a.getnnz();
  const bool preprune = o.preprune || entries0 / n > std::max(o.select_number, o.recover_number);
  const double cutoff = 1.0 / double(o.prune_number), pct = o.recover_percent / 100;
  if (preprune)
    combblas::MCLPruneRecoverySelect(a, cutoff, o.select_number, o.recover_number, pct, kKselect);
  const double build_s = since(t);
  {
    std::ostringstream s;
    s << "read " << num(read_s) << " s: " << n << " vertices, " << links << " entries; built in " << num(build_s)
      << " s: " << entries0 << " entries with loops" << (preprune ? ", pruned once before the first iteration" : "")
      << '\n';
    say(s.str());
  }

  std::ostringstream per;  // the iterations as JSON
  double chaos_now = 1, iterate_s = 0;
  int iteration = 0, phases_total = 0, phases_most = 0;
  bool over_budget = false;
  t = MPI_Wtime();
  while (chaos_now > kChaosLimit && iteration < o.max_iterations) {
    ++iteration;
    const double start = MPI_Wtime();
    const Timers before = Timers::now();
    bool over = false;
    // HipMCL's own rule: phases from its memory model only where a budget is given. The model's
    // estimate (EstPerProcessNnzSUMMA) is a symbolic product, about as long as the expansion's own.
    const int phases = budget > 0 ? phases_for(a, budget, o, ranks, &over) : 1;
    over_budget |= over;
    a = combblas::MemEfficientSpGEMM<Semiring, double, Local>(a, a, phases, cutoff, o.select_number,
                                                              o.recover_number, pct, kKselect, 0);
    const double expand_s = since(start);
    const std::int64_t kept = a.getnnz();
    make_column_stochastic(a);
    chaos_now = chaos(a);
    a.Apply([&](double v) { return std::pow(v, o.inflation); });
    make_column_stochastic(a);
    const double seconds = since(start);
    phases_total += phases;
    phases_most = std::max(phases_most, phases);
    const Timers spent = Timers::now().minus(before);
    char line[200];
    std::snprintf(line, sizeof line, "iteration %3d: chaos %.4g, %lld entries, %d phase%s, %.4f s (expansion %.4f s)\n",
                  iteration, chaos_now, (long long)kept, phases, phases == 1 ? "" : "s", seconds, expand_s);
    say(line);
    per << (iteration > 1 ? "," : "") << "{\"iteration\":" << iteration << ",\"seconds\":" << num(seconds)
        << ",\"expansion_s\":" << num(expand_s) << ",\"chaos\":" << num(chaos_now) << ",\"entries\":" << kept
        << ",\"phases\":" << phases << ",\"timers\":" << spent.json() << "}";
  }
  iterate_s = since(t);
  const bool converged = chaos_now <= kChaosLimit;
  if (over_budget)
    say("hipmcl_anchor: warning: the input and output of an expansion alone pass --per-process-mem: 1 phase\n");

  t = MPI_Wtime();
  const std::vector<std::vector<std::int64_t>> clusters = components(a);
  const double interpret_s = since(t);

  int written = world_rank() == 0 ? int(write_clusters(o.output, clusters)) : 0;
  const std::string why = written ? "" : std::strerror(errno);
  MPI_Bcast(&written, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!written) {
    say("hipmcl_anchor: " + o.output + ": cannot write the clusters: " + why + "\n");
    return 1;
  }
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const double peak = most(double(u.ru_maxrss) * 1024);
  std::ostringstream s;
  s << "clusters: " << clusters.size() << " in " << iteration << " iterations (" << (converged ? "" : "NOT ")
    << "converged, chaos " << num(chaos_now) << "); build + iterate + interpret "
    << num(build_s + iterate_s + interpret_s)
    << " s (iterate " << num(iterate_s) << " s); written to " << o.output << '\n';
  s << kResultTag << "{\"ranks\":" << ranks << ",\"grid\":\"" << side << "x" << side << "\",\"threads\":" << threads
    << ",\"vertices\":" << n << ",\"links\":" << links << ",\"per_process_bytes\":" << num(budget)
    << ",\"preprune\":" << (preprune ? "true" : "false") << ",\"read_s\":" << num(read_s) << ",\"build_s\":"
    << num(build_s) << ",\"iterate_s\":" << num(iterate_s) << ",\"interpret_s\":" << num(interpret_s)
    << ",\"seconds\":" << num(build_s + iterate_s + interpret_s) << ",\"iterations\":" << iteration
    << ",\"converged\":" << (converged ? "true" : "false") << ",\"final_chaos\":" << num(chaos_now)
    << ",\"clusters\":" << clusters.size() << ",\"phases\":" << phases_total << ",\"most_phases\":" << phases_most
    << ",\"peak_host_bytes\":" << num(peak) << ",\"timers\":" << Timers::now().json() << ",\"clusters_file\":\""
    << o.output << "\",\"per_iteration\":[" << per.str() << "]}\n";
  say(s.str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options options;
  CLI::App app{"HipMCL's Markov clustering on CombBLAS 1.6.2: symmetric (the larger weight), loops, "
               "column-stochastic, then until chaos < 1e-4: expansion by MemEfficientSpGEMM with "
               "MCLPruneRecoverySelect, inflation. Clusters: the connected components of the last matrix "
               "(HipMCL's rule), one a line, 0-based ids. Run as mpirun -n P hipmcl_anchor, P a square "
               "(1, 4, 9, ...).",
               "hipmcl_anchor"};
  add_options(app, options);
  int status = -1;  // -1: parsed, go on
  try {
    app.parse(argc, argv);
    if (options.output.empty()) options.output = options.input + ".hipmcl";
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    status = app.exit(e, out, err) == 0 ? 0 : 2;  // --help: 0
    say(out.str() + err.str());
  }
  const int side = int(std::lround(std::sqrt(double(ranks))));
  if (status >= 0) {
    // the command line's answer, printed above
  } else if (side * side != ranks) {
    say("hipmcl_anchor: P = " + std::to_string(ranks) + " is not a square: CombBLAS 1.6.2's 2D grid needs a square " +
        "number of processes (1, 4, 9, ...)\n");
    status = 2;
  } else if (provided < MPI_THREAD_SERIALIZED) {
    say("hipmcl_anchor: this MPI does not provide MPI_THREAD_SERIALIZED\n");
    status = 1;
  } else {
    status = run(options, ranks);
  }
  MPI_Finalize();
  return status;
}
