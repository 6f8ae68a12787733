// The host side of the benchmark library: table layout, number formatting, statistics,
// precision names, input resolution and the apps' shared flags.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "cusparse_check.hpp"
#include "gpu_timer.hpp"
#include "precision.hpp"
#include "spgraph/error.hpp"
#include "table.hpp"
#include "test_support.hpp"

namespace spgraph::bench {
namespace {

TEST(Table, AlignsTextLeftAndNumbersRightWithGaps) {
  Table t({"name", "ms", "check"});
  t.add_row({"alpha", "1.50", "ok"});
  t.add_row({"b", "12.25", "failed: X"});
  t.add_gap();
  t.add_row({"c", "-"});
  std::ostringstream out;
  t.print(out);
  EXPECT_EQ(out.str(),
            "name      ms  check\n"
            "-----------------------\n"
            "alpha   1.50  ok\n"
            "b      12.25  failed: X\n"
            "\n"
            "c          -\n");
}

TEST(Table, RejectsRowsWiderThanTheHeader) {
  Table t({"a"});
  EXPECT_THROW(t.add_row({"1", "2"}), Error);
}

TEST(Formatting, NumbersAsTheTablesPrintThem) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(fixed(1.234, 2), "1.23");
  EXPECT_EQ(fixed(nan, 2), "-");
  EXPECT_EQ(times(1.5), "1.50x");
  EXPECT_EQ(times(nan), "-");
  EXPECT_EQ(percent(0.8123), "81.2%");
  EXPECT_EQ(gib(std::size_t(512) << 20), "512.0 MiB");
  EXPECT_EQ(gib(std::size_t(3) << 29), "1.50 GiB");
  EXPECT_EQ(count(57156537), "57.2M");
  EXPECT_EQ(count(325557), "326K");
  EXPECT_EQ(count(3216), "3216");
  EXPECT_EQ(count(1560000000), "1.56G");
  EXPECT_EQ(scientific(3.7e-6), "3.7e-06");
}

TEST(Formatting, FailureNamesTheFirstLineOfTheMessage) {
  EXPECT_EQ(failure(Error("out of memory\ndetails")), "failed: out of memory");
  EXPECT_EQ(failure(device::CusparseError(CUSPARSE_STATUS_INSUFFICIENT_RESOURCES, "cusparseSpGEMM_compute", "x")),
            "failed: CUSPARSE_STATUS_INSUFFICIENT_RESOURCES in cusparseSpGEMM_compute");
}

TEST(Statistics, MedianAndGeometricMean) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_NEAR(geometric_mean({1, 4}), 2, 1e-12);
  EXPECT_NEAR(geometric_mean({0.5, 2, 8}), 2, 1e-12);
  EXPECT_EQ(geometric_mean({}), 0);
}

TEST(Precision, ParsesTheCommandLineNames) {
  EXPECT_EQ(parse_precisions("both"), (std::vector<Precision>{Precision::Float, Precision::Double}));
  EXPECT_EQ(parse_precisions("double"), std::vector<Precision>{Precision::Double});
  EXPECT_THROW(parse_precisions("half"), Error);
}

class Inputs : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spgraph-bench-inputs-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void touch(const std::string& name) { std::ofstream(dir_ / name) << ""; }
  std::filesystem::path dir_;
};

TEST_F(Inputs, DefaultFilesFoundInTheDataFolderThenGeneratedPresets) {
  touch("cnr-2000.mtx.gz");
  touch("email-Enron.txt.gz");
  InputOptions o;
  o.data_dir = dir_.string();
  o.generated = {"wb-edu"};
  std::ostringstream log;
  std::vector<InputSpec> specs = resolve_inputs(o, log);
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "cnr-2000");
  EXPECT_EQ(specs[0].path, (dir_ / "cnr-2000.mtx.gz").string());
  EXPECT_EQ(specs[1].name, "email-Enron");
  EXPECT_EQ(specs[2].name, "wb-edu-like");
  EXPECT_EQ(specs[2].preset, "wb-edu");
  EXPECT_TRUE(specs[2].path.empty());
  EXPECT_NE(log.str().find("web-NotreDame.txt.gz"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("cit-HepPh.txt.gz"), std::string::npos) << log.str();
}

TEST_F(Inputs, NamedFilesReplaceTheDefaults) {
  touch("cnr-2000.mtx.gz");
  touch("mine.mtx");
  InputOptions o;
  o.data_dir = dir_.string();
  o.files = {(dir_ / "mine.mtx").string()};
  std::ostringstream log;
  std::vector<InputSpec> specs = resolve_inputs(o, log);
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].name, "mine");
}

TEST_F(Inputs, ErrorsNameWhatIsWrong) {
  InputOptions o;
  o.data_dir = dir_.string();
  std::ostringstream log;
  EXPECT_THROW(
      {
        try {
          resolve_inputs(o, log);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("no inputs"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  o.generated = {"wb-edu", "twitter"};
  EXPECT_THROW(
      {
        try {
          resolve_inputs(o, log);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("'twitter'"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  o.generated.clear();
  o.files = {(dir_ / "absent.mtx").string()};
  EXPECT_THROW(resolve_inputs(o, log), Error);
}

TEST(LoadInput, ReadsAFileAsTheGraph) {
  BenchInput in = load_input({"karate", test::dataset("small/karate.mtx"), ""});
  EXPECT_EQ(in.name, "karate");
  EXPECT_EQ(in.graph.nrows, 34);
  EXPECT_EQ(in.graph.nnz(), 156);  // 78 undirected edges, both directions
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return argv;
}

TEST(BenchFlags, ParseIntoInputAndTimingOptions) {
  BenchFlags flags("double", "out.json");
  TimingOptions timing;
  CLI::App cli;
  flags.add_to(cli, timing);
  std::vector<std::string> args = {"spgemm", "a.mtx", "--generated", "cit-patents,wb-edu", "--precision", "float",
                                   "--repeats", "7", "--warmup", "0"};
  std::vector<char*> argv = argv_of(args);
  cli.parse(int(argv.size()), argv.data());
  InputOptions o = flags.input_options();
  EXPECT_EQ(o.files, std::vector<std::string>{"a.mtx"});
  EXPECT_EQ(o.generated, (std::vector<std::string>{"cit-patents", "wb-edu"}));
  EXPECT_EQ(flags.precision, "float");
  EXPECT_EQ(flags.json_path, "out.json");
  EXPECT_EQ(timing.repeats, 7);
  EXPECT_EQ(timing.warmup, 0);
}

TEST(BenchFlags, NoGeneratedGraphsAndItsConflict) {
  {
    BenchFlags flags("double", "");
    TimingOptions timing;
    CLI::App cli;
    flags.add_to(cli, timing);
    std::vector<std::string> args = {"spmv", "--no-generated"};
    std::vector<char*> argv = argv_of(args);
    cli.parse(int(argv.size()), argv.data());
    EXPECT_TRUE(flags.input_options().generated.empty());
  }
  BenchFlags flags("double", "");
  TimingOptions timing;
  CLI::App cli;
  flags.add_to(cli, timing);
  std::vector<std::string> args = {"spmv", "--no-generated", "--generated", "wb-edu"};
  std::vector<char*> argv = argv_of(args);
  EXPECT_THROW(cli.parse(int(argv.size()), argv.data()), CLI::ExcludesError);
}

TEST(BenchFlags, RejectsAZeroRepeatCount) {
  BenchFlags flags("double", "");
  TimingOptions timing;
  CLI::App cli;
  flags.add_to(cli, timing);
  std::vector<std::string> args = {"spmv", "--repeats", "0"};
  std::vector<char*> argv = argv_of(args);
  EXPECT_THROW(cli.parse(int(argv.size()), argv.data()), CLI::ValidationError);
}

}  // namespace
}  // namespace spgraph::bench
