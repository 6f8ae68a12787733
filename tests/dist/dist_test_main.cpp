// The main of dist_test: starts MPI, runs the GoogleTest suites on every rank, and gives the
// job one verdict. ctest runs it at P = 1, 2, 3, 4 as
//   mpirun --oversubscribe --allow-run-as-root --mca btl self,vader --mca oob_tcp_if_include lo -n P dist_test
// Rank 0 prints GoogleTest's usual report; the other ranks print only their failures, each line
// led by "rank R:". With --dist-child=NAME it runs a failure scenario instead
// (failure_test.cpp starts those as jobs of their own).
//
// Built only where CMake finds MPI (the top-level CMakeLists registers it apart from the other
// tests/<area> folders).
#include <mpi.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "dist_test_support.hpp"
#include "spgraph/dist/mpi_session.hpp"

namespace {

// The other ranks' report: their failures only, one line each, with the rank.
class FailuresOnly : public ::testing::EmptyTestEventListener {
 public:
  explicit FailuresOnly(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::string text = result.summary();
    for (char& c : text)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "rank %d: %s:%d: failure: %s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), text.c_str());
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed())
      std::fprintf(stderr, "rank %d: [  FAILED  ] %s.%s\n", rank_, info.test_suite_name(), info.name());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace spgraph::dist;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with(test::kChildFlag)) {
      MpiSession mpi(&argc, &argv, MpiSession::Start::Always);
      return test::run_child_scenario(arg.substr(test::kChildFlag.size()));
    }
  }
  MpiSession mpi(&argc, &argv, MpiSession::Start::Always);  // a plain run is a job of one
  ::testing::InitGoogleTest(&argc, argv);
  const int rank = mpi.world_rank();
  if (rank != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailuresOnly(rank));
  }
  const int result = RUN_ALL_TESTS();
  test::release_communicators();
  int worst = result;  // a failure on any rank fails every rank
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && worst != result) std::fprintf(stderr, "dist_test: another rank failed (see its lines above)\n");
  return worst;
}
