// The AMB format's layout (gpu/spmv/spmv_formats.hpp) on a matrix past 2^16 rows and columns
// with a row longer than a tile, and an AMB product whose arrays pass 2^31 bytes.
// Its products on every semiring, mask and descriptor are in the kernel tests (the shape zoo).
#include <cuda_runtime_api.h>

#include "spmv_test_support.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::test::spmv {
namespace {

// Segments by the format's rule: a row's run of entries in one 2^16-column tile, cut every
// kAmbMaxSegment entries of the row.
eid_t host_segments(const Csr<double>& a) {
  eid_t segments = 0;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const eid_t in_row = p - a.rowptr[i];
      segments += in_row % gpu::detail::kAmbMaxSegment == 0 || (a.col[p] >> 16) != (a.col[p - 1] >> 16);
    }
  return segments;
}

TEST(AmbFormat, SegmentsChunksAndSlotsOfALargeShape) {
  SPGRAPH_REQUIRE_GPU();
  const NamedMatrix& m = shape_zoo().back();
  ASSERT_EQ(m.name, "140000x200000 with a full row");
  const auto a = gpu::Matrix<float>::from_host(convert_values<float>(m.matrix));
  const eid_t segments = host_segments(m.matrix);
  EXPECT_EQ(gpu::spmv_row_stats(a).amb_segments, segments);

  const gpu::detail::Amb<float>& f = gpu::detail::spmv_amb(a);
  const std::vector<eid_t> offset = f.chunk_offset.download();
  const std::vector<unsigned> meta = f.slot_meta.download();
  const std::vector<unsigned> tile = f.chunk_tile.download();
  ASSERT_EQ(offset.size(), std::size_t(f.nchunks) + 1);
  ASSERT_EQ(meta.size(), std::size_t(f.nchunks) * 32);
  EXPECT_EQ(f.col.size(), std::size_t(offset.back()));
  EXPECT_EQ(f.val.size(), f.col.size());
  eid_t entries = 0, used = 0;
  std::vector<eid_t> full_row_parts;
  for (eid_t c = 0; c < f.nchunks; ++c) {
    const eid_t width = (offset[c + 1] - offset[c]) / 32;
    EXPECT_EQ(offset[c + 1] - offset[c], 32 * width);
    unsigned previous = unsigned(gpu::detail::kAmbMaxSegment);
    for (int lane = 0; lane < 32; ++lane) {
      const unsigned length = meta[32 * c + lane] >> 16;
      EXPECT_LE(length, previous) << "chunk " << c << ": segments longest first";
      if (lane == 0) EXPECT_EQ(eid_t(length), width);
      previous = length;
      entries += length;
      used += length > 0;
      const vid_t row = vid_t((tile[c] >> 16) << 16 | (meta[32 * c + lane] & 0xFFFF));
      if (length > 0 && row == 70001 && (tile[c] & 0xFFFF) == 0) full_row_parts.push_back(length);
    }
  }
  EXPECT_EQ(entries, m.matrix.nnz());
  EXPECT_EQ(used, segments);
  // The full row's 65,536 entries in the first column tile, in segments of kAmbMaxSegment.
  EXPECT_EQ(full_row_parts, std::vector<eid_t>(65536 / gpu::detail::kAmbMaxSegment, gpu::detail::kAmbMaxSegment));
}

// 300 million entries in double: AMB's value array holds 2.4 GB, so slot offsets pass 2^31
// (and CSR's), where 32-bit arithmetic would wrap. Every row holds 1.0 at columns spread over
// every column tile; y = A x with integer x is exact, computed here from the rows.
TEST(AmbFormat, ArraysPastTwoGigabytes) {
  SPGRAPH_REQUIRE_GPU();
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < (std::size_t(20) << 30))
    GTEST_SKIP() << "needs 20 GiB of free device memory, " << (free_bytes >> 20) << " MiB free";
  const vid_t n = 1'000'000, ncols = 3'000'000;
  const eid_t per_row = 300;
  Csr<double> a;
  a.nrows = n;
  a.ncols = ncols;
  a.rowptr.resize(std::size_t(n) + 1);
  a.col.resize(std::size_t(n) * per_row);
  a.val.assign(a.col.size(), 1.0);
  for (vid_t i = 0; i < n; ++i) {
    a.rowptr[i + 1] = a.rowptr[i] + per_row;
    for (eid_t k = 0; k < per_row; ++k) a.col[std::size_t(i) * per_row + k] = vid_t((i % 7 + k * 9973) % ncols);
  }
  std::vector<double> x(ncols);
  for (vid_t j = 0; j < ncols; ++j) x[j] = double(j % 5);
  std::vector<double> expected(n, 0.0);
  for (vid_t i = 0; i < n; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) expected[i] += x[a.col[p]];
  const auto ga = gpu::Matrix<double>::from_host(a);
  a = {};
  const std::vector<double> got =
      gpu_product<PlusTimes, double>(Op::Mxv, ga, x, nullptr, std::vector<double>(n, 0.0), {}, SpmvKernel::Amb);
  EXPECT_GT(gpu::detail::spmv_amb(ga).val.size() * sizeof(double), std::size_t(1) << 31);
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace spgraph::test::spmv
