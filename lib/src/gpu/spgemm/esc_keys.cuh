#pragma once
// The ESC sort key of a product: (row within the slice, column) packed into 64 bits with only
// as many bits as the slice needs, so the radix sort makes as few passes as possible.
#include <cstdint>

#include "gpu/spgemm/device_ops.cuh"

namespace spgraph::gpu::spgemm_detail {

inline constexpr int kEscItemsPerThread = 8;  // consecutive products per thread in the expansion

struct EscKeyLayout {
  int col_bits = 0;
  int row_bits = 0;

  EscKeyLayout(vid_t slice_rows, vid_t ncols)
      : col_bits(bit_width(static_cast<std::uint64_t>(ncols > 0 ? ncols - 1 : 0))),
        row_bits(bit_width(static_cast<std::uint64_t>(slice_rows > 0 ? slice_rows - 1 : 0))) {}
  int bits() const { return col_bits + row_bits; }
  SPGRAPH_HD std::uint64_t key(vid_t local_row, vid_t col) const {
    return (static_cast<std::uint64_t>(local_row) << col_bits) | static_cast<std::uint64_t>(col);
  }
  SPGRAPH_HD vid_t row(std::uint64_t key) const { return static_cast<vid_t>(key >> col_bits); }
  SPGRAPH_HD vid_t col(std::uint64_t key) const {
    return static_cast<vid_t>(key & ((std::uint64_t(1) << col_bits) - 1));
  }
};

}  // namespace spgraph::gpu::spgemm_detail
