#include <string>
#include <vector>

#include "map_reduce_cases.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graphblas/backend.hpp"

namespace spgraph::test {
namespace {

using graphblas::GraphBlasBackend;

TEST(MapReduceCpu, UpdatesEveryElementAndSumsExactly) {
  for (std::size_t n : {1u, 7u, 1'000'003u}) check_axpy_and_sums<GraphBlasBackend>(n);
}

TEST(MapReduceCpu, RepeatedPassesThroughOneReducer) { check_repeated_passes<GraphBlasBackend>(100'003); }

TEST(MapReduceCpu, SumsAreTheSameEveryPass) { check_sums_are_deterministic<GraphBlasBackend>(1'000'003); }

TEST(MapReduceCpu, ReducerCallOrderIsEnforced) { check_reducer_call_order_enforced<GraphBlasBackend>(); }

TEST(MapReduceCpu, VectorsOfDifferentLengthsThrow) { check_length_mismatch_throws<GraphBlasBackend>(); }

// A functor that throws on the CPU backend: the exception reaches the caller (inside the
// OpenMP region it would terminate the process), from one thread's range or from every one.
TEST(MapReduceCpu, ExceptionFromTheFunctorReachesTheCaller) {
  const std::size_t n = 100'003;
  auto x = GraphBlasBackend::from_host(std::vector<double>(n, 1.0));
  for (const std::size_t every : {std::size_t(n - 1), std::size_t(1000)}) {
    SCOPED_TRACE(every);
    const auto f = [every](std::size_t i, double (&acc)[1], double*) {
      if (i % every == every - 1) throw Error("bad element " + std::to_string(i));
      acc[0] += 1;
    };
    try {
      GraphBlasBackend::map_reduce<1>(f, x);
      ADD_FAILURE() << "expected the functor's Error";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("bad element ", 0), 0u) << e.what();
    }
  }
  graphblas::MapReducer<1> reducer;
  EXPECT_THROW(reducer.start([](std::size_t, double (&)[1], double*) { throw Error("no"); }, x), Error);
  // Nothing pending after the failed pass: a new one starts.
  reducer.start([](std::size_t, double (&acc)[1], double*) { acc[0] += 1; }, x);
  EXPECT_EQ(reducer.finish()[0], double(n));
}

TEST(MxvReducerCpu, ChainedPassesAreExact) {
  for (const auto& c : mxv_reduce_cases()) {
    SCOPED_TRACE(c.name);
    check_chained_passes<GraphBlasBackend>(c, SpmvKernel::Auto);
  }
}

TEST(MxvReducerCpu, PointersOfEveryWidthReadAndWriteExactly) {
  for (const auto& c : mxv_reduce_cases()) {
    SCOPED_TRACE(c.name);
    check_views_of_every_width<GraphBlasBackend>(c, SpmvKernel::Auto);
  }
}

TEST(MxvReducerCpu, MisuseIsReported) { check_mxv_reducer_misuse<GraphBlasBackend>(); }

}  // namespace
}  // namespace spgraph::test
