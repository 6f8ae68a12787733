#include "map_reduce_cases.hpp"
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

TEST(MxvReducerCpu, ChainedPassesAreExact) {
  for (const auto& c : mxv_reduce_cases()) {
    SCOPED_TRACE(c.name);
    check_chained_passes<GraphBlasBackend>(c, SpmvKernel::Auto);
  }
}

TEST(MxvReducerCpu, MisuseIsReported) { check_mxv_reducer_misuse<GraphBlasBackend>(); }

}  // namespace
}  // namespace spgraph::test
