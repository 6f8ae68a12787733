// dist::Backend::mxm_prune_rows in phases (dist/pruned_product.hpp) and on replicated operands
// (dist/replicated_product.hpp) against GraphBlasBackend's mxm_prune_rows as one process, on
// every grid shape of the job's ranks: whatever the phases, the pruned product, the peaks and the
// sums of squares are the one-process ones exactly, and the phases are those the sizing rule
// gives, worked out here from the host matrices.
//
// The matrices are stochastic-like (each row's values at most 1 in all, about 1) with values of
// a few bits over a power of two, so every product and sum is exact in float and double and
// SUMMA's order of stages cannot change a bit; equal values are common, so the rule meets ties
// at its bar.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dist_test_support.hpp"
#include "matrix_support.hpp"
#include "spgraph/coo.hpp"
#include "spgraph/dist/backend.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::dist::test {
namespace {

using G = graphblas::GraphBlasBackend;
using D = Backend<G>;

// Each row's values divided by the power of two at or above the row's sum.
template <class V>
Csr<V> stochastic_like(const Csr<double>& h) {
  Csr<V> out{h.nrows, h.ncols, h.rowptr, h.col, std::vector<V>(h.col.size())};
  for (std::size_t i = 0; i < std::size_t(h.nrows); ++i) {
    double sum = 0;
    for (eid_t k = h.rowptr[i]; k < h.rowptr[i + 1]; ++k) sum += h.val[std::size_t(k)];
    const double scale = std::exp2(std::ceil(std::log2(std::max(sum, 1.0))));
    for (eid_t k = h.rowptr[i]; k < h.rowptr[i + 1]; ++k) out.val[std::size_t(k)] = V(h.val[std::size_t(k)] / scale);
  }
  return out;
}

// Weights 1..8, a dense row, every fifth row empty.
template <class V>
Csr<V> random_stochastic(vid_t n, unsigned seed) {
  spgraph::test::RandomSpec s;
  s.nrows = s.ncols = n;
  s.density = 0.3;
  s.seed = seed;
  s.empty_row_every = 5;
  s.dense_row = n > 3 ? 3 : -1;
  s.min_value = 1;
  s.max_value = 8;
  return stochastic_like<V>(spgraph::test::random_csr<double>(s));
}

// A graph with a loop on every vertex and its links' weights, as MCL starts from it.
Csr<double> with_loops(const Csr<double>& h) {
  Coo<double> coo;
  coo.nrows = h.nrows;
  coo.ncols = h.ncols;
  for (vid_t i = 0; i < h.nrows; ++i) {
    coo.row.push_back(i), coo.col.push_back(i), coo.val.push_back(1);
    for (eid_t k = h.rowptr[std::size_t(i)]; k < h.rowptr[std::size_t(i) + 1]; ++k)
      if (h.col[std::size_t(k)] != i) coo.row.push_back(i), coo.col.push_back(h.col[std::size_t(k)]), coo.val.push_back(1);
  }
  return coo_to_csr(std::move(coo), Duplicates::First);
}

// One case of each branch of the rule (operation_options.hpp).
const PruneSpec kSpecs[] = {
    PruneSpec{.threshold = 0.02},                                               // the threshold alone
    PruneSpec{.threshold = 0.001, .select = 3},                                 // selection
    PruneSpec{.threshold = 0.05, .recover = 4, .recover_mass = 0.9},            // recovery
    PruneSpec{.threshold = 0.001, .select = 2, .recover = 5, .recover_mass = 0.95},  // both
    PruneSpec{.threshold = 1e9},  // nothing kept: each row keeps its diagonal (mcl's emergency)
};

// The sizing rule's phases for A B on a grid of this shape with this budget, from the host
// matrices: row i bounded by min(sum over its entries a_ik of B's row length k, B's columns),
// each grid row's total in bytes over the budget, rounded up; the most over the grid rows,
// at least 1 and at most the longest row block's rows. *estimate: the rows' bounds summed.
template <class V>
std::int64_t sized_phases(const Csr<V>& a, const Csr<V>& b, GridShape shape, std::size_t budget, std::int64_t* estimate) {
  std::int64_t phases = 1, longest = 1;
  *estimate = 0;
  for (int r = 0; r < shape.rows; ++r) {
    const BlockRange rows = matrix_row_block(a.nrows, shape, r);
    longest = std::max(longest, rows.size());
    std::uint64_t total = 0;
    for (std::int64_t i = rows.begin; i < rows.end; ++i) {
      std::int64_t f = 0;
      for (eid_t k = a.rowptr[std::size_t(i)]; k < a.rowptr[std::size_t(i) + 1]; ++k) {
        const vid_t c = a.col[std::size_t(k)];
        f += b.rowptr[std::size_t(c) + 1] - b.rowptr[std::size_t(c)];
      }
      total += std::uint64_t(std::min<std::int64_t>(f, b.ncols));
    }
    *estimate += std::int64_t(total);
    const std::uint64_t bytes = total * detail::kPhaseBytesPerEntry<V>;
    phases = std::max(phases, std::int64_t((bytes + budget - 1) / budget));
  }
  return std::min(phases, longest);
}

// A quarter of this machine's memory shared by the job's ranks, all on this host here.
std::size_t default_budget() {
  return std::size_t(std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGESIZE)) / 4 /
                     std::uint64_t(world().size()));
}

template <class V>
void expect_same(const Csr<V>& got, const Csr<V>& want) {
  EXPECT_EQ(got.rowptr, want.rowptr);
  EXPECT_EQ(got.col, want.col);
  EXPECT_EQ(got.val, want.val);
}

// C = A B pruned by each spec at each budget, on this grid, against one process. Counts the runs
// with more than one phase, and those with more phases than some row block has rows.
template <class V>
void check_phased(const ProcessGrid& grid, const Csr<V>& a, const Csr<V>& b, int* many, int* past_rows) {
  const auto ga = G::from_host(a), gb = G::from_host(b);
  const auto da = D::from_host(a), db = D::from_host(b);
  typename G::template Matrix<V> unpruned;
  G::mxm(unpruned, nullptr, ga, gb, PlusTimes{});
  std::int64_t estimate = 0;
  sized_phases(a, b, grid.shape(), 1, &estimate);
  std::int64_t shortest = a.nrows;
  for (int r = 0; r < grid.rows(); ++r) shortest = std::min(shortest, matrix_row_block(a.nrows, grid.shape(), r).size());
  // 1 byte: a phase a row of the longest block; about a third of the product a phase; the default.
  const std::size_t third = std::max<std::size_t>(1, std::size_t(estimate) * detail::kPhaseBytesPerEntry<V> / 3);
  for (const std::size_t budget : {std::size_t(1), third, std::size_t(0)}) {
    for (const PruneSpec& spec : kSpecs) {
      SCOPED_TRACE("budget " + std::to_string(budget) + ", threshold " + std::to_string(spec.threshold) + " select " +
                   std::to_string(spec.select) + " recover " + std::to_string(spec.recover));
      typename G::template Matrix<V> gc;
      typename G::template Vector<V> gpeak, gsq;
      G::mxm_prune_rows(gc, gpeak, gsq, ga, gb, PlusTimes{}, spec);
      typename D::template Matrix<V> dc;
      typename D::template Vector<V> dpeak, dsq;
      const auto stats = detail::pruned_product(dc, dpeak, dsq, da, db, PlusTimes{}, spec, MxmOptions{.memory_budget = budget});
      expect_same(D::to_host(dc), G::to_host(gc));
      EXPECT_EQ(D::to_host(dpeak), G::to_host(gpeak));
      EXPECT_EQ(D::to_host(dsq), G::to_host(gsq));
      std::int64_t want_estimate = 0;
      EXPECT_EQ(stats.budget, budget ? budget : default_budget());
      EXPECT_EQ(stats.phases, sized_phases(a, b, grid.shape(), stats.budget, &want_estimate));
      EXPECT_EQ(stats.estimate, want_estimate);
      EXPECT_GE(stats.estimate, std::int64_t(unpruned.nnz()));  // a bound on the unpruned product
      if (budget == 1 && estimate > 0) {
        std::int64_t longest = 1;
        for (int r = 0; r < grid.rows(); ++r) longest = std::max(longest, matrix_row_block(a.nrows, grid.shape(), r).size());
        EXPECT_EQ(stats.phases, longest);
      }
      *many += stats.phases > 1;
      *past_rows += stats.phases > shortest;
    }
  }
}

TEST(DistPrunedProduct, PhasesMatchOneProcessOnRandomMatrices) {
  int many = 0, past_rows = 0;
  for_each_grid([&](const ProcessGrid& grid) {
    for (const vid_t n : {1, 2, 7, 13, 31}) {
      SCOPED_TRACE("n " + std::to_string(n));
      check_phased(grid, random_stochastic<double>(n, 81), random_stochastic<double>(n, 82), &many, &past_rows);
      check_phased(grid, random_stochastic<float>(n, 83), random_stochastic<float>(n, 84), &many, &past_rows);
      const auto a = random_stochastic<double>(n, 85);
      check_phased(grid, a, a, &many, &past_rows);  // A A, as MCL's expansion
    }
  });
  EXPECT_GT(many, 0);
  if (world().size() > 1) {
    EXPECT_GT(past_rows, 0);  // uneven row blocks: phases with no rows on some
  }
}

// Backend::mxm_prune_rows takes the replicated operands (dist/replicated_product.hpp) where A and
// B fit the budget, and the phases where they do not (1 byte): both give the one-process
// product, peaks and squares exactly, for A A (MCL's, A's rows cut from the gathered B) and A B
// (A's rows gathered along the grid row). One rank runs the local backend's own.
TEST(DistPrunedProduct, ReplicatedWhereTheOperandsFit) {
  for_each_grid([&](const ProcessGrid& grid) {
    for (const vid_t n : {1, 7, 31}) {
      const auto a = random_stochastic<double>(n, 86), b = random_stochastic<double>(n, 87);
      const auto da = D::from_host(a), db = D::from_host(b);
      for (const bool square : {true, false}) {
        const auto ga = G::from_host(a), gb = G::from_host(square ? a : b);
        for (const PruneSpec& spec : kSpecs) {
          typename G::template Matrix<double> gc;
          typename G::template Vector<double> gpeak, gsq;
          G::mxm_prune_rows(gc, gpeak, gsq, ga, gb, PlusTimes{}, spec);
          for (const std::size_t budget : {std::size_t(0), std::size_t(1)}) {
            SCOPED_TRACE("n " + std::to_string(n) + (square ? ", A A" : ", A B") + ", budget " +
                         std::to_string(budget));
            const std::int64_t before = pruned_product_tally.replicated;
            typename D::template Matrix<double> dc;
            typename D::template Vector<double> dpeak, dsq;
            D::mxm_prune_rows(dc, dpeak, dsq, da, square ? da : db, PlusTimes{}, spec,
                              MxmOptions{.memory_budget = budget});
            expect_same(D::to_host(dc), G::to_host(gc));
            EXPECT_EQ(D::to_host(dpeak), G::to_host(gpeak));
            EXPECT_EQ(D::to_host(dsq), G::to_host(gsq));
            EXPECT_EQ(pruned_product_tally.replicated - before, budget == 0 && grid.world().size() > 1 ? 1 : 0);
          }
        }
      }
    }
  });
}

TEST(DistPrunedProduct, PhasesMatchOneProcessOnARealGraph) {
  int many = 0, past_rows = 0;
  const auto karate = stochastic_like<double>(with_loops(io::load_graph(spgraph::test::dataset("small/karate.mtx")).matrix));
  const auto dolphins = stochastic_like<double>(with_loops(io::load_graph(spgraph::test::dataset("small/dolphins.mtx")).matrix));
  for_each_grid([&](const ProcessGrid& grid) {
    for (const auto& [name, h] : {std::pair{"karate", &karate}, std::pair{"dolphins", &dolphins}}) {
      SCOPED_TRACE(name);
      check_phased(grid, *h, *h, &many, &past_rows);
    }
  });
  EXPECT_GT(many, 0);
}

}  // namespace
}  // namespace spgraph::dist::test
