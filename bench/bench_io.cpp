// Reader and writer throughput: a synthetic graph written as Matrix Market text (real and
// pattern), gzip-compressed text and the binary cache, each read back 3 times on one core
// (best and median wall clock); then the text readers (Matrix Market, edge list, gzip) on
// each thread count of --threads, which the readers take from OpenMP. The files are read
// right after being written, so they come from the page cache: this measures parsing, not
// the disk.
//
//   bench_io [--mb 200] [--dir /tmp] [--threads 1,2,4,8,16] [--check]
//   bench_io --write [--vertices 9800000] [--dir /tmp] [--threads 1,2,4,8,16]
// --threads defaults to 1, 2, 4, ... up to the cores. --check exits non-zero when reading
// Matrix Market text on one core runs below 150 MB/s (best of 3).
// --write instead times io::write_vertex_values, the per-vertex output of pagerank: N float
// and N double ranks of a graph with 1-based ids on each thread count, from creating the file
// to its rename (median of 5; the file is removed between runs).
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <omp.h>

#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "spgraph/io/vertex_values.hpp"
#include "table.hpp"

namespace {

using namespace spgraph;
namespace fs = std::filesystem;

constexpr double kRequiredTextMBps = 150.0;
constexpr int kRepeats = 3;
constexpr int kSmallFiles = 2000;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A deterministic random graph with about `entries` entries on 2^20 vertices (7-digit ids):
// row i has a random degree and distinct columns (start + j * 7919 mod 2^20, 7919 odd),
// values in [0, 1) with their full 17 significant digits, as SuiteSparse files carry.
Csr<double> synthetic_graph(eid_t entries) {
  constexpr vid_t n = vid_t{1} << 20;
  const eid_t mean_degree = std::max<eid_t>(1, entries / n);
  std::uint64_t state = 42;
  Csr<double> a;
  a.nrows = a.ncols = n;
  a.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  a.col.reserve(static_cast<std::size_t>(entries + n));
  a.val.reserve(static_cast<std::size_t>(entries + n));
  for (vid_t i = 0; i < n; ++i) {
    const auto degree = static_cast<vid_t>(splitmix64(state) % static_cast<std::uint64_t>(2 * mean_degree + 1));
    const auto start = static_cast<vid_t>(splitmix64(state) % n);
    std::vector<vid_t> cols(static_cast<std::size_t>(degree));
    for (vid_t j = 0; j < degree; ++j) cols[j] = static_cast<vid_t>((start + static_cast<std::int64_t>(j) * 7919) % n);
    std::sort(cols.begin(), cols.end());
    for (vid_t c : cols) {
      a.col.push_back(c);
      a.val.push_back(static_cast<double>(splitmix64(state) >> 11) * 0x1p-53);
    }
    a.rowptr[i + 1] = static_cast<eid_t>(a.col.size());
  }
  return a;
}

// A 10-vertex ring, varied by k, as a small file of a few dozen lines.
Csr<double> sample_small(int k) {
  Csr<double> a;
  a.nrows = a.ncols = 10;
  a.rowptr.clear();
  for (vid_t i = 0; i < 10; ++i) {
    a.rowptr.push_back(i);
    a.col.push_back((i + 1 + k % 8) % 10);
    a.val.push_back(i + 0.5);
  }
  a.rowptr.push_back(10);
  return a;
}

double cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall clock is what is reported and checked; the process's CPU time of the fastest run is
// shown beside it, because on a shared machine the two differ and only the CPU time says
// what one core does.
struct Measured {
  double best_s = 0, median_s = 0, cpu_s = 0;
};

Measured time_runs(const std::function<void()>& run, int repeats) {
  std::vector<std::pair<double, double>> s;  // (wall, cpu)
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    s.emplace_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), cpu_seconds() - c0);
  }
  std::sort(s.begin(), s.end());
  return {s.front().first, s[s.size() / 2].first, s.front().second};
}

std::vector<int> thread_list(const std::string& text) {
  std::vector<int> counts;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    counts.push_back(std::max(1, std::stoi(text.substr(at, comma - at))));
    at = comma + 1;
  }
  return counts;
}

void require_same(const Csr<double>& got, const Csr<double>& want, const std::string& what) {
  if (got.rowptr != want.rowptr || got.col != want.col || (!got.val.empty() && got.val != want.val)) {
    std::cerr << "bench_io: " << what << " read back a different matrix\n";
    std::exit(2);
  }
}

std::string read_whole(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path);
  std::string s(fs::file_size(path), '\0');
  const std::size_t got = std::fread(s.data(), 1, s.size(), f);
  std::fclose(f);
  s.resize(got);
  return s;
}

// Ranks like pagerank's of a graph of n vertices: around 1/n, with all their digits.
template <class T>
std::vector<T> rank_like(vid_t n) {
  std::vector<T> r(static_cast<std::size_t>(n));
  std::uint64_t state = 7;
  for (auto& x : r) x = static_cast<T>((0.15 + 4.0 * static_cast<double>(splitmix64(state) >> 11) * 0x1p-53) / n);
  return r;
}

// bench_io --write: every (type, threads) writes the same bytes, checked against the first
// run's file.
int write_bench(const std::string& dir, vid_t n, const std::vector<int>& thread_counts) {
  constexpr int kWriteRepeats = 5;
  io::LoadedGraph g;
  g.matrix.nrows = g.matrix.ncols = n;
  g.id_base = 1;
  const std::string path = dir + "/ranks.tsv";
  bench::Table table({"values", "threads", "MB", "median s", "MB/s", "min s", "max s"});
  auto run_all = [&](const char* type, const auto& values) {
    std::string reference;
    for (int threads : thread_counts) {
      omp_set_num_threads(threads);
      std::vector<double> s;
      for (int r = 0; r < kWriteRepeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        io::AtomicFile out(path);
        io::write_vertex_values(out, g, values);
        out.commit();
        s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (reference.empty()) reference = read_whole(path);
        else if (r == 0 && read_whole(path) != reference)
          throw std::runtime_error(std::string("different output: ") + type + " on " + std::to_string(threads));
        fs::remove(path);  // outside the timing: dropping 300 MB of page cache is not the write's
      }
      std::sort(s.begin(), s.end());
      const double mb = static_cast<double>(reference.size()) / 1e6, median = s[s.size() / 2];
      table.add_row({type, std::to_string(threads), bench::fixed(mb, 1), bench::fixed(median, 3),
                     bench::fixed(mb / median, 0), bench::fixed(s.front(), 3), bench::fixed(s.back(), 3)});
    }
    table.add_gap();
  };
  run_all("float", rank_like<float>(n));
  run_all("double", rank_like<double>(n));
  std::cout << "io::write_vertex_values (fwrite by the calling thread, the next round formatted meanwhile), " << n << " vertices, " << omp_get_num_procs() << " cores, " << dir
            << "\n";
  table.print(std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false, write = false;
  vid_t vertices = 9'800'000;
  double megabytes = 200;
  std::vector<int> thread_counts;
  for (int t = 1; t < omp_get_num_procs(); t *= 2) thread_counts.push_back(t);
  thread_counts.push_back(omp_get_num_procs());
  std::string base = fs::temp_directory_path().string();
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--check") check = true;
    else if (arg == "--write") write = true;
    else if (arg == "--vertices" && k + 1 < argc) vertices = static_cast<vid_t>(std::stoll(argv[++k]));
    else if (arg == "--mb" && k + 1 < argc) megabytes = std::stod(argv[++k]);
    else if (arg == "--dir" && k + 1 < argc) base = argv[++k];
    else if (arg == "--threads" && k + 1 < argc) thread_counts = thread_list(argv[++k]);
    else {
      std::cerr << "usage: bench_io [--mb 200] [--dir DIR] [--threads 1,2,4,8,16] [--check]\n"
                   "       bench_io --write [--vertices 9800000] [--dir DIR] [--threads 1,2,4,8,16]\n";
      return 2;
    }
  }
  std::string dir = base + "/spgraph-bench-io-XXXXXX";
  if (!::mkdtemp(dir.data())) {
    std::perror(("bench_io: cannot create a folder under " + base).c_str());
    return 2;
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() { fs::remove_all(dir); }
  } cleanup{dir};

  try {
    if (write) return write_bench(dir, vertices, thread_counts);
    // ~33 bytes per "row col value" line with 7-digit ids and 17-digit values.
    const Csr<double> a = synthetic_graph(static_cast<eid_t>(megabytes * 1e6 / 33));
    const Csr<double> p = drop_values(a);
    const std::string mtx = dir + "/g.mtx", gz = dir + "/g.mtx.gz", pattern = dir + "/p.mtx",
                      cache = dir + "/g.spgcsr";

    bench::Table table({"step", "file", "MB", "best s", "median s", "MB/s best", "MB/s median", "CPU s (best)"});
    auto add = [&](const std::string& step, const std::string& file, std::uint64_t bytes, Measured m) {
      const double mb = static_cast<double>(bytes) / 1e6;
      table.add_row({step, file, bench::fixed(mb, 1), bench::fixed(m.best_s, 3), bench::fixed(m.median_s, 3),
                     bench::fixed(mb / m.best_s, 1), bench::fixed(mb / m.median_s, 1), bench::fixed(m.cpu_s, 3)});
      return mb / m.best_s;
    };

    omp_set_num_threads(1);  // the first table is one core's
    const Measured w_mtx = time_runs([&] { io::write_matrix_market(mtx, a); }, 1);
    const Measured w_gz = time_runs([&] { io::write_matrix_market(gz, a); }, 1);
    const Measured w_pat = time_runs([&] { io::write_matrix_market(pattern, p); }, 1);
    const Measured w_cache = time_runs([&] { io::write_csr_cache(cache, a); }, 1);
    const std::uint64_t mtx_bytes = fs::file_size(mtx), pattern_bytes = fs::file_size(pattern);

    Csr<double> got;
    const double text_rate =
        add("read", "g.mtx (real)", mtx_bytes, time_runs([&] { got = io::read_matrix_market(mtx).matrix; }, kRepeats));
    require_same(got, a, "g.mtx");
    const double pattern_rate = add("read", "p.mtx (pattern)", pattern_bytes,
                                    time_runs([&] { got = io::read_matrix_market(pattern).matrix; }, kRepeats));
    require_same(got, p, "p.mtx");
    // gzip rates count the uncompressed text, the bytes the parser walks.
    add("read", "g.mtx.gz (as text MB)", mtx_bytes,
        time_runs([&] { got = io::read_matrix_market(gz).matrix; }, kRepeats));
    require_same(got, a, "g.mtx.gz");
    add("read", "g.spgcsr", fs::file_size(cache), time_runs([&] { got = io::read_csr_cache(cache).matrix; }, kRepeats));
    require_same(got, a, "g.spgcsr");
    // Many small files: what a load costs beyond its bytes (buffers, opening the file).
    std::vector<std::string> small;
    for (int k = 0; k < kSmallFiles; ++k) {
      small.push_back(dir + "/s" + std::to_string(k) + ".mtx");
      io::write_matrix_market(small.back(), sample_small(k));
    }
    std::uint64_t small_bytes = 0;
    for (const auto& f : small) small_bytes += fs::file_size(f);
    const Measured m_small = time_runs([&] {
      for (const auto& f : small) got = io::read_matrix_market(f).matrix;
    }, kRepeats);
    add("read", std::to_string(kSmallFiles) + " small .mtx", small_bytes, m_small);
    table.add_gap();
    add("write", "g.mtx", mtx_bytes, w_mtx);
    add("write", "g.mtx.gz (as text MB)", mtx_bytes, w_gz);
    add("write", "p.mtx", pattern_bytes, w_pat);
    add("write", "g.spgcsr", fs::file_size(cache), w_cache);

    std::cout << "spgraph I/O, one core, files in the page cache (" << a.nnz() << " entries, " << a.nrows
              << " vertices; gz is " << bench::fixed(static_cast<double>(fs::file_size(gz)) / 1e6, 1) << " MB)\n";
    table.print(std::cout);
    std::cout << "small files: " << bench::fixed(kSmallFiles / m_small.best_s, 0) << " files/s (best of " << kRepeats
              << ")\n\n";

    // The text readers on each thread count: MB/s of text (a .gz counts its text) and the
    // speed-up over one thread.
    const std::string txt = dir + "/g.txt";
    io::write_edge_list(txt, a);
    const std::uint64_t txt_bytes = fs::file_size(txt);
    bench::Table scaling({"threads", "file", "MB", "best s", "MB/s best", "x 1 thread"});
    struct Reader {
      std::string file;
      std::uint64_t bytes;
      std::function<Csr<double>()> read;
      double one_thread_s = 0;
    };
    std::vector<Reader> readers = {
        {"g.mtx (real)", mtx_bytes, [&] { return io::read_matrix_market(mtx).matrix; }},
        {"p.mtx (pattern)", pattern_bytes, [&] { return io::read_matrix_market(pattern).matrix; }},
        {"g.txt (edge list)", txt_bytes, [&] { return io::read_edge_list(txt).matrix; }},
        {"g.mtx.gz (as text MB)", mtx_bytes, [&] { return io::read_matrix_market(gz).matrix; }}};
    for (Reader& r : readers) {
      for (int threads : thread_counts) {
        omp_set_num_threads(threads);
        const Measured m = time_runs([&] { got = r.read(); }, kRepeats);
        require_same(got, r.file.starts_with("p.") ? p : a, r.file);
        if (threads == 1 || r.one_thread_s == 0) r.one_thread_s = m.best_s;
        const double mb = static_cast<double>(r.bytes) / 1e6;
        scaling.add_row({std::to_string(threads), r.file, bench::fixed(mb, 1), bench::fixed(m.best_s, 3),
                         bench::fixed(mb / m.best_s, 1), bench::fixed(r.one_thread_s / m.best_s, 2)});
      }
      scaling.add_gap();
    }
    std::cout << "text readers against threads (" << omp_get_num_procs() << " cores)\n";
    scaling.print(std::cout);
    const double slowest = std::min(text_rate, pattern_rate);
    if (check && slowest < kRequiredTextMBps) {
      std::cerr << "bench_io: Matrix Market text read at " << bench::fixed(slowest, 1) << " MB/s, below the required "
                << kRequiredTextMBps << " MB/s\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_io: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
