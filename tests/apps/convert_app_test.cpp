// The `spgraph-convert` program as users run it: every format to every other and back, the
// generated graphs against the generators called directly, the reshaping options against
// graph_ops on the host, the summary line, and the one-line errors that leave no file.
#include <algorithm>
#include <numeric>
#include <random>

#include "app_runner.hpp"
#include "same_graph.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/generators.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::test {
namespace {

const char* const kApp = "spgraph-convert";

AppRun convert(const ScratchDir& dir, const std::string& args) { return run_app(dir, kApp, args); }

// Converts and expects success: exit status 0, nothing on stderr but notes, one line on stdout.
void convert_ok(const ScratchDir& dir, const std::string& args) {
  SCOPED_TRACE(args);
  const AppRun r = convert(dir, args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
  for (const std::string& line : r.err_lines()) EXPECT_EQ(line.rfind("spgraph-convert: note: ", 0), 0u) << line;
}

io::LoadedGraph load(const fs::path& file) { return io::load_graph(file.string()); }

// A random directed graph on a cycle (no vertex without edges), self-loops and weights of
// full precision among its links, written as Matrix Market.
void write_random(const fs::path& file, bool valued) {
  std::mt19937_64 rng(11);
  Coo<double> coo;
  coo.nrows = coo.ncols = 40;
  for (vid_t i = 0; i < 40; ++i) {
    for (vid_t j : {(i + 1) % 40, static_cast<vid_t>(rng() % 40), static_cast<vid_t>(rng() % 40)}) {
      coo.row.push_back(i);
      coo.col.push_back(j);
      coo.val.push_back(static_cast<double>(rng()) / 3.0e15 - 1000);
    }
  }
  Csr<double> a = coo_to_csr(std::move(coo), Duplicates::First);
  io::write_matrix_market(file.string(), valued ? a : drop_values(std::move(a)));
}

// ---- formats

const char* const kNames[] = {"g.mtx", "g.mtx.gz", "g.txt", "g.tsv.gz", "g.csv", "g.abc", "g.abc.gz", "g.spgcsr"};

TEST(ConvertApp, EveryFormatToEveryOtherAndBack) {
  ScratchDir dir;
  write_random(dir / "random-pattern.mtx", false);
  write_random(dir / "random-valued.mtx", true);
  for (const fs::path base : {fs::path(dataset("small/karate.mtx")), fs::path(dataset("small/west0067.mtx")),
                              dir / "random-pattern.mtx", dir / "random-valued.mtx"}) {
    for (const std::string from : kNames) {
      const fs::path start = dir / ("start-" + from);
      convert_ok(dir, quote(base.string()) + " " + quote(start.string()));
      const io::LoadedGraph started = load(start);
      for (const std::string to : kNames) {
        SCOPED_TRACE(base.filename().string() + ": " + from + " -> " + to + " -> " + from);
        const fs::path via = dir / ("via-" + to), back = dir / ("back-" + from);
        convert_ok(dir, quote(start.string()) + " " + quote(via.string()));
        convert_ok(dir, quote(via.string()) + " " + quote(back.string()));
        expect_round_trip_kept(started, load(back), from, to);
      }
    }
  }
}

TEST(ConvertApp, LabelsAndIdsAsTheInputNamesThem) {
  ScratchDir dir;
  // .abc labels survive the cache and .abc; an edge list read with --compact-ids keeps its ids.
  convert_ok(dir, quote(dataset("mcl/cathat.abc")) + " " + quote((dir / "c.spgcsr").string()));
  convert_ok(dir, quote((dir / "c.spgcsr").string()) + " " + quote((dir / "c.abc").string()));
  expect_same_numbered_graph(load(dataset("mcl/cathat.abc")), load(dir / "c.abc"));
  std::ofstream(dir / "sparse.txt") << "1000000000 7\n7 42\n";
  convert_ok(dir, quote((dir / "sparse.txt").string()) + " --compact-ids " + quote((dir / "out.tsv").string()));
  EXPECT_EQ(read_text(dir / "out.tsv"), "1000000000\t7\n7\t42\n");
  // Labels that are not numbers cannot go into Matrix Market: left out, with a note.
  const AppRun r = convert(dir, quote(dataset("mcl/cathat.abc")) + " " + quote((dir / "c.mtx").string()));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("spgraph-convert: note: the labels are left out"), std::string::npos) << r.err;
}

TEST(ConvertApp, ToOverridesTheName) {
  ScratchDir dir;
  const fs::path out = dir / "graph.data";
  convert_ok(dir, quote(dataset("small/karate.mtx")) + " " + quote(out.string()) + " --to spgcsr");
  expect_same_numbered_graph(load(dataset("small/karate.mtx")),
                             io::load_graph(out.string(), {.format = io::GraphFormat::Cache}));
  convert_ok(dir, quote(dataset("small/karate.mtx")) + " " + quote((dir / "k.gz").string()) + " --to edges");
  expect_same_matrix(load(dataset("small/karate.mtx")).matrix,
                     io::load_graph((dir / "k.gz").string(), {.format = io::GraphFormat::EdgeList}).matrix);
}

// A matrix that is not square is no graph, but Matrix Market and the cache hold it as it is.
TEST(ConvertApp, RectangularMatrices) {
  ScratchDir dir;
  std::ofstream(dir / "wide.mtx") << "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 0.5\n2 1 2\n";
  const std::string wide = quote((dir / "wide.mtx").string());
  const AppRun r = convert(dir, wide + " " + quote((dir / "wide.spgcsr").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wide.spgcsr: 2 x 3 matrix, 2 entries (.spgcsr)"), std::string::npos) << r.out;
  convert_ok(dir, quote((dir / "wide.spgcsr").string()) + " " + quote((dir / "back.mtx").string()));
  expect_same_numbered_graph(load(dir / "wide.mtx"), load(dir / "back.mtx"));
  for (const auto& [args, mentions] : std::vector<std::pair<std::string, std::string>>{
           {quote((dir / "w.txt").string()), "the matrix is 2 x 3 and an edge list holds a square"},
           {quote((dir / "w.mtx").string()) + " --symmetrize", "--symmetrize: the matrix is 2 x 3"},
           {quote((dir / "w.mtx").string()) + " --relabel compact", "--relabel: the matrix is 2 x 3"}}) {
    const AppRun refused = convert(dir, wide + " " + args);
    EXPECT_EQ(refused.status, 1);
    expect_app_error(refused, kApp, mentions);
  }
  EXPECT_FALSE(fs::exists(dir / "w.txt"));
  EXPECT_FALSE(fs::exists(dir / "w.mtx"));
}

TEST(ConvertApp, SummaryLine) {
  ScratchDir dir;
  const fs::path out = dir / "k.txt.gz";
  const AppRun r = convert(dir, quote(dataset("small/karate.mtx")) + " " + quote(out.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string line = r.out.substr(0, r.out.find('\n'));
  for (const std::string& part :
       {std::string("karate.mtx: 34 vertices, 156 edges (matrix-market) -> "),
        std::string("k.txt.gz: 34 vertices, 156 edges (edge list, gzip), "),
        std::to_string(fs::file_size(out)) + " bytes; time: load ", std::string(", reshape "), std::string(", write ")})
    EXPECT_NE(line.find(part), std::string::npos) << part << " not in: " << line;
}

// ---- generated graphs

TEST(ConvertApp, GeneratedPresetsAreTheGenerators) {
  ScratchDir dir;
  const struct {
    const char* name;
    io::PowerLawParams params;
  } presets[] = {{"wb-edu", io::wb_edu_like(3)}, {"cit-patents", io::cit_patents_like(3)}};
  for (const auto& preset : presets) {
    SCOPED_TRACE(preset.name);
    const std::string flags = std::string("--generate ") + preset.name + " --scale 400 --seed 3";
    convert_ok(dir, flags + " --threads 1 " + quote((dir / "one.spgcsr").string()));
    convert_ok(dir, flags + " --threads 2 " + quote((dir / "two.spgcsr").string()));
    EXPECT_EQ(read_text(dir / "one.spgcsr"), read_text(dir / "two.spgcsr"));
    const io::LoadedGraph g = load(dir / "one.spgcsr");
    expect_same_matrix(io::power_law_graph(io::scaled(preset.params, 400)), g.matrix);
    EXPECT_TRUE(g.labels.empty());
    convert_ok(dir, std::string("--generate ") + preset.name + " --scale 400 --seed 4 " +
                        quote((dir / "other.spgcsr").string()));
    EXPECT_NE(load(dir / "other.spgcsr").matrix.col, g.matrix.col) << "another seed, another graph";
  }
}

TEST(ConvertApp, GeneratedRmatIsTheGenerator) {
  ScratchDir dir;
  convert_ok(dir, "--generate rmat --rmat-scale 9 --edge-factor 8 --abc-params 0.45,0.15,0.15 --seed 5 " +
                      quote((dir / "r.mtx").string()));
  io::RmatParams p;
  p.scale = 9;
  p.edges = 8 << 9;
  p.a = 0.45, p.b = 0.15, p.c = 0.15, p.d = 0.25;
  p.seed = 5;
  expect_same_matrix(io::rmat(p), load(dir / "r.mtx").matrix);
  // Graph500's defaults: edge factor 16, a,b,c 0.57,0.19,0.19
  convert_ok(dir, "--generate rmat --rmat-scale 8 --threads 2 " + quote((dir / "d.spgcsr").string()));
  io::RmatParams graph500;
  graph500.scale = 8;
  graph500.edges = 16 << 8;
  expect_same_matrix(io::rmat(graph500), load(dir / "d.spgcsr").matrix);
}

// ---- reshaping, against graph_ops

// An edge list with self-loops, a reciprocal pair of different weights and vertices 3 and 6
// without edges (6 of 0..7 is below the largest id, so the file keeps it).
const char* const kShaped = "0 1 2.5\n1 0 4\n1 1 1\n2 4 0.5\n4 5 3\n5 5 2\n7 2 1.5\n";

TEST(ConvertApp, SymmetrizeDropSelfLoopsPattern) {
  ScratchDir dir;
  std::ofstream(dir / "in.txt") << kShaped;
  const Csr<double> a = load(dir / "in.txt").matrix;
  const std::string in = quote((dir / "in.txt").string()), out = quote((dir / "out.mtx").string());
  convert_ok(dir, in + " " + out + " --symmetrize");
  expect_same_matrix(symmetrize(a, Duplicates::Max), load(dir / "out.mtx").matrix);
  convert_ok(dir, in + " " + out + " --drop-self-loops");
  expect_same_matrix(remove_self_loops(a), load(dir / "out.mtx").matrix);
  convert_ok(dir, in + " " + out + " --pattern");
  expect_same_matrix(drop_values(a), load(dir / "out.mtx").matrix);
  convert_ok(dir, in + " " + out + " --symmetrize --drop-self-loops --pattern");
  expect_same_matrix(drop_values(remove_self_loops(symmetrize(a, Duplicates::Max))), load(dir / "out.mtx").matrix);
}

// The matrix with new vertex k being old vertex order[k] (the others dropped).
Csr<double> renumbered(const Csr<double>& a, const std::vector<vid_t>& order) {
  std::vector<vid_t> number(a.nrows, -1);
  for (std::size_t k = 0; k < order.size(); ++k) number[order[k]] = static_cast<vid_t>(k);
  Coo<double> coo = csr_to_coo(a);
  for (eid_t k = 0; k < static_cast<eid_t>(coo.row.size()); ++k) {
    EXPECT_GE(number[coo.row[k]], 0);
    EXPECT_GE(number[coo.col[k]], 0);
    coo.row[k] = number[coo.row[k]];
    coo.col[k] = number[coo.col[k]];
  }
  coo.nrows = coo.ncols = static_cast<vid_t>(order.size());
  return coo_to_csr(std::move(coo));
}

TEST(ConvertApp, Relabel) {
  ScratchDir dir;
  std::ofstream(dir / "in.txt") << kShaped;
  const Csr<double> a = load(dir / "in.txt").matrix;
  const std::vector<eid_t> out = out_degrees(a), in = in_degrees(a);
  const std::string input = quote((dir / "in.txt").string());

  std::vector<vid_t> linked;  // compact: the vertices with an edge, in order
  for (vid_t v = 0; v < a.nrows; ++v)
    if (out[v] + in[v] > 0) linked.push_back(v);
  EXPECT_EQ(linked, (std::vector<vid_t>{0, 1, 2, 4, 5, 7}));
  convert_ok(dir, input + " " + quote((dir / "c.mtx").string()) + " --relabel compact");
  expect_same_matrix(renumbered(a, linked), load(dir / "c.mtx").matrix);

  std::vector<vid_t> by_degree(a.nrows);  // degree: out + in, decreasing, ties in order
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](vid_t x, vid_t y) { return out[x] + in[x] > out[y] + in[y]; });
  convert_ok(dir, input + " " + quote((dir / "d.mtx").string()) + " --relabel degree");
  expect_same_matrix(renumbered(a, by_degree), load(dir / "d.mtx").matrix);

  // The labels of an .abc are names, which move with their vertices.
  convert_ok(dir, quote(dataset("mcl/cathat.abc")) + " " + quote((dir / "cat.spgcsr").string()) + " --relabel degree");
  expect_same_named_graph(load(dataset("mcl/cathat.abc")), load(dir / "cat.spgcsr"));
  // Ids kept by --compact-ids are numbers, which the new numbering replaces.
  std::ofstream(dir / "sparse.txt") << "900 7\n7 42\n42 7\n";
  convert_ok(dir, quote((dir / "sparse.txt").string()) + " --compact-ids --relabel degree " +
                      quote((dir / "sparse-out.txt").string()));
  EXPECT_EQ(read_text(dir / "sparse-out.txt"), "0\t1\n1\t0\n2\t0\n");  // 7 (degree 3), 42 (2), 900 (1)
}

// ---- errors

TEST(ConvertApp, UsageErrors) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  const std::string out = quote((dir / "out.txt").string());
  expect_usage_errors(dir, kApp,
                      {{karate + " " + quote((dir / "out.png").string()), "cannot tell the format of"},
                       {karate + " " + quote((dir / "out").string()), "--to mtx|edges|abc|spgcsr"},
                       {karate + " " + out + " --to png", "--to"},
                       {karate, "name INPUT and OUTPUT"},
                       {"--generate wb-edu", "name the OUTPUT file"},
                       {"--generate wb-edu " + karate + " " + out, "name only OUTPUT"},
                       {"--generate erdos " + out, "--generate"},
                       {"--generate rmat " + out, "needs --rmat-scale"},
                       {"--generate rmat --rmat-scale 31 " + out, "--rmat-scale: Value 31 not in range 0 to 30"},
                       {"--generate rmat --rmat-scale 4 --abc-params 0.5,0.5,0.5 " + out, "--abc-params"},
                       {"--generate rmat --rmat-scale 4 --abc-params 0.5,x,0.1 " + out, "--abc-params"},
                       {"--generate rmat --rmat-scale 4 --edge-factor 0 " + out, "--edge-factor"},
                       {"--generate rmat --rmat-scale 4 --scale 2 " + out, "--scale is for the presets"},
                       {"--generate cit-patents --rmat-scale 4 " + out, "are for --generate rmat"},
                       {"--generate wb-edu --scale 0 " + out, "--scale"},
                       {karate + " " + out + " --relabel sideways", "--relabel"}});
}

TEST(ConvertApp, RefusedInputsLeaveNoFile) {
  ScratchDir dir;
  const fs::path output = dir / "refused-output.txt";
  for (const auto& [graph, mentions] : refused_inputs(dir)) {
    SCOPED_TRACE(graph);
    const AppRun r = convert(dir, quote(graph) + " " + quote(output.string()));
    EXPECT_EQ(r.status, 1);
    expect_app_error(r, kApp, mentions);
    EXPECT_FALSE(fs::exists(output));
  }
}

TEST(ConvertApp, FailuresLeaveNoFile) {
  ScratchDir dir;
  // the output's folder does not exist: refused before the work
  const AppRun missing = convert(dir, quote(dataset("small/karate.mtx")) + " " +
                                          quote((dir / "no-such-folder" / "out.mtx").string()));
  EXPECT_EQ(missing.status, 1);
  expect_app_error(missing, kApp, "no-such-folder");
  EXPECT_TRUE(missing.out.empty()) << "ran before failing: " << missing.out;
  // the input itself: refused, the input left as it was
  std::ofstream(dir / "self.txt") << "0 1\n";
  const AppRun self = convert(dir, quote((dir / "self.txt").string()) + " " + quote((dir / "self.txt").string()));
  EXPECT_EQ(self.status, 1);
  expect_app_error(self, kApp, "is the input file");
  EXPECT_EQ(read_text(dir / "self.txt"), "0 1\n");
  // a label .abc cannot hold, found while writing: no file
  Csr<double> a;
  a.nrows = a.ncols = 2;
  a.rowptr = {0, 1, 1};
  a.col = {1};
  io::write_csr_cache((dir / "blank.spgcsr").string(), a, {"two words", "x"});
  const AppRun blank = convert(dir, quote((dir / "blank.spgcsr").string()) + " " + quote((dir / "blank.abc").string()));
  EXPECT_EQ(blank.status, 1);
  expect_app_error(blank, kApp, "holds a blank");
  EXPECT_FALSE(fs::exists(dir / "blank.abc"));
  // a compressed cache
  const AppRun gz = convert(dir, quote(dataset("small/karate.mtx")) + " " + quote((dir / "k.spgcsr.gz").string()));
  EXPECT_EQ(gz.status, 1);
  expect_app_error(gz, kApp, "not compressed");
  std::vector<std::string> left = dir.files();
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"blank.spgcsr", "self.txt"}));
}

TEST(ConvertApp, HelpNamesEveryOption) {
  ScratchDir dir;
  const AppRun r = convert(dir, "--help");
  EXPECT_EQ(r.status, 0);
  for (const char* flag : {"--to", "--generate", "--seed", "--scale", "--rmat-scale", "--edge-factor", "--abc-params",
                           "--threads", "--symmetrize", "--drop-self-loops", "--relabel", "--pattern", "--compact-ids",
                           "--duplicates", "--trust-vertex-count", "--timings", ".spgcsr", ".abc", ".mtx", ".gz"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

}  // namespace
}  // namespace spgraph::test
