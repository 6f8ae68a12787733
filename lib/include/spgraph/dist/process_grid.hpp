#pragma once
// The pr x pc grid of ranks the distributed backend partitions matrices on (issue 42), with its
// row and column communicators, and the split of an index range into blocks.
//
// Rank r sits at row r / pc, column r % pc (row-major, as CombBLAS's CommGrid). Its row
// communicator holds the pc ranks of its grid row, ranked by column; its column communicator
// the pr ranks of its grid column, ranked by row. Any P works: 1 x P and P x 1 are the 1D
// layouts, and a prime P has no other.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "spgraph/dist/communicator.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {

struct GridShape {
  int rows = 1;
  int cols = 1;
  friend bool operator==(const GridShape&, const GridShape&) = default;
};

// The most nearly square grid of p ranks with rows <= cols: rows the largest divisor of p that
// is at most sqrt(p) (cuGraph's rule). 4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 12 -> 3x4, 7 -> 1x7.
GridShape default_grid_shape(int p);

// The apps' --grid flag: "RxC" (or "RXC"), two positive integers with R * C == p. Throws Error
// naming the text and what is wrong, e.g. that 2x3 is 6 ranks where the job has 4.
GridShape parse_grid_shape(std::string_view text, int p);

// "2x3".
std::string to_string(GridShape shape);

class ProcessGrid {
 public:
  // Collective over `world` (two splits). shape.rows * shape.cols must be world.size(). The
  // grid keeps a reference to `world`, which must outlive it; the row and column communicators
  // are of world's kind (MPI or NCCL) and the grid's own.
  ProcessGrid(Communicator& world, GridShape shape);
  // The default shape for world.size().
  explicit ProcessGrid(Communicator& world);

  GridShape shape() const { return shape_; }
  int rows() const { return shape_.rows; }
  int cols() const { return shape_.cols; }
  int row() const { return row_; }  // this rank's grid row
  int col() const { return col_; }  // this rank's grid column
  int rank_at(int row, int col) const { return row * shape_.cols + col; }

  Communicator& world() const { return world_; }
  Communicator& row_comm() const { return *row_comm_; }  // size cols(), rank col()
  Communicator& col_comm() const { return *col_comm_; }  // size rows(), rank row()

  // The three communicators' counters (world, row, column): their traffic summed, reset, and
  // whether they measure waits (Communicator::measure_waits).
  Traffic traffic() const;
  void reset_traffic() const;
  void measure_waits(bool on) const;

 private:
  Communicator& world_;
  GridShape shape_;
  int row_ = 0;
  int col_ = 0;
  std::unique_ptr<Communicator> row_comm_;
  std::unique_ptr<Communicator> col_comm_;
};

// A half-open range of 64-bit indices.
struct BlockRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
  bool empty() const { return end == begin; }
  friend bool operator==(const BlockRange&, const BlockRange&) = default;
};

namespace detail {
[[noreturn]] void bad_block_arguments(std::int64_t n, std::int64_t parts, std::int64_t i, const char* what);
}

// Block i of [0, n) split into `parts` blocks as evenly as can be: the first n % parts blocks
// one longer. With parts > n the last blocks are empty (ranks that own no rows). No
// intermediate passes n, so any n up to 2^63-1 works.
constexpr BlockRange block_range(std::int64_t n, std::int64_t parts, std::int64_t i) {
  if (n < 0 || parts < 1 || i < 0 || i >= parts) detail::bad_block_arguments(n, parts, i, "block");
  const std::int64_t q = n / parts, r = n % parts;
  const std::int64_t begin = i * q + (i < r ? i : r);
  return {begin, begin + q + (i < r ? 1 : 0)};
}

// The block of block_range(n, parts, .) that holds `index` (0 <= index < n).
constexpr std::int64_t block_owner(std::int64_t n, std::int64_t parts, std::int64_t index) {
  if (n < 0 || parts < 1 || index < 0 || index >= n) detail::bad_block_arguments(n, parts, index, "index");
  const std::int64_t q = n / parts, r = n % parts;
  const std::int64_t long_part = r * (q + 1);  // the r blocks of q + 1
  return index < long_part ? index / (q + 1) : r + (index - long_part) / q;
}

}  // namespace spgraph::dist
