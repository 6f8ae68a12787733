#pragma once
// The nonzero pattern of a device CSR, without its values: what the symbolic passes, the row
// statistics and the planning read, so that code is compiled once for every value type.
#include "spgraph/device/device_csr.hpp"

namespace spgraph::gpu::spgemm_detail {

struct Structure {
  vid_t nrows = 0;
  vid_t ncols = 0;
  eid_t nnz = 0;
  const eid_t* rowptr = nullptr;
  const vid_t* col = nullptr;
};

template <class V>
Structure structure_of(const device::DeviceCsr<V>& m) {
  return {m.nrows, m.ncols, m.nnz(), m.rowptr.data(), m.col.data()};
}
template <class V>
SPGRAPH_HD Structure structure_of_view(const device::CsrView<V>& v) {
  return {v.nrows, v.ncols, v.nnz, v.rowptr, v.col};
}

}  // namespace spgraph::gpu::spgemm_detail
