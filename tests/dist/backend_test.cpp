// dist::Backend<GraphBlasBackend> against GraphBlasBackend itself, operation by operation, on
// every grid shape of the job's P ranks (1 x P, P x 1 and those between), on random matrices
// with uneven blocks, empty rows and columns, a dense row, and sizes below P (ranks that own no
// rows). Values are small integers, so every sum is exact and results must be equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dist_test_support.hpp"
#include "matrix_support.hpp"
#include "spgraph/dist/backend.hpp"
#include "spgraph/graphblas/backend.hpp"

namespace spgraph::dist::test {
namespace {

using G = graphblas::GraphBlasBackend;
using D = Backend<G>;
using spgraph::test::random_csr;
using spgraph::test::RandomSpec;

// The sizes every test runs on: 1 and 2 (fewer rows than ranks at P > 2), odd, uneven.
struct Shape {
  vid_t n, m, k;
};
const Shape kShapes[] = {{1, 1, 1}, {2, 3, 2}, {7, 7, 7}, {13, 9, 11}, {31, 31, 31}};

template <class V>
Csr<V> random_matrix(vid_t n, vid_t m, unsigned seed, double density = 0.3, bool pattern = false) {
  RandomSpec s;
  s.nrows = n;
  s.ncols = m;
  s.density = density;
  s.seed = seed;
  s.empty_row_every = 5;
  s.dense_row = n > 3 ? 3 : -1;
  s.pattern = pattern;
  return random_csr<V>(s);
}

template <class V>
std::vector<V> random_vector(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<V> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = V(int(rng() % 7) - 3);
  return x;
}

template <class V>
void expect_same(const Csr<V>& got, const Csr<V>& want) {
  EXPECT_EQ(got.nrows, want.nrows);
  EXPECT_EQ(got.ncols, want.ncols);
  EXPECT_EQ(got.rowptr, want.rowptr);
  EXPECT_EQ(got.col, want.col);
  EXPECT_EQ(got.val, want.val);
}

TEST(DistBackend, HostRoundTripsKeepEveryBlock) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto h = random_matrix<double>(s.n, s.m, 1);
      expect_same(D::to_host(D::from_host(h)), h);
      const auto hb = random_matrix<bool>(s.n, s.m, 2);
      expect_same(D::to_host(D::from_host(hb)), hb);
      const auto x = random_vector<std::int64_t>(std::size_t(s.n), 3);
      EXPECT_EQ(D::to_host(D::from_host(x)), x);
      const std::vector<bool> xb = {true, false, true};
      EXPECT_EQ(D::to_host(D::from_host(xb)), xb);
      EXPECT_EQ(D::to_host(D::zeros<float>(std::size_t(s.m))), std::vector<float>(std::size_t(s.m), 0.0f));
      // A pattern's entries read as 1.
      expect_same(D::to_host(D::pattern_from_host<float>(h)), G::to_host(G::pattern_from_host<float>(h)));
      EXPECT_EQ(D::from_host(h).nnz(), h.nnz());
    }
  });
}

template <class SR, class V>
void check_products(SR sr) {
  for (const Shape& s : kShapes) {
    const auto a = random_matrix<V>(s.n, s.m, 11), b = random_matrix<V>(s.m, s.k, 12);
    const auto x = random_vector<V>(std::size_t(s.m), 13), xt = random_vector<V>(std::size_t(s.n), 14);
    const auto mask = random_vector<V>(std::size_t(s.n), 15);
    const auto ga = G::from_host(a), gb = G::from_host(b);
    const auto da = D::from_host(a), db = D::from_host(b);
    for (Descriptor desc : {Descriptor{}, Descriptor{.mask_structural = true}, Descriptor{.mask_complement = true},
                            Descriptor{.replace = true}}) {
      SCOPED_TRACE(std::string(SR::add_monoid::name) + "." + SR::multiply_op::name + " " + std::to_string(s.n) + "x" +
                   std::to_string(s.m) + " complement " + std::to_string(desc.mask_complement));
      // y<m> = A x, over an old y (kept outside the mask)
      auto gy = G::from_host(xt), gm = G::from_host(mask), gx = G::from_host(x);
      auto dy = D::from_host(xt), dm = D::from_host(mask), dx = D::from_host(x);
      G::mxv(gy, &gm, ga, gx, sr, desc);
      D::mxv(dy, &dm, da, dx, sr, desc);
      EXPECT_EQ(D::to_host(dy), G::to_host(gy));
      // y = x' A and y = A' x
      typename G::template Vector<V> gz;
      typename D::template Vector<V> dz;
      G::vxm(gz, nullptr, G::from_host(xt), ga, sr);
      D::vxm(dz, nullptr, D::from_host(xt), da, sr);
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      G::mxv(gz, nullptr, ga, G::from_host(xt), sr, Descriptor{.transpose_a = true});
      D::mxv(dz, nullptr, da, D::from_host(xt), sr, Descriptor{.transpose_a = true});
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      // C<M> = A B with M a random n x k pattern, and C = A B'
      const auto mh = random_matrix<V>(s.n, s.k, 16, 0.5);
      typename G::template Matrix<V> gc = G::from_host(random_matrix<V>(s.n, s.k, 17));
      typename D::template Matrix<V> dc = D::from_host(random_matrix<V>(s.n, s.k, 17));
      const auto gmm = G::from_host(mh);
      const auto dmm = D::from_host(mh);
      G::mxm(gc, &gmm, ga, gb, sr, desc);
      D::mxm(dc, &dmm, da, db, sr, desc);
      expect_same(D::to_host(dc), G::to_host(gc));
      const auto bt = random_matrix<V>(s.k, s.m, 18);
      G::mxm(gc, nullptr, ga, G::from_host(bt), sr, Descriptor{.transpose_b = true});
      D::mxm(dc, nullptr, da, D::from_host(bt), sr, Descriptor{.transpose_b = true});
      expect_same(D::to_host(dc), G::to_host(gc));
    }
  }
}

TEST(DistBackend, ProductsMatchOneProcess) {
  for_each_grid([](const ProcessGrid&) {
    check_products<PlusTimes, double>(PlusTimes{});
    check_products<MinPlus, std::int64_t>(MinPlus{});
    check_products<MaxTimes, std::int32_t>(MaxTimes{});
    check_products<PlusPair, std::int32_t>(PlusPair{});
    check_products<OrAnd, bool>(OrAnd{});
  });
}

// Both ways: the operands replicated (the default budget) and SUMMA's masked product (a budget
// of one byte), on one operand thrice and on three, with B and B'.
TEST(DistBackend, MaskedRowSumsMatchOneProcess) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto a = random_matrix<std::int32_t>(s.n, s.m, 21, 0.4, true), mask = random_matrix<std::int32_t>(s.n, s.k, 22, 0.5, true);
      const auto b = random_matrix<std::int32_t>(s.m, s.k, 23, 0.4, true), bt = random_matrix<std::int32_t>(s.k, s.m, 24, 0.4, true);
      const auto square = random_matrix<std::int32_t>(s.n, s.n, 25, 0.4, true);
      for (std::size_t budget : {std::size_t(0), std::size_t(1)}) {
        SCOPED_TRACE(budget ? "SUMMA" : "replicated");
        const MxmOptions opt{.memory_budget = budget};
        typename G::template Vector<std::int64_t> gy;
        typename D::template Vector<std::int64_t> dy;
        const Descriptor dot{.transpose_b = true};
        G::mxm_reduce_rows(gy, G::from_host(square), G::from_host(square), G::from_host(square), PlusPair{}, dot);
        const auto one = D::from_host(square);
        D::mxm_reduce_rows(dy, one, one, one, PlusPair{}, dot, opt);
        EXPECT_EQ(D::to_host(dy), G::to_host(gy)) << "one operand";
        for (bool transposed : {false, true}) {
          const Descriptor desc{.mask_structural = true, .transpose_b = transposed};
          const auto& right = transposed ? bt : b;
          G::mxm_reduce_rows(gy, G::from_host(mask), G::from_host(a), G::from_host(right), PlusPair{}, desc);
          D::mxm_reduce_rows(dy, D::from_host(mask), D::from_host(a), D::from_host(right), PlusPair{}, desc, opt);
          EXPECT_EQ(D::to_host(dy), G::to_host(gy)) << (transposed ? "A B'" : "A B");
          // And in double, plus-times' sums.
          const auto av = random_matrix<double>(s.n, s.m, 26), rv = random_matrix<double>(right.nrows, right.ncols, 27);
          typename G::template Vector<double> gd;
          typename D::template Vector<double> dd;
          G::mxm_reduce_rows(gd, G::from_host(random_matrix<double>(s.n, s.k, 28)), G::from_host(av), G::from_host(rv),
                             PlusTimes{}, desc);
          D::mxm_reduce_rows(dd, D::from_host(random_matrix<double>(s.n, s.k, 28)), D::from_host(av), D::from_host(rv),
                             PlusTimes{}, desc, opt);
          const auto got = D::to_host(dd), want = G::to_host(gd);
          ASSERT_EQ(got.size(), want.size());
          for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::abs(want[i])));
        }
      }
    }
  });
}

TEST(DistBackend, MaskedRowSumsRefuseMismatchedShapes) {
  for_each_grid([](const ProcessGrid&) {
    const auto a = D::from_host(random_matrix<std::int32_t>(5, 4, 1, 0.5, true));
    const auto wrong = D::from_host(random_matrix<std::int32_t>(5, 5, 2, 0.5, true));
    typename D::template Vector<std::int64_t> y;
    EXPECT_THROW(D::mxm_reduce_rows(y, wrong, a, wrong, PlusPair{}), Error);  // A's 4 columns, B's 5 rows
  });
}

// any.secondi picks any parent: check that each is one (F(i,k) and A(k,j) both exist) and that
// the pattern is the one-process pattern.
TEST(DistBackend, AnySecondIGivesValidParents) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto f = random_matrix<std::int32_t>(s.n, s.m, 31, 0.3, true), a = random_matrix<std::int32_t>(s.m, s.k, 32, 0.3, true);
      typename G::template Matrix<std::int32_t> gc;
      typename D::template Matrix<std::int32_t> dc;
      G::mxm(gc, nullptr, G::from_host(f), G::from_host(a), AnySecondI{});
      D::mxm(dc, nullptr, D::from_host(f), D::from_host(a), AnySecondI{});
      const auto got = D::to_host(dc), want = G::to_host(gc);
      EXPECT_EQ(got.rowptr, want.rowptr);
      EXPECT_EQ(got.col, want.col);
      auto has = [](const Csr<std::int32_t>& m, vid_t i, vid_t j) {
        return std::binary_search(m.col.begin() + m.rowptr[i], m.col.begin() + m.rowptr[i + 1], j);
      };
      for (vid_t i = 0; i < got.nrows; ++i)
        for (eid_t e = got.rowptr[i]; e < got.rowptr[i + 1]; ++e) {
          const vid_t k = got.val[std::size_t(e)];
          EXPECT_TRUE(k >= 0 && k < s.m && has(f, i, k) && has(a, k, got.col[std::size_t(e)])) << i << " " << k;
        }
    }
  });
}

TEST(DistBackend, ElementWiseApplySelectMatchOneProcess) {
  using Kind = SelectSpec::Kind;
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto a = random_matrix<double>(s.n, s.m, 41), b = random_matrix<double>(s.n, s.m, 42);
      const auto sq = random_matrix<double>(s.n, s.n, 43), sq2 = random_matrix<double>(s.n, s.n, 44);
      typename G::template Matrix<double> gc;
      typename D::template Matrix<double> dc;
      G::ewise_add<monoid::Plus>(gc, nullptr, G::from_host(a), G::from_host(b));
      D::ewise_add<monoid::Plus>(dc, nullptr, D::from_host(a), D::from_host(b));
      expect_same(D::to_host(dc), G::to_host(gc));
      G::ewise_mult<mult::Times>(gc, nullptr, G::from_host(a), G::from_host(b));
      D::ewise_mult<mult::Times>(dc, nullptr, D::from_host(a), D::from_host(b));
      expect_same(D::to_host(dc), G::to_host(gc));
      G::ewise_add<monoid::Any>(gc, nullptr, G::from_host(sq), G::from_host(sq2), Descriptor{.transpose_b = true});
      D::ewise_add<monoid::Any>(dc, nullptr, D::from_host(sq), D::from_host(sq2), Descriptor{.transpose_b = true});
      EXPECT_EQ(D::to_host(dc).col, G::to_host(gc).col);
      G::apply(gc, nullptr, G::from_host(a), unary::Pow{2});
      D::apply(dc, nullptr, D::from_host(a), unary::Pow{2});
      expect_same(D::to_host(dc), G::to_host(gc));
      for (SelectSpec spec : {SelectSpec::position(Kind::Lower, -1), SelectSpec::position(Kind::Upper, 1),
                              SelectSpec::position(Kind::Upper, -2), SelectSpec::position(Kind::Diagonal),
                              SelectSpec::position(Kind::OffDiagonal), SelectSpec::value(Kind::Greater, 0),
                              SelectSpec::top_k(Kind::TopKPerRow, 2), SelectSpec::top_k(Kind::TopKPerCol, 3)}) {
        SCOPED_TRACE("select kind " + std::to_string(int(spec.kind)));
        G::select(gc, nullptr, G::from_host(a), spec);
        D::select(dc, nullptr, D::from_host(a), spec);
        expect_same(D::to_host(dc), G::to_host(gc));
      }
      const auto x = random_vector<double>(std::size_t(s.n), 45), y = random_vector<double>(std::size_t(s.n), 46);
      typename G::template Vector<double> gz;
      typename D::template Vector<double> dz;
      G::ewise_add<monoid::Max>(gz, nullptr, G::from_host(x), G::from_host(y));
      D::ewise_add<monoid::Max>(dz, nullptr, D::from_host(x), D::from_host(y));
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      G::ewise_mult<mult::Times>(gz, nullptr, G::from_host(x), G::from_host(y));
      D::ewise_mult<mult::Times>(dz, nullptr, D::from_host(x), D::from_host(y));
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      auto gm = G::from_host(y);
      auto dm = D::from_host(y);
      G::apply(gz, &gm, G::from_host(x), unary::Abs{}, Descriptor{.replace = true});
      D::apply(dz, &dm, D::from_host(x), unary::Abs{}, Descriptor{.replace = true});
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      G::assign(gz, &gm, 5.0, Descriptor{.mask_complement = true});
      D::assign(dz, &dm, 5.0, Descriptor{.mask_complement = true});
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      auto gmat = G::from_host(a);
      auto dmat = D::from_host(a);
      auto gmask = G::from_host(b);
      auto dmask = D::from_host(b);
      G::assign(gmat, &gmask, 9.0, Descriptor{.mask_structural = true});
      D::assign(dmat, &dmask, 9.0, Descriptor{.mask_structural = true});
      expect_same(D::to_host(dmat), G::to_host(gmat));
      // scale rows and columns by a vector
      const auto dr = random_vector<double>(std::size_t(s.n), 47), dcv = random_vector<double>(std::size_t(s.m), 48);
      G::scale_rows(gc, G::from_host(dr), G::from_host(a));
      D::scale_rows(dc, D::from_host(dr), D::from_host(a));
      expect_same(D::to_host(dc), G::to_host(gc));
      G::scale_cols(gc, G::from_host(a), G::from_host(dcv));
      D::scale_cols(dc, D::from_host(a), D::from_host(dcv));
      expect_same(D::to_host(dc), G::to_host(gc));
      // MCL's inflation, in place and not: positive weights, so every row's sum is exact
      auto w = a;
      for (double& v : w.val) v = std::fabs(v) + 1;
      for (const InflateSpec spec : {InflateSpec{.power = 2}, InflateSpec{.power = 1, .float_values = true}}) {
        G::inflate_rows(gc, G::from_host(w), spec);
        D::inflate_rows(dc, D::from_host(w), spec);
        expect_same(D::to_host(dc), G::to_host(gc));
        auto in_place = D::from_host(w);
        D::inflate_rows(in_place, in_place, spec);
        expect_same(D::to_host(in_place), G::to_host(gc));
      }
    }
  });
}

TEST(DistBackend, ReductionsMatchOneProcess) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto a = random_matrix<std::int32_t>(s.n, s.m, 51);
      const auto ga = G::from_host(a);
      const auto da = D::from_host(a);
      typename G::template Vector<std::int64_t> gy;
      typename D::template Vector<std::int64_t> dy;
      G::reduce_rows<monoid::Plus>(gy, ga);
      D::reduce_rows<monoid::Plus>(dy, da);
      EXPECT_EQ(D::to_host(dy), G::to_host(gy));
      typename G::template Vector<std::int32_t> gz;
      typename D::template Vector<std::int32_t> dz;
      G::reduce_cols<monoid::Max>(gz, ga);
      D::reduce_cols<monoid::Max>(dz, da);
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      G::reduce_rows<monoid::Min>(gz, ga);
      D::reduce_rows<monoid::Min>(dz, da);
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      EXPECT_EQ((D::reduce_scalar<monoid::Plus, std::int64_t>(da)), (G::reduce_scalar<monoid::Plus, std::int64_t>(ga)));
      EXPECT_EQ(D::reduce_scalar<monoid::Min>(da), G::reduce_scalar<monoid::Min>(ga));
      const auto x = random_vector<double>(std::size_t(s.m), 52);
      EXPECT_EQ(D::reduce_scalar<monoid::Plus>(D::from_host(x)), G::reduce_scalar<monoid::Plus>(G::from_host(x)));
      EXPECT_EQ(D::reduce_scalar<monoid::Max>(D::from_host(x)), G::reduce_scalar<monoid::Max>(G::from_host(x)));
      typename G::template Vector<vid_t> gd;
      typename D::template Vector<vid_t> dd;
      G::row_degrees(gd, ga);
      D::row_degrees(dd, da);
      EXPECT_EQ(D::to_host(dd), G::to_host(gd));
      // map_reduce: the sums over every element, the vectors written in place
      auto gx = G::from_host(x);
      auto dx = D::from_host(x);
      auto pass = [](std::size_t i, double (&acc)[2], double* v) {
        acc[0] += 1;
        acc[1] += v[i];
        v[i] *= 2;
      };
      const auto gs = G::map_reduce<2>(pass, gx);
      const auto ds = D::map_reduce<2>(pass, dx);
      EXPECT_EQ(ds, gs);
      EXPECT_EQ(D::to_host(dx), G::to_host(gx));
    }
  });
}

TEST(DistBackend, MovesMatchOneProcess) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      const auto a = random_matrix<double>(s.n, s.m, 61), sq = random_matrix<double>(s.n, s.n, 62);
      typename G::template Matrix<double> gc;
      typename D::template Matrix<double> dc;
      G::transpose(gc, G::from_host(a));
      D::transpose(dc, D::from_host(a));
      expect_same(D::to_host(dc), G::to_host(gc));
      std::vector<vid_t> p(std::size_t(s.n));
      std::iota(p.begin(), p.end(), vid_t(0));
      std::shuffle(p.begin(), p.end(), std::mt19937_64(63));
      G::permute(gc, G::from_host(sq), p);
      D::permute(dc, D::from_host(sq), p);
      expect_same(D::to_host(dc), G::to_host(gc));
      G::permute(gc, G::from_host(sq), G::from_host(p));
      D::permute(dc, D::from_host(sq), D::from_host(p));
      expect_same(D::to_host(dc), G::to_host(gc));
      const std::vector<vid_t> rows = {vid_t(s.n - 1), 0, vid_t(s.n / 2), vid_t(s.n - 1)};
      G::extract_rows(gc, G::from_host(a), rows);
      D::extract_rows(dc, D::from_host(a), rows);
      expect_same(D::to_host(dc), G::to_host(gc));
      const auto x = random_vector<double>(std::size_t(s.n), 64);
      typename G::template Vector<double> gz;
      typename D::template Vector<double> dz;
      G::extract(gz, G::from_host(x), rows);
      D::extract(dz, D::from_host(x), rows);
      EXPECT_EQ(D::to_host(dz), G::to_host(gz));
      G::diag(gc, G::from_host(x));
      D::diag(dc, D::from_host(x));
      expect_same(D::to_host(dc), G::to_host(gc));
      const auto keys = random_vector<vid_t>(std::size_t(s.n), 65);
      typename G::template Vector<vid_t> gp;
      typename D::template Vector<vid_t> dp;
      for (bool ascending : {true, false}) {
        G::sort_order(gp, G::from_host(keys), ascending);
        D::sort_order(dp, D::from_host(keys), ascending);
        EXPECT_EQ(D::to_host(dp), G::to_host(gp));
      }
    }
  });
}

TEST(DistBackend, PrunedProductMatchesOneProcess) {
  for_each_grid([](const ProcessGrid&) {
    for (const Shape& s : kShapes) {
      RandomSpec spec;
      spec.nrows = spec.ncols = s.n;
      spec.density = 0.4;
      spec.seed = 71;
      spec.min_value = 1;
      spec.max_value = 9;
      const auto a = random_csr<double>(spec);
      // Selection and recovery; and a threshold no entry reaches without recovery, where a row
      // keeps its diagonal (mcl's emergency loop), which needs the rows' global positions.
      for (const PruneSpec prune : {PruneSpec{.threshold = 20, .select = 3, .recover = 2, .recover_mass = 0.9},
                                    PruneSpec{.threshold = 1e9}}) {
        typename G::template Matrix<double> gc;
        typename G::template Vector<double> gpeak, gsq;
        typename D::template Matrix<double> dc;
        typename D::template Vector<double> dpeak, dsq;
        G::mxm_prune_rows(gc, gpeak, gsq, G::from_host(a), G::from_host(a), PlusTimes{}, prune);
        D::mxm_prune_rows(dc, dpeak, dsq, D::from_host(a), D::from_host(a), PlusTimes{}, prune);
        expect_same(D::to_host(dc), G::to_host(gc));
        EXPECT_EQ(D::to_host(dpeak), G::to_host(gpeak));
        EXPECT_EQ(D::to_host(dsq), G::to_host(gsq));
      }
    }
  });
}

TEST(DistBackend, AnInputOfNoGridIsRefused) {
  for_each_grid([](const ProcessGrid&) {
    typename D::template Matrix<double> empty, out;
    try {
      D::transpose(out, empty);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("no process grid"), std::string::npos) << e.what();
    }
  });
}

}  // namespace
}  // namespace spgraph::dist::test
