// The SpMV and SpGEMM benchmark drivers end to end on a small real graph: every implementation
// must complete and agree (each result is checked before it is timed), and the JSON must hold
// what the tables show.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spgemm_bench.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spmv_bench.hpp"
#include "test_support.hpp"

namespace spgraph::bench {
namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string temp_json(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("spgraph-") + name + ".json")).string();
}

TEST(SpmvBench, EveryImplementationAgreesOnKarate) {
  SPGRAPH_REQUIRE_GPU();
  SpmvBenchOptions o;
  o.inputs.files = {test::dataset("small/karate.mtx")};
  o.timing = {.warmup = 1, .repeats = 3, .flush_l2 = true};
  o.pagerank_repeats = 1;
  o.json_path = temp_json("spmv-bench-test");
  std::ostringstream out;
  EXPECT_EQ(run_spmv_bench(o, out), 0) << out.str();
  nlohmann::json doc = read_json(o.json_path);
  std::filesystem::remove(o.json_path);
  EXPECT_GT(doc["copy_bandwidth"]["gb_per_s"].get<double>(), 0);
  ASSERT_EQ(doc["results"].size(), 4u);  // float and double, pattern and valued
  for (const auto& config : doc["results"]) {
    EXPECT_EQ(config["n"], 34);
    EXPECT_EQ(config["nnz"], 156);
    ASSERT_EQ(config["implementations"].size(), 10u);  // 2 cuSPARSE, 7 kernels (AMB the seventh), auto
    for (const auto& impl : config["implementations"]) {
      EXPECT_EQ(impl["status"], "ok") << impl.dump();
      EXPECT_GT(impl["median_ms"].get<double>(), 0) << impl.dump();
    }
  }
  EXPECT_EQ(doc["summary"]["configurations_compared"], 4);
  EXPECT_NE(out.str().find("ours auto -> "), std::string::npos) << out.str();
}

// nnz of A*A and A*A' by sets of reachable columns.
std::pair<std::size_t, std::size_t> product_sizes(const Csr<double>& a) {
  Csr<double> t = transpose(a);
  std::size_t aa = 0, aat = 0;
  for (vid_t i = 0; i < a.nrows; ++i) {
    std::set<vid_t> via_a, via_t;
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      vid_t k = a.col[p];
      for (eid_t q = a.rowptr[k]; q < a.rowptr[k + 1]; ++q) via_a.insert(a.col[q]);
      for (eid_t q = t.rowptr[k]; q < t.rowptr[k + 1]; ++q) via_t.insert(t.col[q]);
    }
    aa += via_a.size();
    aat += via_t.size();
  }
  return {aa, aat};
}

TEST(SpgemmBench, EveryImplementationAgreesOnWestAndReportsMemory) {
  SPGRAPH_REQUIRE_GPU();
  const std::string path = test::dataset("small/west0067.mtx");  // unsymmetric: A*A' differs from A*A
  SpgemmBenchOptions o;
  o.inputs.files = {path};
  o.precisions = {Precision::Float, Precision::Double};
  o.timing = {.warmup = 1, .repeats = 2, .synchronize_device = true};
  o.json_path = temp_json("spgemm-bench-test");
  std::ostringstream out;
  EXPECT_EQ(run_spgemm_bench(o, out), 0) << out.str();
  nlohmann::json doc = read_json(o.json_path);
  std::filesystem::remove(o.json_path);
  auto [nnz_aa, nnz_aat] = product_sizes(io::load_graph(path).matrix);
  ASSERT_EQ(doc["results"].size(), 4u);  // A*A and A*A', float and double
  for (const auto& c : doc["results"]) {
    EXPECT_EQ(c["nnz"], c["operation"] == "A*A" ? nnz_aa : nnz_aat) << c.dump();
    ASSERT_EQ(c["implementations"].size(), 5u);  // hash, esc, cuSPARSE alg1-3
    for (const auto& impl : c["implementations"]) {
      EXPECT_EQ(impl["status"], "ok") << impl.dump();
      EXPECT_EQ(impl["nnz"], c["nnz"]) << impl.dump();
      EXPECT_GT(impl["peak_bytes"].get<double>(), 0) << impl.dump();
      EXPECT_GT(impl["gflops"].get<double>(), 0) << impl.dump();
    }
  }
  EXPECT_EQ(doc["summary"]["cases_compared"], 4);
  EXPECT_TRUE(doc["summary"]["cusparse_failures"].empty());
}

// karate's A*A, above a limit of 10 products.
SpgemmBenchOptions above_the_limit() {
  SpgemmBenchOptions o;
  o.inputs.files = {test::dataset("small/karate.mtx")};
  o.max_products = 10;
  o.a_times_a_transpose = false;
  o.json_path = "";
  return o;
}

TEST(SpgemmBench, SkipsAProductAboveTheLimitWithTheReason) {
  SPGRAPH_REQUIRE_GPU();
  SpgemmBenchOptions o = above_the_limit();
  o.panels_above_max = false;
  std::ostringstream out;
  EXPECT_EQ(run_spgemm_bench(o, out), 0) << out.str();
  EXPECT_NE(out.str().find("more than --max-products 10"), std::string::npos) << out.str();
}

// By default such a product runs once through mxm_panels, each panel counted and dropped.
TEST(SpgemmBench, RunsAProductAboveTheLimitInPanels) {
  SPGRAPH_REQUIRE_GPU();
  std::ostringstream out;
  EXPECT_EQ(run_spgemm_bench(above_the_limit(), out), 0) << out.str();
  EXPECT_NE(out.str().find("ours panels (hash, 1 panels, counted and dropped; one run)"), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("skipped"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace spgraph::bench
