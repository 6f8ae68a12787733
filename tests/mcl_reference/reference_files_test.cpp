// The reference clusterings of datasets/mcl/ (mcl 22-282's, see its README) read back: each
// file a partition of its graph's vertices, as many clusters as mcl reported, largest first;
// and the reader of tests/common/mcl_reference.hpp itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "../io/io_test_util.hpp"
#include "mcl_reference.hpp"
#include "spgraph/algorithms/cluster_agreement.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

struct Reference {
  const char* stem;      // datasets/mcl/<stem>.clusters[.gz]
  int clusters;          // what mcl reported ("[mcl] N clusters found")
};

struct Graph {
  const char* name;
  vid_t vertices;
  bool shared;  // in ../shared/datasets/real (skipped when absent)
  std::vector<Reference> references;
};

// As datasets/mcl/README.md records them.
const std::vector<Graph>& graphs() {
  static const std::vector<Graph> g{
      {"karate", 34, false, {{"karate.I14", 1}, {"karate.I20", 2}, {"karate.I30", 4}}},
      {"dolphins", 62, false, {{"dolphins.I14", 2}, {"dolphins.I20", 12}, {"dolphins.I30", 27}}},
      {"polbooks", 105, false, {{"polbooks.I14", 2}, {"polbooks.I20", 5}, {"polbooks.I30", 24}}},
      {"chesapeake", 39, false, {{"chesapeake.I14", 1}, {"chesapeake.I20", 1}, {"chesapeake.I30", 1}}},
      {"hep-th", 8361, false, {{"hep-th.I14", 1839}, {"hep-th.I20", 2346}, {"hep-th.I30", 2595}}},
      {"cathat", 6, false, {{"cathat.I14", 2}, {"cathat.I20", 2}, {"cathat.I30", 2}}},
      {"netscience", 1589, false, {{"netscience.I20", 457}}},
      {"email-Enron", 36692, true, {{"email-Enron.I20", 2474}}},
      {"cit-HepPh", 34546, true, {{"cit-HepPh.I20", 3898}}},
  };
  return g;
}

const Graph& graph_named(const std::string& name) {
  for (const Graph& g : graphs())
    if (g.name == name) return g;
  throw Error("no reference graph " + name);
}

std::string graph_path(const Graph& g) {
  const std::string name = g.name;
  if (g.shared) return shared_dataset("real/" + name + ".txt.gz");
  if (name == "cathat") return dataset("mcl/cathat.abc");
  return dataset("small/" + name + ".mtx");
}

// Loads the graph as the MCL tests will and checks each of its reference files.
void check_references(const Graph& g) {
  SCOPED_TRACE(g.name);
  // Edge lists by the ids that occur (what mcl saw), named as in the file.
  const io::LoadedGraph graph = io::load_graph(graph_path(g), {.compact_ids = g.shared});
  ASSERT_EQ(graph.matrix.nrows, g.vertices);
  const auto ids = vertex_ids_by_name(graph);
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(g.vertices));  // names are distinct
  for (const Reference& r : g.references) {
    SCOPED_TRACE(r.stem);
    const auto labels = read_cluster_file(mcl_reference_path(r.stem));
    EXPECT_EQ(static_cast<int>(labels.size()), r.clusters);
    for (std::size_t c = 1; c < labels.size(); ++c)
      EXPECT_GE(labels[c - 1].size(), labels[c].size()) << "cluster " << c << " is larger than the one before";
    // Each label once, each a vertex, every vertex in a cluster; failures name the label.
    std::unordered_map<std::string, std::size_t> cluster_of_label;
    bool repeated = false;
    for (std::size_t c = 0; c < labels.size(); ++c)
      for (const std::string& label : labels[c]) {
        const auto [it, first] = cluster_of_label.try_emplace(label, c);
        EXPECT_TRUE(first) << "label '" << label << "' is in cluster " << it->second << " and in cluster " << c;
        repeated |= !first;
      }
    std::vector<std::vector<vid_t>> clusters;
    const std::string unknown = error_of([&] { clusters = clusters_as_ids(labels, ids); });
    EXPECT_EQ(unknown, "");
    if (!unknown.empty() || repeated) continue;
    const auto cluster = algorithms::cluster_of_each_vertex(clusters, g.vertices);
    for (vid_t v = 0; v < g.vertices; ++v)
      EXPECT_NE(cluster[static_cast<std::size_t>(v)], -1) << "vertex " << graph.vertex_name(v) << " is in no cluster";
  }
}

TEST(MclReferenceFiles, SmallGraphsArePartitions) {
  for (const Graph& g : graphs())
    if (!g.shared) check_references(g);
}

TEST(MclReferenceFiles, EmailEnronIsAPartition) {
  SPGRAPH_REQUIRE_SHARED_DATASET(graph_path(graph_named("email-Enron")));
  check_references(graph_named("email-Enron"));
}

TEST(MclReferenceFiles, CitHepPhIsAPartition) {
  SPGRAPH_REQUIRE_SHARED_DATASET(graph_path(graph_named("cit-HepPh")));
  check_references(graph_named("cit-HepPh"));
}

// The folder holds exactly the files above (a new reference needs its row here), and the
// manual's example clusters as mcl(1) shows.
TEST(MclReferenceFiles, FolderHoldsExactlyTheListedFiles) {
  std::set<std::string> expected{"README.md", "make-references.sh", "cathat.abc"}, found;
  for (const Graph& g : graphs())
    for (const Reference& r : g.references)
      expected.insert(std::filesystem::path(mcl_reference_path(r.stem)).filename().string());
  for (const auto& entry : std::filesystem::directory_iterator(dataset("mcl")))
    found.insert(entry.path().filename().string());
  EXPECT_EQ(found, expected);
  for (const char* stem : {"cathat.I14", "cathat.I20", "cathat.I30"})
    EXPECT_EQ(read_cluster_file(mcl_reference_path(stem)),
              (std::vector<std::vector<std::string>>{{"cat", "hat", "bat"}, {"bit", "fit", "hit"}}))
        << stem;
}

TEST(MclReferenceReader, PlainGzipLongLinesAndErrors) {
  TempDir tmp;
  std::string long_line;
  std::vector<std::string> many;
  for (int i = 0; i < 20000; ++i) {  // about 110 KB: longer than the reader's buffer
    many.push_back("v" + std::to_string(i));
    long_line += (i ? "\t" : "") + many.back();
  }
  const std::string text = long_line + "\na\tb\nc";  // the last line without its newline
  const std::vector<std::vector<std::string>> want{many, {"a", "b"}, {"c"}};
  EXPECT_EQ(read_cluster_file(tmp.write("x.clusters", text)), want);
  EXPECT_EQ(read_cluster_file(tmp.write("x.clusters.gz", text)), want);
  EXPECT_TRUE(read_cluster_file(tmp.write("empty.clusters", "")).empty());

  const std::string empty = error_of([&] { read_cluster_file(tmp.write("e.clusters", "a\tb\n\n")); });
  EXPECT_NE(empty.find("e.clusters:2: empty label"), std::string::npos) << empty;
  const std::string twotabs = error_of([&] { read_cluster_file(tmp.write("t.clusters", "a\t\tb\n")); });
  EXPECT_NE(twotabs.find("t.clusters:1: empty label"), std::string::npos) << twotabs;
  const std::string absent = error_of([&] { read_cluster_file(tmp.path("none.clusters")); });
  EXPECT_NE(absent.find("none.clusters: cannot open"), std::string::npos) << absent;
}

TEST(MclReferenceReader, LabelsToIds) {
  const std::vector<std::vector<std::string>> labels{{"b", "a"}, {"c"}};
  const std::unordered_map<std::string, vid_t> ids{{"a", 0}, {"b", 1}, {"c", 2}};
  EXPECT_EQ(clusters_as_ids(labels, ids), (std::vector<std::vector<vid_t>>{{1, 0}, {2}}));
  const std::string unknown = error_of([&] { clusters_as_ids({{"a"}, {"c", "zz"}}, ids); });
  EXPECT_NE(unknown.find("unknown label 'zz' in cluster 1"), std::string::npos) << unknown;
  // By a function: Matrix Market names, 1-based.
  const auto by_number = [](const std::string& s) -> std::optional<vid_t> {
    return s == "1" ? std::optional<vid_t>(0) : std::nullopt;
  };
  EXPECT_EQ(clusters_as_ids({{"1"}}, by_number), (std::vector<std::vector<vid_t>>{{0}}));
  EXPECT_NE(error_of([&] { clusters_as_ids({{"1", "2"}}, by_number); }).find("'2'"), std::string::npos);
}

}  // namespace
}  // namespace spgraph::test
