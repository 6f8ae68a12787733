// gpu::MxvLoop's slices (loop_slices.hpp): the merge path cut into one part per block, each
// with an equal share of the work.
#include <algorithm>

#include "spgraph/error.hpp"
#include "gpu/common/loop_slices.hpp"

namespace spgraph::gpu::detail {

LoopSlicePlan loop_slices(const std::vector<eid_t>& rowptr, int max_blocks, eid_t row_weight) {
  if (max_blocks < 1) throw Error("gpu::MxvLoop: no blocks to run on");
  if (row_weight < 1) throw Error("gpu::MxvLoop: a row end must weigh at least one entry");
  const eid_t n = rowptr.empty() ? 0 : eid_t(rowptr.size() - 1);
  const eid_t nnz = rowptr.empty() ? 0 : rowptr.back();
  const eid_t path = n + nnz;
  const eid_t blocks = std::clamp<eid_t>((path + kLoopMinItemsPerBlock - 1) / kLoopMinItemsPerBlock, 1, max_blocks);
  const eid_t size = (path + blocks - 1) / blocks;

  // Row i's end is path item rowptr[i + 1] + i: the rows ended before diagonal d are those
  // with rowptr[i + 1] + i < d.
  auto rows_before = [&](eid_t d) {
    eid_t lo = d > nnz ? d - nnz : 0, hi = std::min(d, n);
    while (lo < hi) {
      const eid_t mid = (lo + hi) / 2;
      if (rowptr[std::size_t(mid) + 1] + mid < d) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Block b's cut is the first diagonal with b + 1 shares of the work before it, a row end
  // weighing row_weight entries.
  const eid_t work = nnz + row_weight * n;
  auto cut_for = [&](eid_t b, eid_t from) {
    const eid_t target = (work * (b + 1) + blocks - 1) / blocks;
    eid_t lo = from, hi = path;
    while (lo < hi) {
      const eid_t mid = (lo + hi) / 2;
      const eid_t r = rows_before(mid);
      if ((mid - r) + row_weight * r < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  LoopSlicePlan plan;
  plan.slices.resize(std::size_t(blocks));
  const eid_t snap = std::min<eid_t>(kLoopSnapRow, size / 8);
  eid_t first_row = 0, prev_end = 0;
  int open_from = -1;  // the first block whose tail is the row now open
  for (eid_t b = 0; b < blocks; ++b) {
    LoopSlice& s = plan.slices[std::size_t(b)];
    const eid_t d0 = first_row + prev_end;  // where the previous slice ended
    eid_t d1 = cut_for(b, d0);
    eid_t end_row = rows_before(d1);
    // A cut inside a row makes the block where the row ends wait for the other pieces, so the
    // cut moves to the nearer end of a row of at most kLoopSnapRow entries.
    const eid_t r = end_row;
    if (r < n && d1 > rowptr[std::size_t(r)] + r && rowptr[std::size_t(r) + 1] - rowptr[std::size_t(r)] <= snap) {
      const eid_t before = rowptr[std::size_t(r)] + r, after = rowptr[std::size_t(r) + 1] + r + 1;
      d1 = d1 - before <= after - d1 && before > d0 ? before : after;
      end_row = rows_before(d1);
    }
    s.first_row = vid_t(first_row);
    s.end_row = vid_t(end_row);
    s.begin = prev_end;
    s.end = d1 - end_row;
    if (end_row > first_row && open_from >= 0) {  // the open row ends here
      s.head_from = open_from;
      open_from = -1;
    }
    s.tail = end_row < n && s.end > std::max(rowptr[std::size_t(end_row)], s.begin);
    if (s.tail && open_from < 0) open_from = int(b);
    plan.max_nnz = std::max(plan.max_nnz, s.end - s.begin);
    plan.max_rows = std::max(plan.max_rows, vid_t(end_row - first_row));
    first_row = end_row;
    prev_end = s.end;
  }
  return plan;
}

}  // namespace spgraph::gpu::detail
