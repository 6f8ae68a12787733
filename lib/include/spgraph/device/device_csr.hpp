#pragma once
// Device CSR and the plain view kernels take by value.
#include "spgraph/csr.hpp"
#include "spgraph/device/memory.hpp"

namespace spgraph::device {

// What a kernel sees: raw pointers, no ownership. val == nullptr means pattern (value 1).
template <class V>
struct CsrView {
  vid_t nrows = 0;
  vid_t ncols = 0;
  eid_t nnz = 0;
  const eid_t* rowptr = nullptr;
  const vid_t* col = nullptr;
  const V* val = nullptr;
  SPGRAPH_HD V value(eid_t p) const { return val ? val[p] : V(1); }
};

template <class V>
struct DeviceCsr {
  vid_t nrows = 0;
  vid_t ncols = 0;
  Buffer<eid_t> rowptr;  // nrows + 1
  Buffer<vid_t> col;
  Buffer<V> val;  // empty means pattern

  eid_t nnz() const { return col.size(); }
  bool is_pattern() const { return val.empty(); }
  CsrView<V> view() const { return {nrows, ncols, nnz(), rowptr.data(), col.data(), val.empty() ? nullptr : val.data()}; }

  static DeviceCsr upload(const Csr<V>& h, cudaStream_t stream = 0) {
    DeviceCsr d = upload_structure(h, stream);
    d.val.upload(h.val);
    return d;
  }
  // h's structure alone (a pattern matrix), whatever h's value type.
  template <class W>
  static DeviceCsr upload_structure(const Csr<W>& h, cudaStream_t stream = 0) {
    DeviceCsr d;
    d.nrows = h.nrows;
    d.ncols = h.ncols;
    d.rowptr = Buffer<eid_t>(0, stream);
    d.col = Buffer<vid_t>(0, stream);
    d.val = Buffer<V>(0, stream);
    d.rowptr.upload(h.rowptr);
    d.col.upload(h.col);
    return d;
  }
  Csr<V> download() const {
    Csr<V> h;
    h.nrows = nrows;
    h.ncols = ncols;
    h.rowptr = rowptr.download();
    if (h.rowptr.empty()) h.rowptr.assign(static_cast<std::size_t>(nrows) + 1, 0);
    h.col = col.download();
    h.val = val.download();
    return h;
  }
};

}  // namespace spgraph::device
