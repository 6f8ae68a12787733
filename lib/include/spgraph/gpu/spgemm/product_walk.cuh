#pragma once
// Walking the intermediate products of A*B in row-major order by their global index t, for
// the ESC expansion and the masked product: every thread takes a run of consecutive products,
// finds the first with two binary searches, then steps. Balances any row-length skew.
#include "spgraph/gpu/spgemm/device_ops.cuh"
#include "spgraph/gpu/spgemm/structure.hpp"

namespace spgraph::gpu::spgemm_detail {

// ap: entry_product_offsets(A, B) (internal.hpp).
struct ProductWalk {
  const eid_t* a_rowptr;
  const vid_t* a_col;
  const eid_t* b_rowptr;
  const eid_t* ap;
  vid_t row = 0;     // i of the current product A(i,k) * B(k,j)
  eid_t entry = 0;   // index of A(i,k) in A's arrays
  vid_t k = 0;
  eid_t q = 0;       // index of B(k,j) in B's arrays
  eid_t q_end = 0;

  __device__ ProductWalk(const Structure& a, const Structure& b, const eid_t* entry_offsets)
      : a_rowptr(a.rowptr), a_col(a.col), b_rowptr(b.rowptr), ap(entry_offsets) {}

  // Positions on product t, which must lie in rows [first_row, last_row).
  __device__ void seek(vid_t first_row, vid_t last_row, eid_t t) {
    // The last entry starting at or before t is the one holding t: entries without products
    // start where their successor does, and the search returns the last of equal starts.
    entry = last_not_greater(ap, a_rowptr[first_row], a_rowptr[last_row], t);
    row = static_cast<vid_t>(last_not_greater(a_rowptr, eid_t(first_row), eid_t(last_row), entry));
    k = a_col[entry];
    q = b_rowptr[k] + (t - ap[entry]);
    q_end = b_rowptr[k + 1];
  }

  // Steps to the next product; only valid when one exists in the walked range.
  __device__ void next() {
    if (++q < q_end) return;
    do {
      ++entry;
    } while (ap[entry + 1] == ap[entry]);  // skip entries whose row of B is empty
    k = a_col[entry];
    q = b_rowptr[k];
    q_end = b_rowptr[k + 1];
    while (a_rowptr[row + 1] <= entry) ++row;
  }
};

}  // namespace spgraph::gpu::spgemm_detail
