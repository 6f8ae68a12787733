#include "mcl_program.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spgraph/algorithms/cluster_agreement.hpp"
#include "spgraph/error.hpp"
#include "table.hpp"

namespace spgraph::bench {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The graph as mcl's label input: one line "u<TAB>v<TAB>weight" per stored link, the labels our
// vertex ids, the weight 1 for a pattern, else the loaded value as the shortest text that reads
// back exactly. A vertex in no link of positive weight gets a loop line "v<TAB>v<TAB>1": mcl drops
// input loops but then knows the vertex, which becomes a cluster of its own, as in ours.
void write_abc(const Csr<double>& g, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  std::vector<char> seen(static_cast<std::size_t>(g.nrows), 0);
  std::string buf;
  char num[32];
  auto field = [&](auto x, char end) {
    buf.append(num, std::to_chars(num, num + sizeof num, x).ptr);
    buf.push_back(end);
  };
  auto flush = [&](bool always) {
    if (!always && buf.size() < (1u << 20)) return;
    if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) {
      std::fclose(f);
      throw Error(path + ": write error: " + std::strerror(errno));
    }
    buf.clear();
  };
  for (vid_t u = 0; u < g.nrows; ++u)
    for (eid_t p = g.rowptr[u]; p < g.rowptr[u + 1]; ++p) {
      const vid_t v = g.col[p];
      const double w = g.is_pattern() ? 1.0 : g.val[p];
      field(u, '\t');
      field(v, '\t');
      field(w, '\n');
      if (w > 0) seen[u] = seen[v] = 1;
      flush(false);
    }
  for (vid_t v = 0; v < g.nrows; ++v)
    if (!seen[v]) {
      field(v, '\t');
      field(v, '\t');
      field(1, '\n');
    }
  flush(true);
  if (std::fclose(f) != 0) throw Error(path + ": write error: " + std::strerror(errno));
}

MclLog parse_mcl_log(const std::string& path) {
  MclLog log;
  for (const std::string& line : read_lines(path)) {
    std::istringstream fields(line.substr(std::min(line.find_first_not_of('.'), line.size())));
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.size() >= 8 && std::all_of(f[0].begin(), f[0].end(), [](char c) { return c >= '0' && c <= '9'; }))
      log.iterations = std::max(log.iterations, std::stoi(f[0]));
    else if (f.size() == 4 && f[0] == "[mcl]" && f[2] == "clusters" && f[3] == "found")
      log.clusters = std::stoll(f[1]);
    else if (line.starts_with("[mcl] jury pruning synopsis: "))
      log.jury = line.substr(line.find('<'), line.find('>') - line.find('<') + 1);
  }
  return log;
}

}  // namespace

std::vector<std::vector<vid_t>> read_mcl_clusters(const std::string& path, vid_t n) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read mcl's clusters: " + std::strerror(errno));
  std::vector<std::vector<vid_t>> clusters;
  std::string line;
  for (long long line_no = 1; std::getline(in, line); ++line_no) {
    std::vector<vid_t>& c = clusters.emplace_back();
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end) {
      vid_t v = -1;
      const auto [next, ec] = std::from_chars(p, end, v);
      if (ec != std::errc() || v < 0 || v >= n || (next != end && *next != '\t'))
        throw Error(path + ":" + std::to_string(line_no) + ": not a vertex id below " + std::to_string(n) + ": '" +
                    line.substr(static_cast<std::size_t>(p - line.data()), 20) + "'");
      c.push_back(v);
      p = next + (next != end);
    }
  }
  return clusters;
}

std::string default_mcl_program() {
  const char* env = std::getenv("MCL_PROGRAM");
  if (env && *env) return env;
  return fs::exists(kDebianMcl) ? kDebianMcl : "";
}

void check_mcl_version(const std::string& program, const TempDir& dir) {
  const std::string log = dir.file("version.txt");
  const ProcessResult r = run_process({program, "--version"}, log, 30);
  const std::vector<std::string> lines = read_lines(log);
  const std::string first = lines.empty() ? "" : lines.front();
  if (!r.ok() || first != kMclVersion)
    throw Error(program + " --version: " + r.describe() + ", says '" + first + "'; bench_mcl needs van Dongen's " +
                kMclVersion + " (Debian's package mcl): name it with --mcl PATH or MCL_PROGRAM, or pass --no-mcl");
}

MclRun run_mcl(const MclProgram& program, const Csr<double>& g, const std::string& name, double inflation,
               const TempDir& dir) {
  MclRun m;
  try {
    const std::string abc = dir.file(name + ".abc"), clusters = dir.file(name + ".clusters"),
                      log = dir.file(name + ".log");
    write_abc(g, abc);
    const ProcessResult r = run_process(
        {program.path, abc, "--abc", "-I", fixed(inflation, 1), "-te", std::to_string(program.threads), "-o", clusters},
        log, program.timeout_s);
    fs::remove(abc);
    if (!program.logs.empty())
      fs::copy_file(log, fs::path(program.logs) / (name + ".mcl.log"), fs::copy_options::overwrite_existing);
    m.seconds = r.seconds;
    if (r.timed_out) {
      m.status = "timed out: killed after " + fixed(r.seconds, 1) + " s (--mcl-timeout)";
      return m;
    }
    if (!r.ok()) {
      const auto lines = read_lines(log);
      m.status = "failed: " + r.describe() + (lines.empty() ? "" : ": " + lines.back());
      return m;
    }
    m.log = parse_mcl_log(log);
    m.clusters = read_mcl_clusters(clusters, g.nrows);
    m.cluster_of = algorithms::cluster_of_each_vertex(m.clusters, g.nrows);
    const auto missing = std::count(m.cluster_of.begin(), m.cluster_of.end(), -1);
    if (missing > 0)
      m.status = "failed: mcl's clusters leave out " + std::to_string(missing) + " vertices";
    else if (m.log.clusters != static_cast<std::int64_t>(m.clusters.size()))
      m.status = "failed: mcl reported " + std::to_string(m.log.clusters) + " clusters and wrote " +
                 std::to_string(m.clusters.size());
    else
      m.status = "ok";
  } catch (const std::exception& e) {
    m.status = failure(e);
  }
  return m;
}

}  // namespace spgraph::bench
