// --backend auto's rule (apps/common/backend_rule.hpp, issue 41 §6): the GPU from each app's
// threshold of links on, the reason the backend line gives, SPGRAPH_GPU_THRESHOLD, and the
// estimate of the links made before the load.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "backend_rule.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/save_graph.hpp"
#include "test_support.hpp"

namespace spgraph::apps {
namespace {

namespace fs = std::filesystem;
using test::dataset;

// Sets (or with nullopt unsets) an environment variable for one scope, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("spgraph-backend-rule-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

TEST(BackendRule, EveryAppHasAPositiveThreshold) {
  for (const char* app : {"pagerank", "tricount", "msbfs", "mcl"}) {
    SCOPED_TRACE(app);
    EXPECT_GT(table_threshold(app), 0);
  }
  EXPECT_EQ(table_threshold("spgraph-convert"), 0);  // no row: the GPU whenever usable
}

// Around each app's threshold: below it the CPU, at and above it the GPU.
TEST(BackendRule, TheGpuFromTheThresholdOn) {
  const ScopedEnv unset(kGpuThresholdVariable, std::nullopt);
  for (const GpuThreshold& row : kGpuThresholds) {
    SCOPED_TRACE(std::string(row.app));
    const Threshold t = gpu_threshold(row.app);
    ASSERT_EQ(t.links, row.links);
    EXPECT_FALSE(t.from_environment);
    const std::string of = std::string(row.app) + "'s GPU threshold of " + with_thousands(row.links);
    for (const std::int64_t links : {std::int64_t{0}, row.links / 2, row.links - 1}) {
      const SizeDecision d = decide_by_size(row.app, links, t);
      EXPECT_FALSE(d.gpu) << links;
      EXPECT_EQ(d.reason, with_thousands(links) + " links is below " + of);
    }
    for (const std::int64_t links : {row.links, row.links + 1, 10 * row.links}) {
      const SizeDecision d = decide_by_size(row.app, links, t);
      EXPECT_TRUE(d.gpu) << links;
      EXPECT_EQ(d.reason, with_thousands(links) + " links is at or above " + of);
    }
  }
}

TEST(BackendRule, ReasonsReadAsTheBackendLineGivesThem) {
  const Threshold pagerank{2'000'000, false};
  EXPECT_EQ(decide_by_size("pagerank", 183'831, pagerank).reason,
            "183,831 links is below pagerank's GPU threshold of 2,000,000");
  EXPECT_EQ(decide_by_size("pagerank", 1, pagerank).reason, "1 link is below pagerank's GPU threshold of 2,000,000");
  EXPECT_EQ(decide_by_size("msbfs", 16'518'947, {3'000'000, false}).reason,
            "16,518,947 links is at or above msbfs's GPU threshold of 3,000,000");
  EXPECT_EQ(decide_by_size("mcl", 156, {1'000, true}).reason,
            "156 links is below the GPU threshold of 1,000 (SPGRAPH_GPU_THRESHOLD)");
  EXPECT_EQ(decide_by_size("mcl", 156, {0, true}).reason,
            "156 links is at or above the GPU threshold of 0 (SPGRAPH_GPU_THRESHOLD)");
}

TEST(BackendRule, ThousandsAreSeparated) {
  EXPECT_EQ(with_thousands(0), "0");
  EXPECT_EQ(with_thousands(156), "156");
  EXPECT_EQ(with_thousands(999), "999");
  EXPECT_EQ(with_thousands(1000), "1,000");
  EXPECT_EQ(with_thousands(183831), "183,831");
  EXPECT_EQ(with_thousands(1234567), "1,234,567");
  EXPECT_EQ(with_thousands(-1234), "-1,234");
}

TEST(BackendRule, TheVariableReplacesEveryThreshold) {
  {
    const ScopedEnv set(kGpuThresholdVariable, "12345");
    for (const char* app : {"pagerank", "tricount", "msbfs", "mcl"}) {
      const Threshold t = gpu_threshold(app);
      EXPECT_EQ(t.links, 12345) << app;
      EXPECT_TRUE(t.from_environment) << app;
    }
  }
  {
    const ScopedEnv zero(kGpuThresholdVariable, "0");
    EXPECT_EQ(gpu_threshold("pagerank").links, 0);
    EXPECT_TRUE(decide_by_size("pagerank", 0, gpu_threshold("pagerank")).gpu);
  }
  for (const char* bad : {"", "lots", "-1", "1e6", "2,000,000", " 5", "123456789012345678901"}) {
    SCOPED_TRACE(bad);
    const ScopedEnv set(kGpuThresholdVariable, bad);
    try {
      gpu_threshold("pagerank");
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(std::string("SPGRAPH_GPU_THRESHOLD=") + bad + ": expected a number of links",
                                            0),
                0u)
          << e.what();
    }
  }
}

InputOptions input_of(const std::string& path, bool undirected = false) {
  InputOptions input;
  input.path = path;
  input.undirected = undirected;
  return input;
}

// Exact where the file says: a .spgcsr's header, a Matrix Market size line (both halves of a
// symmetric matrix).
TEST(BackendRule, EstimateIsExactFromHeaders) {
  TempDir dir;
  const std::string karate = dataset("small/karate.mtx");  // symmetric, 78 entries: 156 links
  EXPECT_EQ(estimate_links(input_of(karate)), 156);
  EXPECT_EQ(estimate_links(input_of(karate, true)), 312);  // --undirected: at most twice
  const io::LoadedGraph graph = io::load_graph(karate);
  ASSERT_EQ(graph.matrix.nnz(), 156);
  io::save_cache(dir.file("karate.spgcsr"), graph);
  EXPECT_EQ(estimate_links(input_of(dir.file("karate.spgcsr"))), 156);
  io::save_graph(dir.file("karate-general.mtx"), graph, io::SaveFormat::MatrixMarket);
  EXPECT_EQ(estimate_links(input_of(dir.file("karate-general.mtx"))), 156);
  io::save_graph(dir.file("karate.mtx.gz"), graph, io::SaveFormat::MatrixMarket);
  EXPECT_EQ(estimate_links(input_of(dir.file("karate.mtx.gz"))), 156);
  // The reader named by the flags, not the name (mcl --abc, say): the header is not read.
  InputOptions as_abc = input_of(dir.file("karate.spgcsr"));
  as_abc.load.format = io::GraphFormat::Abc;
  EXPECT_EQ(estimate_links(as_abc), static_cast<std::int64_t>(fs::file_size(dir.file("karate.spgcsr")) / 12));
}

// Else from the file's size: 12 bytes a link of text, 3 of gzip-compressed text.
TEST(BackendRule, EstimateFromTheFileSize) {
  TempDir dir;
  {
    std::ofstream out(dir.file("links.txt"));
    for (int i = 0; i < 1000; ++i) out << 10000 + i << '\t' << 20000 + i << '\n';  // 12 bytes a line
  }
  EXPECT_EQ(estimate_links(input_of(dir.file("links.txt"))), 1000);
  EXPECT_EQ(estimate_links(input_of(dir.file("links.txt"), true)), 2000);
  std::ofstream(dir.file("fake.txt.gz"), std::ios::binary) << std::string(3000, 'x');
  EXPECT_EQ(estimate_links(input_of(dir.file("fake.txt.gz"))), 1000);
  // A file that is not what its name says, or none: the estimate is what it can be; the load
  // says what is wrong.
  std::ofstream(dir.file("not-a-cache.spgcsr")) << std::string(120, 'x');
  EXPECT_EQ(estimate_links(input_of(dir.file("not-a-cache.spgcsr"))), 10);
  std::ofstream(dir.file("no-size-line.mtx")) << std::string(60, '%');
  EXPECT_EQ(estimate_links(input_of(dir.file("no-size-line.mtx"))), 5);
  EXPECT_EQ(estimate_links(input_of(dir.file("missing.mtx"))), 0);
}

}  // namespace
}  // namespace spgraph::apps
