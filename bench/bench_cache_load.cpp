// Loading a .spgcsr cache from the page cache: read_csr_cache's wall time and GB/s (file bytes
// per second) with and without checksum verification, for each thread count, with the time of
// each of its steps (open, allocate, read, check, labels). The file is read once untimed first,
// so every timed read finds it in the page cache: this measures memory and CPU, not the disk.
// Each read gets freshly mapped memory, as a process's first load does (see main).
//
//   bench_cache_load [--preset wb-edu|cit-patents] [--scale K] [--values] [--input FILE.spgcsr]
//                    [--threads 1,4,16] [--repeats N] [--dir DIR] [--json FILE]
// Default: the wb-edu-like preset at 1/10 of its size (about 30 MB), written to a temporary
// folder; --scale 1 is the full graph (about 300 MB), the size the target is set for.
// --threads defaults to 1 and all hardware threads.
#include <malloc.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "json_output.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/generators.hpp"
#include "table.hpp"

namespace {

using namespace spgraph;
using bench::fixed;
namespace fs = std::filesystem;

struct Options {
  std::string preset = "wb-edu";
  int scale = 10;
  bool values = false;
  std::string input;
  std::vector<int> threads;
  int repeats = 5;
  std::string dir = fs::temp_directory_path().string();
  std::string json_path;
};

constexpr const char* kUsage =
    "usage: bench_cache_load [--preset wb-edu|cit-patents] [--scale K] [--values] [--input FILE.spgcsr] "
    "[--threads 1,4,16] [--repeats N] [--dir DIR] [--json FILE]";

int positive(const std::string& flag, const std::string& text) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || v < 1) throw Error(flag + " needs a positive whole number, not '" + text + "'");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value; " + kUsage);
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage << '\n';
      std::exit(0);
    } else if (arg == "--preset") {
      o.preset = value();
      if (o.preset != "wb-edu" && o.preset != "cit-patents") throw Error("--preset: wb-edu or cit-patents");
    } else if (arg == "--scale") o.scale = positive(arg, value());
    else if (arg == "--values") o.values = true;
    else if (arg == "--input") o.input = value();
    else if (arg == "--repeats") o.repeats = positive(arg, value());
    else if (arg == "--dir") o.dir = value();
    else if (arg == "--json") o.json_path = value();
    else if (arg == "--threads") {
      const std::string list = value();
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        o.threads.push_back(positive(arg, list.substr(start, comma - start)));
        start = comma + 1;
      }
    } else {
      throw Error("unknown argument '" + arg + "'; " + kUsage);
    }
  }
  if (o.threads.empty()) {
    o.threads = {1};
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (all > 1) o.threads.push_back(all);
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Measured {
  int threads = 0;
  bool checksum = true;
  double best_s = 0, median_s = 0;
  io::CsrCacheReadPhases phases;  // the median of each step over the timed reads
};

Measured measure(const std::string& path, int threads, bool checksum, int repeats) {
  io::CsrCacheReadOptions options;
  options.threads = threads;
  options.verify_checksum = checksum;
  io::CsrCacheReadPhases phases;
  options.phases = &phases;
  io::read_csr_cache(path, options);  // warm-up: page cache, allocator, thread start
  std::vector<double> wall, open, allocate, read, check, labels;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    io::read_csr_cache(path, options);
    wall.push_back(seconds_since(start));
    open.push_back(phases.open);
    allocate.push_back(phases.allocate);
    read.push_back(phases.read);
    check.push_back(phases.check);
    labels.push_back(phases.labels);
  }
  Measured m{threads, checksum, *std::min_element(wall.begin(), wall.end()), median(wall), {}};
  m.phases = {median(open), median(allocate), median(read), median(check), median(labels)};
  return m;
}

std::string ms(double seconds) { return fixed(seconds * 1e3, 1); }

// "model name" of /proc/cpuinfo: which machine the numbers are from.
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.starts_with("model name")) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

int run(const Options& o) {
  std::string path = o.input, dir;
  std::string source = o.input;
  double write_s = -1;
  if (path.empty()) {
    dir = o.dir + "/spgraph-bench-cache-XXXXXX";
    if (!::mkdtemp(dir.data())) throw Error("cannot create a folder under " + o.dir);
    io::PowerLawParams p = o.preset == "wb-edu" ? io::wb_edu_like() : io::cit_patents_like();
    if (o.scale > 1) p = io::scaled(p, o.scale);
    p.random_values = o.values;
    auto start = std::chrono::steady_clock::now();
    const Csr<double> a = io::power_law_graph(p, 0);
    const double generate_s = seconds_since(start);
    path = dir + "/graph.spgcsr";
    start = std::chrono::steady_clock::now();
    io::write_csr_cache(path, a);
    write_s = seconds_since(start);
    source = o.preset + "-like, 1/" + std::to_string(o.scale) + (o.values ? ", valued" : ", pattern");
    std::cout << "generated " << source << " in " << fixed(generate_s, 2) << " s, written in " << fixed(write_s, 2)
              << " s\n";
    // Every read must give back what was written.
    if (const Csr<double> back = io::read_csr_cache(path).matrix;
        back.rowptr != a.rowptr || back.col != a.col || back.val != a.val)
      throw Error("the cache read back a different matrix");
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      if (!dir.empty()) fs::remove_all(dir);
    }
  } cleanup{dir};

  const double bytes = static_cast<double>(fs::file_size(path));
  const io::CsrCache sample = io::read_csr_cache(path);
  std::cout << path << ": " << bench::count(sample.matrix.nrows) << " rows, " << bench::count(sample.matrix.nnz())
            << " entries, " << fixed(bytes / 1e6, 1) << " MB; " << cpu_model() << ", "
            << std::thread::hardware_concurrency() << " hardware threads; median and best of " << o.repeats
            << " reads\n";

  bench::Table t({"threads", "checksum", "median s", "best s", "GB/s", "open ms", "allocate ms", "read ms", "check ms",
                  "labels ms"});
  nlohmann::json runs = nlohmann::json::array();
  for (int threads : o.threads) {
    for (bool checksum : {true, false}) {
      const Measured m = measure(path, threads, checksum, o.repeats);
      t.add_row({std::to_string(threads), checksum ? "yes" : "no", fixed(m.median_s, 4), fixed(m.best_s, 4),
                 fixed(bytes / m.median_s / 1e9, 2), ms(m.phases.open), ms(m.phases.allocate), ms(m.phases.read),
                 ms(m.phases.check), ms(m.phases.labels)});
      runs.push_back({{"threads", threads},
                      {"checksum", checksum},
                      {"median_s", m.median_s},
                      {"best_s", m.best_s},
                      {"gb_per_s_median", bytes / m.median_s / 1e9},
                      {"gb_per_s_best", bytes / m.best_s / 1e9},
                      {"phases_median_s",
                       {{"open", m.phases.open},
                        {"allocate", m.phases.allocate},
                        {"read", m.phases.read},
                        {"check", m.phases.check},
                        {"labels", m.phases.labels}}}});
    }
  }
  t.print(std::cout);
  if (!o.json_path.empty()) {
    bench::write_json_file(o.json_path, {{"benchmark", "cache_load"},
                                         {"source", source},
                                         {"bytes", bytes},
                                         {"nrows", sample.matrix.nrows},
                                         {"nnz", sample.matrix.nnz()},
                                         {"cpu", cpu_model()},
                                         {"hardware_threads", std::thread::hardware_concurrency()},
                                         {"repeats", o.repeats},
                                         {"write_s", write_s},
                                         {"runs", runs}});
    std::cout << "JSON: " << o.json_path << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // glibc raises its mmap threshold (up to 32 MiB) after a large free, so later reads would
  // reuse warm heap pages; fixed at its start value, every read maps fresh pages, as the one
  // load of a process does.
  ::mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "bench_cache_load: " << e.what() << '\n';
    return 1;
  }
}
