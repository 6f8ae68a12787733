// The GPU's shared masked write C<M> = T (lib/src/gpu/ops/mask_write.hpp): known answers for
// what the operations cannot produce on their own (pattern results and old entries, C as its
// own mask), then against GraphBLAS's C<M> = T (apply with identity) on random matrices.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/ops/mask_write.hpp"
#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {
namespace {

using gpu::detail::write_masked;

template <class V>
gpu::Matrix<V> device_matrix(vid_t nrows, vid_t ncols, std::vector<Entry<V>> entries, bool pattern = false) {
  Csr<V> h = csr(nrows, ncols, std::move(entries));
  if (pattern) h.val.clear();
  return gpu::Matrix<V>::from_host(h);
}

// T = {(0,0), (0,2), (1,1)}; mask allows (0,0) and (1,2) when valued, also (0,1) when
// structural; the old C has (0,2), (1,0) and (1,2).
template <class V> gpu::Matrix<V> t_matrix(bool pattern = false) {
  return device_matrix<V>(2, 3, {{0, 0, 4}, {0, 2, 5}, {1, 1, 6}}, pattern);
}
template <class V> gpu::Matrix<V> mask_matrix() { return device_matrix<V>(2, 3, {{0, 0, 1}, {0, 1, 0}, {1, 2, 3}}); }
template <class V> gpu::Matrix<V> old_c(bool pattern = false) {
  return device_matrix<V>(2, 3, {{0, 2, 7}, {1, 0, 8}, {1, 2, 9}}, pattern);
}

TEST(MaskWriteGpu, WithoutAMaskCIsT) {
  SPGRAPH_REQUIRE_GPU();
  auto C = old_c<double>();
  write_masked<double>(C, nullptr, t_matrix<double>(), Descriptor{});
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(C, 2, 3, {{0, 0, 4}, {0, 2, 5}, {1, 1, 6}})));
  C = old_c<double>();
  write_masked<double>(C, nullptr, t_matrix<double>(), Descriptor{.mask_complement = true});  // allows nothing
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(C, 2, 3, {{0, 2, 7}, {1, 0, 8}, {1, 2, 9}})));
  C = old_c<double>();
  write_masked<double>(C, nullptr, t_matrix<double>(), Descriptor{.mask_complement = true, .replace = true});
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(C, 2, 3, {})));
  gpu::Matrix<double> other = device_matrix<double>(4, 4, {{3, 3, 1}});  // another shape: nothing to keep
  write_masked<double>(other, nullptr, t_matrix<double>(), Descriptor{.mask_complement = true});
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(other, 2, 3, {})));
}

TEST(MaskWriteGpu, KnownAnswers) {
  SPGRAPH_REQUIRE_GPU();
  using G = gpu::GpuBackend;
  const auto mask = mask_matrix<std::int32_t>();
  const auto run = [&](Descriptor d) {
    auto C = old_c<std::int32_t>();
    write_masked(C, &mask, t_matrix<std::int32_t>(), d);
    return C;
  };
  EXPECT_TRUE((holds<G, std::int32_t>(run({}), 2, 3, {{0, 0, 4}, {0, 2, 7}, {1, 0, 8}})));
  EXPECT_TRUE((holds<G, std::int32_t>(run({.replace = true}), 2, 3, {{0, 0, 4}})));
  EXPECT_TRUE((holds<G, std::int32_t>(run({.mask_structural = true}), 2, 3, {{0, 0, 4}, {0, 2, 7}, {1, 0, 8}})));
  EXPECT_TRUE((holds<G, std::int32_t>(run({.mask_complement = true}), 2, 3, {{0, 2, 5}, {1, 1, 6}, {1, 2, 9}})));
  EXPECT_TRUE((holds<G, std::int32_t>(run({.mask_structural = true, .mask_complement = true, .replace = true}), 2,
                                      3, {{0, 2, 5}, {1, 1, 6}})));
}

TEST(MaskWriteGpu, PatternsStayPatternsUnlessAValueIsKept) {
  SPGRAPH_REQUIRE_GPU();
  const auto mask = mask_matrix<float>();
  auto C = old_c<float>();  // valued old entries kept: the result has values, T's read as 1
  write_masked(C, &mask, t_matrix<float>(true), Descriptor{});
  EXPECT_FALSE(C.is_pattern());
  EXPECT_TRUE((holds<gpu::GpuBackend, float>(C, 2, 3, {{0, 0, 1}, {0, 2, 7}, {1, 0, 8}})));
  C = old_c<float>(true);
  write_masked(C, &mask, t_matrix<float>(true), Descriptor{});
  EXPECT_TRUE(C.is_pattern());
  EXPECT_TRUE((holds<gpu::GpuBackend, float>(C, 2, 3, {{0, 0, 1}, {0, 2, 1}, {1, 0, 1}})));
  C = old_c<float>();
  write_masked(C, &mask, t_matrix<float>(true), Descriptor{.replace = true});
  EXPECT_TRUE(C.is_pattern());
  EXPECT_TRUE((holds<gpu::GpuBackend, float>(C, 2, 3, {{0, 0, 1}})));
  C = old_c<float>(true);  // a pattern old C under a valued T: its entries read as 1
  write_masked(C, &mask, t_matrix<float>(), Descriptor{.mask_complement = true});
  EXPECT_TRUE((holds<gpu::GpuBackend, float>(C, 2, 3, {{0, 2, 5}, {1, 1, 6}, {1, 2, 1}})));
}

TEST(MaskWriteGpu, CAsItsOwnMask) {
  SPGRAPH_REQUIRE_GPU();
  auto C = old_c<double>();
  write_masked(C, &C, t_matrix<double>(), Descriptor{.mask_structural = true});  // (1,0), (1,2): T has none
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(C, 2, 3, {{0, 2, 5}})));
  C = old_c<double>();
  write_masked(C, &C, t_matrix<double>(), Descriptor{.mask_structural = true, .mask_complement = true});
  EXPECT_TRUE((holds<gpu::GpuBackend, double>(C, 2, 3, {{0, 0, 4}, {0, 2, 7}, {1, 0, 8}, {1, 1, 6}, {1, 2, 9}})));
}

TEST(MaskWriteGpu, EmptyShapesAndAMaskOfTheWrongShape) {
  SPGRAPH_REQUIRE_GPU();
  gpu::Matrix<double> C;
  const auto none = device_matrix<double>(0, 5, {});
  write_masked(C, &none, device_matrix<double>(0, 5, {}), Descriptor{});
  EXPECT_EQ(C.nrows(), 0);
  EXPECT_EQ(C.ncols(), 5);
  const auto wrong = device_matrix<double>(3, 2, {});
  C = old_c<double>();
  try {
    write_masked(C, &wrong, t_matrix<double>(), Descriptor{});
    ADD_FAILURE() << "a 3 x 2 mask for a 2 x 3 result was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("3 x 2"), std::string::npos) << e.what();
  }
}

TEST(MaskWriteGpu, Vectors) {
  SPGRAPH_REQUIRE_GPU();
  using Vi = std::vector<std::int64_t>;
  const auto up = [](const Vi& v) { return gpu::GpuBackend::from_host(v); };
  const auto t = up({1, 2, 3, 4}), m = up({0, 1, 0, 5});
  auto w = up({7, 7, 7, 7});
  write_masked<std::int64_t>(w, &m, t, -1, Descriptor{});
  EXPECT_EQ(w.download(), (Vi{7, 2, 7, 4}));
  w = up({7, 7, 7, 7});
  write_masked<std::int64_t>(w, &m, t, -1, Descriptor{.replace = true});
  EXPECT_EQ(w.download(), (Vi{-1, 2, -1, 4}));
  w = up({7, 7, 7, 7});
  write_masked<std::int64_t>(w, &m, t, -1, Descriptor{.mask_complement = true});
  EXPECT_EQ(w.download(), (Vi{1, 7, 3, 7}));
  w = up({7, 7, 7, 7});
  write_masked<std::int64_t>(w, &m, t, -1, Descriptor{.mask_structural = true, .mask_complement = true});
  EXPECT_EQ(w.download(), (Vi{7, 7, 7, 7}));
  gpu::Vector<std::int64_t> fresh;  // no old values: positions not allowed take the identity
  write_masked<std::int64_t>(fresh, &m, t, -1, Descriptor{});
  EXPECT_EQ(fresh.download(), (Vi{-1, 2, -1, 4}));
  write_masked<std::int64_t>(fresh, nullptr, t, -1, Descriptor{});
  EXPECT_EQ(fresh.download(), (Vi{1, 2, 3, 4}));
  auto self = up({5, 6, 7, 8});  // w is t
  write_masked<std::int64_t>(self, &m, self, -1, Descriptor{.replace = true});
  EXPECT_EQ(self.download(), (Vi{-1, 6, -1, 8}));
  const auto short_mask = up({1, 1});
  EXPECT_THROW(write_masked<std::int64_t>(w, &short_mask, t, -1, Descriptor{}), Error);
}

// GraphBLAS's C<M> = T is apply(C, M, T, identity); the GPU's is write_masked.
template <class V>
class MaskWriteGpuVsGraphblas : public ::testing::Test {};
TYPED_TEST_SUITE(MaskWriteGpuVsGraphblas, ValueTypes);

TYPED_TEST(MaskWriteGpuVsGraphblas, EveryDescriptorOnRandomMatrices) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto ts = random_inputs<V>(61), ms = random_inputs<V>(62), cs = random_inputs<V>(63);
  for (std::size_t i = 0; i < ts.size(); ++i)
    for (const Descriptor& d : mask_descriptors()) {
      auto cpu_c = gb::from_host(cs[i]);
      const auto cpu_m = gb::from_host(ms[i]);
      gb::apply(cpu_c, &cpu_m, gb::from_host(ts[i]), unary::Identity{}, d);
      auto gpu_c = gpu::Matrix<V>::from_host(cs[i]);
      const auto gpu_m = gpu::Matrix<V>::from_host(ms[i]);
      write_masked(gpu_c, &gpu_m, gpu::Matrix<V>::from_host(ts[i]), d);
      EXPECT_TRUE(same_matrix(gpu_result(gpu_c), gb::to_host(cpu_c))) << "input " << i << ", " << describe(d);
    }
}

}  // namespace
}  // namespace spgraph::test
