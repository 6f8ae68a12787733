// The `msbfs` program as users run it: karate's levels from LAGraph's source in the -o file
// (sources and vertices named as the input names them), parents checked valid, sources given
// three ways (--sources, --sources-file, --random with its seed), the binary form read by its
// documented layout and compared with the text, in-links, labels, batches, and its exit
// statuses and one-line errors; the GPU's answers against the same references.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app_runner.hpp"

namespace spgraph::test {
namespace {

AppRun msbfs(const ScratchDir& dir, const std::string& args, const std::string& env = "") {
  return run_app(dir, "msbfs", args, env);
}

// ---- the -o file, read back

struct VertexLine {
  std::string vertex;
  int level = 0;
  std::string parent;  // "" without --parents
  bool operator==(const VertexLine&) const = default;
};
struct Search {
  std::string source;
  std::vector<VertexLine> vertices;
  bool operator==(const Search&) const = default;
};

// "source<TAB>NAME", then "vertex<TAB>level[<TAB>parent]" lines, per source.
std::vector<Search> read_searches(const fs::path& file) {
  std::vector<Search> searches;
  for (const std::string& line : lines_of(read_text(file))) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
    if (fields.size() == 2 && fields[0] == "source") {
      searches.push_back({fields[1], {}});
      continue;
    }
    EXPECT_TRUE(!searches.empty() && (fields.size() == 2 || fields.size() == 3)) << "line: " << line;
    if (searches.empty() || fields.size() < 2) continue;
    searches.back().vertices.push_back({fields[0], std::stoi(fields[1]), fields.size() == 3 ? fields[2] : ""});
  }
  return searches;
}

// The binary form as --help documents it: a 32-byte header ("SPGBFS1\0", int64 n, int64 k,
// uint32 flags, uint32 0), then per source int32 source, n int32 levels, [n int32 parents],
// all little-endian; vertices 0-based.
struct BinaryForm {
  std::int64_t n = 0, k = 0;
  std::uint32_t flags = 0;
  std::vector<std::int32_t> source;
  std::vector<std::vector<std::int32_t>> level, parent;
};

BinaryForm read_binary(const fs::path& file) {
  const std::string bytes = read_text(file);
  std::size_t at = 0;
  auto take = [&](std::size_t size) -> std::uint64_t {
    EXPECT_LE(at + size, bytes.size()) << "the file ends early";
    std::uint64_t x = 0;
    for (std::size_t b = 0; b < size && at + b < bytes.size(); ++b)
      x |= std::uint64_t{static_cast<unsigned char>(bytes[at + b])} << (8 * b);
    at += size;
    return x;
  };
  BinaryForm f;
  EXPECT_EQ(bytes.substr(0, 8), std::string("SPGBFS1\0", 8));
  at = 8;
  f.n = static_cast<std::int64_t>(take(8));
  f.k = static_cast<std::int64_t>(take(8));
  f.flags = static_cast<std::uint32_t>(take(4));
  EXPECT_EQ(take(4), 0u);
  const bool parents = f.flags & 1;
  const std::size_t record = 4 * (1 + static_cast<std::size_t>(f.n) * (parents ? 2 : 1));
  EXPECT_EQ(bytes.size(), 32 + static_cast<std::size_t>(f.k) * record);
  if (bytes.size() != 32 + static_cast<std::size_t>(f.k) * record) return f;
  auto int32s = [&] {
    std::vector<std::int32_t> v(static_cast<std::size_t>(f.n));
    for (auto& x : v) x = static_cast<std::int32_t>(static_cast<std::uint32_t>(take(4)));
    return v;
  };
  for (std::int64_t s = 0; s < f.k; ++s) {
    f.source.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(take(4))));
    f.level.push_back(int32s());
    if (parents) f.parent.push_back(int32s());
  }
  return f;
}

std::vector<std::string> printed_sources(const AppRun& r) {
  std::vector<std::string> lines;
  for (const std::string& line : lines_of(r.out))
    if (line.rfind("source ", 0) == 0) lines.push_back(line);
  return lines;
}

void expect_one_error_line(const AppRun& r, const std::string& mentions) { expect_app_error(r, "msbfs", mentions); }

// ---- karate from LAGraph's source 30 (0-based), 31 as the file names it

struct Expected {
  std::vector<int> level;                // by 0-based vertex
  std::vector<std::set<int>> parents;    // the valid ones, 0-based
};

Expected karate_from_30() {
  Expected e;
  std::ifstream in(dataset("expected/karate.bfs-from-30.tsv"));
  EXPECT_TRUE(in);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int v = 0, level = 0;
    std::string parents;
    fields >> v >> level >> parents;
    EXPECT_EQ(v, static_cast<int>(e.level.size()));
    e.level.push_back(level);
    std::set<int> valid;
    std::istringstream list(parents);
    for (std::string p; std::getline(list, p, ',');) valid.insert(std::stoi(p));
    e.parents.push_back(valid);
  }
  EXPECT_EQ(e.level.size(), 34u);
  return e;
}

// Checks one search of karate from 31 (1-based names) against LAGraph's levels and parents.
void expect_karate_from_31(const Search& s, bool parents) {
  const Expected e = karate_from_30();
  EXPECT_EQ(s.source, "31");
  ASSERT_EQ(s.vertices.size(), e.level.size());
  for (std::size_t v = 0; v < e.level.size(); ++v) {
    SCOPED_TRACE("vertex " + std::to_string(v + 1));
    EXPECT_EQ(s.vertices[v].vertex, std::to_string(v + 1));
    EXPECT_EQ(s.vertices[v].level, e.level[v]);
    if (!parents) {
      EXPECT_EQ(s.vertices[v].parent, "");
    } else if (v == 30) {
      EXPECT_EQ(s.vertices[v].parent, "-");  // the source has none
    } else {
      const int p = std::stoi(s.vertices[v].parent) - 1;
      EXPECT_TRUE(e.parents[v].count(p)) << "parent " << p + 1;
      EXPECT_EQ(e.level[p], e.level[v] - 1);
    }
  }
}

void expect_karate_run(const ScratchDir& dir, const std::string& backend) {
  const std::string karate = quote(dataset("small/karate.mtx"));
  const fs::path file = dir / "levels.tsv";
  const std::vector<int> levels = karate_from_30().level;
  const int depth = *std::max_element(levels.begin(), levels.end());
  for (const char* parents : {"", " --parents"}) {
    SCOPED_TRACE(parents);
    const AppRun r =
        msbfs(dir, karate + " --backend " + backend + " --sources 31" + parents + " -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find("backend: " + backend + " ("), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("graph: "), std::string::npos) << r.out;
    EXPECT_EQ(printed_sources(r), std::vector<std::string>{"source 31: reached 34, depth " + std::to_string(depth)});
    EXPECT_NE(r.out.find("time: load "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", search "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("edges traversed: 156"), std::string::npos) << r.out;  // every link of the 34 vertices
    const auto searches = read_searches(file);
    ASSERT_EQ(searches.size(), 1u);
    expect_karate_from_31(searches[0], *parents != '\0');
    EXPECT_EQ(dir.files(), std::vector<std::string>{"levels.tsv"});
  }
}

TEST(MsbfsApp, KarateFrom31MatchesLagraph) {
  ScratchDir dir;
  expect_karate_run(dir, "cpu");
}

// ---- the three ways to give sources

TEST(MsbfsApp, SourcesFileGivesTheSameAsTheList) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  std::ofstream(dir / "sources.txt") << "# karate's two leaders and LAGraph's source\n31\n\n1 34\t31\n% done\n";
  const fs::path listed = dir / "listed.tsv", filed = dir / "filed.tsv";
  const AppRun a = msbfs(dir, karate + " --backend cpu --parents --sources 31,1 --sources 34,31 -o " +
                                  quote(listed.string()));
  ASSERT_EQ(a.status, 0) << a.err;
  const AppRun b = msbfs(dir, karate + " --backend cpu --parents --sources-file " +
                                  quote((dir / "sources.txt").string()) + " -o " + quote(filed.string()));
  ASSERT_EQ(b.status, 0) << b.err;
  const auto searches = read_searches(listed);
  ASSERT_EQ(searches.size(), 4u);  // a repeated source is searched again
  EXPECT_EQ(searches[0].source, "31");
  EXPECT_EQ(searches[1].source, "1");
  EXPECT_EQ(searches[2].source, "34");
  expect_karate_from_31(searches[0], true);
  expect_karate_from_31(searches[3], true);
  EXPECT_EQ(searches[1].vertices[0], (VertexLine{"1", 0, "-"}));
  EXPECT_EQ(read_searches(filed), searches);
  EXPECT_EQ(printed_sources(a), printed_sources(b));
  EXPECT_EQ(printed_sources(a).size(), 4u);
}

TEST(MsbfsApp, RandomSourcesAreDistinctAndFollowTheSeed) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx")) + " --backend cpu";
  auto sources_of = [&](const std::string& flags) {
    const fs::path file = dir / "levels.tsv";
    const AppRun r = msbfs(dir, karate + flags + " -o " + quote(file.string()));
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> names;
    for (const Search& s : read_searches(file)) names.push_back(s.source);
    return std::make_pair(names, read_text(file));
  };
  const auto [five, text] = sources_of(" --random 5 --seed 7");
  ASSERT_EQ(five.size(), 5u);
  EXPECT_EQ(std::set<std::string>(five.begin(), five.end()).size(), 5u);
  EXPECT_EQ(sources_of(" --random 5 --seed 7").second, text);  // repeated runs write the same file
  EXPECT_EQ(sources_of(" --random 5 --seed 7 --batch 2").second, text);  // whatever the batch
  EXPECT_NE(sources_of(" --random 5 --seed 8").first, five);
  EXPECT_EQ(sources_of(" --random 5").first, sources_of(" --random 5 --seed 1").first);  // the default seed
  // every vertex once
  auto all = sources_of(" --random 34 --seed 3").first;
  std::sort(all.begin(), all.end(), [](const std::string& a, const std::string& b) { return std::stoi(a) < std::stoi(b); });
  for (int v = 0; v < 34; ++v) EXPECT_EQ(all[v], std::to_string(v + 1));
}

// Above 16 sources the app prints their min/median/max instead of a line each.
TEST(MsbfsApp, ManySourcesAreSummarized) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx")) + " --backend cpu";
  const AppRun few = msbfs(dir, karate + " --random 16");
  ASSERT_EQ(few.status, 0) << few.err;
  EXPECT_EQ(printed_sources(few).size(), 16u);
  const AppRun many = msbfs(dir, karate + " --random 34 --batch 5");
  ASSERT_EQ(many.status, 0) << many.err;
  EXPECT_TRUE(printed_sources(many).empty()) << many.out;
  // karate is connected; every vertex is 3 to 5 links from its farthest one
  EXPECT_NE(many.out.find("34 sources: reached min/median/max 34/34/34, depth min/median/max 3/"), std::string::npos)
      << many.out;
  EXPECT_NE(many.out.find("edges traversed: " + std::to_string(34 * 156)), std::string::npos) << many.out;
}

// ---- the binary form

TEST(MsbfsApp, BinaryFormFollowsTheDocumentedLayoutAndEqualsTheText) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx")) + " --backend cpu --sources 31,1,34";
  const fs::path text = dir / "levels.tsv", binary = dir / "levels.bin";
  for (const char* parents : {"", " --parents"}) {
    SCOPED_TRACE(parents);
    ASSERT_EQ(msbfs(dir, karate + parents + " -o " + quote(text.string())).status, 0);
    const AppRun r = msbfs(dir, karate + parents + " --batch 2 --binary -o " + quote(binary.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const BinaryForm b = read_binary(binary);
    const auto searches = read_searches(text);
    EXPECT_EQ(b.n, 34);
    ASSERT_EQ(b.k, 3);
    EXPECT_EQ(b.flags, *parents ? 1u : 0u);
    ASSERT_EQ(b.level.size(), 3u);
    ASSERT_EQ(b.parent.size(), *parents ? 3u : 0u);
    for (std::size_t s = 0; s < 3; ++s) {
      EXPECT_EQ(std::to_string(b.source[s] + 1), searches[s].source);
      for (std::size_t v = 0; v < 34; ++v) {
        EXPECT_EQ(b.level[s][v], searches[s].vertices[v].level);
        if (*parents)
          EXPECT_EQ(b.parent[s][v] < 0 ? "-" : std::to_string(b.parent[s][v] + 1), searches[s].vertices[v].parent);
      }
    }
  }
  ASSERT_EQ(msbfs(dir, karate + " --in-links --binary -o " + quote(binary.string())).status, 0);
  EXPECT_EQ(read_binary(binary).flags, 2u);
}

// ---- directions, ids and labels as the input names them

TEST(MsbfsApp, EdgeListFollowsOutLinksOrInLinks) {
  ScratchDir dir;
  // 0 -> 1 -> 2, 2 -> 4; vertex 3 has no links (ids are the file's, from 0)
  std::ofstream(dir / "path.txt") << "# a directed path\n0 1\n1 2\n2 4\n";
  const std::string graph = quote((dir / "path.txt").string()) + " --backend cpu --parents";
  const fs::path file = dir / "levels.tsv";
  ASSERT_EQ(msbfs(dir, graph + " --sources 1,3 -o " + quote(file.string())).status, 0);
  auto s = read_searches(file);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], (Search{"1", {{"0", -1, "-"}, {"1", 0, "-"}, {"2", 1, "1"}, {"3", -1, "-"}, {"4", 2, "2"}}}));
  EXPECT_EQ(s[1], (Search{"3", {{"0", -1, "-"}, {"1", -1, "-"}, {"2", -1, "-"}, {"3", 0, "-"}, {"4", -1, "-"}}}));
  const AppRun r = msbfs(dir, graph + " --in-links --sources 2 -o " + quote(file.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(printed_sources(r), std::vector<std::string>{"source 2: reached 3, depth 2"});
  s = read_searches(file);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], (Search{"2", {{"0", 2, "1"}, {"1", 1, "2"}, {"2", 0, "-"}, {"3", -1, "-"}, {"4", -1, "-"}}}));
  // --compact-ids: vertices are numbered by first appearance, still named by the file's ids
  std::ofstream(dir / "sparse.txt") << "700 5\n5 90\n";
  ASSERT_EQ(msbfs(dir, quote((dir / "sparse.txt").string()) +
                           " --backend cpu --compact-ids --parents --sources 700 -o " + quote(file.string()))
                .status,
            0);
  s = read_searches(file);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], (Search{"700", {{"700", 0, "-"}, {"5", 1, "700"}, {"90", 2, "5"}}}));
}

TEST(MsbfsApp, LabelsNameSourcesAndParents) {
  ScratchDir dir;
  std::ofstream(dir / "labels.abc") << "alpha beta\nbeta gamma 2.5\ngamma alpha\ngamma delta\n";
  std::ofstream(dir / "sources.txt") << "gamma\n";
  const fs::path file = dir / "levels.tsv";
  const AppRun r = msbfs(dir, quote((dir / "labels.abc").string()) + " --backend cpu --parents --sources-file " +
                                  quote((dir / "sources.txt").string()) + " -o " + quote(file.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(printed_sources(r), std::vector<std::string>{"source gamma: reached 4, depth 2"});
  const auto s = read_searches(file);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], (Search{"gamma", {{"alpha", 1, "gamma"}, {"beta", 2, "alpha"}, {"gamma", 0, "-"},
                                    {"delta", 1, "gamma"}}}));
}

// ---- failures: one line, a non-zero exit, no output file

TEST(MsbfsApp, UnknownSourcesAreRefusedNamingThem) {
  ScratchDir dir;
  std::ofstream(dir / "labels.abc") << "alpha beta\n";
  std::ofstream(dir / "path.txt") << "0 1\n1 2\n";
  const std::string karate = quote(dataset("small/karate.mtx"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {karate + " --sources 1,35", "'35'"},       // Matrix Market ids are 1..34
      {karate + " --sources 0", "'0'"},
      {karate + " --sources 3x", "'3x'"},
      {karate + " --sources ''", "''"},
      {karate + " --random 35", "--random 35"},  // more than the vertices
      {quote((dir / "path.txt").string()) + " --sources 3", "'3'"},  // edge-list ids are 0..2
      {quote((dir / "labels.abc").string()) + " --sources alpha,omega", "'omega'"},
      {karate + " --sources-file " + quote((dir / "none.txt").string()), "none.txt"}};
  for (const auto& [args, mentions] : cases) {
    SCOPED_TRACE(args);
    const AppRun r = msbfs(dir, args + " --backend cpu -o " + quote((dir / "levels.tsv").string()));
    EXPECT_EQ(r.status, 1);
    expect_one_error_line(r, mentions);
    EXPECT_TRUE(printed_sources(r).empty()) << r.out;
    EXPECT_FALSE(fs::exists(dir / "levels.tsv"));
  }
}

TEST(MsbfsApp, BadFlagsAreUsageErrors) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const std::string& args :
       {std::string("--sources 1"), karate, karate + " --sources", karate + " --sources 1 --random 2",
        karate + " --sources 1 --sources-file x", karate + " --random 0", karate + " --random -3",
        karate + " --random two", karate + " --sources 1 --seed 4", karate + " --sources 1 --batch 0",
        karate + " --sources 1 --batch many", karate + " --sources 1 --backend tpu", karate + " --sources 1 --bogus",
        karate + " --sources 1 " + karate}) {
    SCOPED_TRACE(args);
    const AppRun r = msbfs(dir, args + " -o " + quote((dir / "levels.tsv").string()));
    EXPECT_EQ(r.status, 2);
    expect_one_error_line(r, "");
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(dir.files().empty());
  }
  // --binary is a form of the -o file
  const AppRun r = msbfs(dir, karate + " --sources 1 --binary");
  EXPECT_EQ(r.status, 2);
  expect_one_error_line(r, "--output");
}

TEST(MsbfsApp, MalformedInputsFailNamingTheFile) {
  ScratchDir dir;
  expect_inputs_refused(dir, "msbfs", refused_inputs(dir), "--backend cpu --sources 1");
}

TEST(MsbfsApp, UnwritableOutputFailsBeforeTheWork) {
  ScratchDir dir;
  const std::string target = (dir / "no-such-folder" / "levels.tsv").string();
  const AppRun r = msbfs(dir, quote(dataset("small/karate.mtx")) + " --backend cpu --sources 1 -o " + quote(target));
  EXPECT_EQ(r.status, 1);
  expect_one_error_line(r, "no-such-folder");
  EXPECT_EQ(r.out.find("graph:"), std::string::npos) << "ran before failing: " << r.out;
}

TEST(MsbfsApp, HelpGivesTheDefinitionAndEveryFlag) {
  ScratchDir dir;
  const AppRun r = msbfs(dir, "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* text : {"--sources", "--sources-file", "--random", "--seed", "--parents", "--in-links", "--batch",
                           "--backend", "--output", "--binary", "--duplicates", "--compact-ids", "graph", "level -1",
                           "one level up", "SPGBFS1", "little-endian", "1-based"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

// ---- the GPU gives the same answers

TEST(MsbfsApp, GpuKarateFrom31MatchesLagraph) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  expect_karate_run(dir, "gpu");
}

TEST(MsbfsApp, GpuLevelsEqualTheCpuLevels) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  for (const char* graph : {"small/karate.mtx", "small/west0067.mtx", "small/dolphins.mtx"})
    for (const char* direction : {"", " --in-links"}) {
      SCOPED_TRACE(std::string(graph) + direction);
      const std::string args = quote(dataset(graph)) + " --random 20 --seed 5 --batch 7 --binary" + direction;
      ASSERT_EQ(msbfs(dir, args + " --backend cpu -o " + quote((dir / "cpu.bin").string())).status, 0);
      const AppRun r = msbfs(dir, args + " --backend gpu -o " + quote((dir / "gpu.bin").string()));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.out.find("backend: gpu ("), std::string::npos) << r.out;
      EXPECT_EQ(read_text(dir / "gpu.bin"), read_text(dir / "cpu.bin"));
    }
}

// With every graph large enough for the GPU (SPGRAPH_GPU_THRESHOLD=0), auto takes it where it
// is usable; the size rule's own tests are backend_line_app_test.cpp's and backend_rule_test.cpp's.
TEST(MsbfsApp, BackendAutoFollowsTheMachine) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  if (!gpu && switch_on("SPGRAPH_REQUIRE_GPU")) FAIL() << "no usable GPU (SPGRAPH_REQUIRE_GPU=1): " << why;
  const AppRun r = msbfs(dir, quote(dataset("small/karate.mtx")) + " --sources 31", "SPGRAPH_GPU_THRESHOLD=0 ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(gpu ? "backend: gpu (" : "backend: cpu (SuiteSparse:GraphBLAS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(gpu ? ", chosen by --backend auto: 156 links is at or above the GPU threshold of 0"
                           : ", chosen by --backend auto\n"),
            std::string::npos)
      << r.out;
  if (!gpu) {
    const AppRun forced = msbfs(dir, quote(dataset("small/karate.mtx")) + " --sources 31 --backend gpu");
    EXPECT_EQ(forced.status, 1);
    expect_one_error_line(forced, "--backend gpu: no usable GPU");
  }
}

}  // namespace
}  // namespace spgraph::test
