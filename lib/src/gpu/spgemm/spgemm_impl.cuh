#pragma once
// Definitions of gpu::mxm and gpu::mxm_panels (spgemm.hpp). Include in the .cu file that
// instantiates them (SPGRAPH_INSTANTIATE_MXM below); lib/src/gpu/spgemm/mxm_<type>.cu
// instantiate the semirings listed in spgemm.hpp.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "gpu/spgemm/complement_masked_impl.cuh"
#include "gpu/spgemm/esc_numeric_impl.cuh"
#include "gpu/spgemm/hash_numeric_impl.cuh"
#include "gpu/spgemm/masked_impl.cuh"
#include "spgraph/gpu/transpose.hpp"

namespace spgraph::gpu::spgemm_detail {

inline constexpr cudaStream_t kMainStream = 0;

template <class V>
using PanelSink = std::function<void(vid_t, Matrix<V>&&)>;

template <class V>
inline constexpr std::size_t kEntryBytes = sizeof(vid_t) + sizeof(V);

inline std::string describe_output_row(vid_t row, eid_t entries) {
  return "row " + std::to_string(row) + " (" + std::to_string(entries) + " entries of C)";
}

// Panels go either into one C allocated once (assembled: each panel's numeric pass writes its
// rows in place) or each into its own matrix handed to a sink.
template <class V>
class PanelWriter {
 public:
  PanelWriter(const PanelSink<V>* sink, device::DeviceCsr<V>* whole, const eid_t* rowptr, vid_t nrows, vid_t ncols,
              eid_t nnz)
      : sink_(sink), whole_(whole), rowptr_(rowptr), ncols_(ncols) {
    if (sink_) return;
    whole_->nrows = nrows;
    whole_->ncols = ncols;
    whole_->col = device::Buffer<vid_t>(nnz, kMainStream);
    whole_->val = device::Buffer<V>(nnz, kMainStream);
  }

  // Where rows [first, last), holding C's entries [begin, end), are written.
  NumericOutput<V> begin(vid_t first, vid_t last, eid_t begin, eid_t end) {
    if (!sink_) return {rowptr_, 0, whole_->col.data(), whole_->val.data()};
    panel_ = device::DeviceCsr<V>();
    panel_.nrows = last - first;
    panel_.ncols = ncols_;
    panel_.rowptr = device::Buffer<eid_t>(std::size_t(last - first) + 1, kMainStream);
    panel_.col = device::Buffer<vid_t>(end - begin, kMainStream);
    panel_.val = device::Buffer<V>(end - begin, kMainStream);
    return {rowptr_, begin, panel_.col.data(), panel_.val.data()};
  }

  void end(vid_t first, vid_t last, eid_t begin) {
    if (!sink_) return;
    shift_offsets(rowptr_ + first, eid_t(last - first) + 1, -begin, panel_.rowptr.data(), kMainStream);
    SPGRAPH_CUDA(cudaStreamSynchronize(kMainStream));  // the sink may work on any stream
    (*sink_)(first, Matrix<V>(std::move(panel_)));
  }

 private:
  const PanelSink<V>* sink_;
  device::DeviceCsr<V>* whole_;
  const eid_t* rowptr_;
  vid_t ncols_;
  device::DeviceCsr<V> panel_;
};

// Host copy of the first n + 1 entries of a device array of offsets.
inline std::vector<eid_t> download_offsets(const eid_t* d, vid_t n) {
  std::vector<eid_t> h(std::size_t(n) + 1);
  device::copy_to_host(h.data(), d, h.size() * sizeof(eid_t), kMainStream);
  return h;
}

// The host reads the device's counters three times: after the row statistics (group sizes),
// after the symbolic pass (nnz(C), the numeric groups, the global path's work, the symbolic
// block-7 rows that must be counted again) and at the end (kernel errors); rows too large for
// shared memory and row panels add their own.
template <class SR, class V>
SpgemmInfo hash_product(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B, const MxmOptions& options,
                        const SpgemmTuning& tuning, const PanelSink<V>* sink, device::DeviceCsr<V>* whole) {
  const Structure a = structure_of(A), b = structure_of(B);
  const vid_t n = a.nrows;
  const bool force = tuning.force_global_tables;
  SpgemmInfo info;
  info.algorithm = "hash";
  const std::size_t bookkeeping =
      std::size_t(n) * (kRowStatsBytesPerRow + 2 * sizeof(eid_t) + sizeof(std::uint8_t) + sizeof(vid_t)) +
      2 * sizeof(eid_t);
  Budget budget = make_budget(options.memory_budget, bookkeeping, "mxm");

  device::Buffer<HashCounters> d_counters(1, kMainStream);
  d_counters.fill_zero();
  HashCounters* counters = d_counters.data();
  device::Buffer<std::uint8_t> group(n, kMainStream);  // symbolic groups, then numeric groups
  RowStats stats = hash_row_stats(a, b, force, group.data(), counters, kMainStream);
  HashCounters host = read_value(counters, kMainStream);
  stats.total_products = static_cast<eid_t>(host.total_products);
  info.products = stats.total_products;
  device::Buffer<eid_t> row_nnz(std::size_t(n) + 1, kMainStream), rowptr(std::size_t(n) + 1, kMainStream);
  GroupStreams& streams = GroupStreams::for_this_thread();
  const device::Buffer<vid_t> failed =
      hash_symbolic(a, b, stats, group.data(), host, budget, row_nnz.data(), counters, streams, kMainStream);
  exclusive_scan(row_nnz.data(), rowptr.data(), eid_t(n) + 1, kMainStream);
  numeric_groups(stats, rowptr.data(), n, force, sizeof(V), group.data(), counters, kMainStream);
  host = read_value(counters, kMainStream);
  if (host.symbolic_failed > 0) {
    // Rare (block-7 rows of more than 28672 columns over a span of more than 2^20): those rows
    // are counted again and C's rows placed again, on counters zeroed (all they held is read).
    symbolic_global_rows(a, b, stats, failed.data(), host.symbolic_failed, budget, row_nnz.data(), kMainStream);
    exclusive_scan(row_nnz.data(), rowptr.data(), eid_t(n) + 1, kMainStream);
    d_counters.fill_zero();
    numeric_groups(stats, rowptr.data(), n, force, sizeof(V), group.data(), counters, kMainStream);
    host = read_value(counters, kMainStream);
  }
  row_nnz = device::Buffer<eid_t>();
  const eid_t nnz = static_cast<eid_t>(host.nnz);
  info.nnz = nnz;

  // The global path's batches get a share of the budget; output panels the rest.
  std::size_t global_room = static_cast<std::size_t>(std::min<std::uint64_t>(
      host.global_total, std::max<std::uint64_t>(host.global_largest, std::min(kGlobalBatchBytes, budget.room / 2))));
  global_room = std::min(global_room, budget.room);
  std::vector<Panel> panels{{0, n}};
  std::vector<eid_t> offsets;  // host copy of rowptr, when C is split
  const std::size_t c_bytes = std::size_t(nnz) * kEntryBytes<V> + (std::size_t(n) + 1) * sizeof(eid_t);
  if (!sink) check_output_fits(nnz, c_bytes, budget);
  if (!sink && !budget.explicit_budget) {
    // The budget is what was free: C, allocated whole, takes from what the global path may use.
    budget.output_bytes = c_bytes;
    global_room = std::min(global_room, budget.room - c_bytes);
  } else if (const std::size_t out_room = budget.room - global_room; c_bytes > out_room) {
    offsets = download_offsets(rowptr.data(), n);
    std::vector<std::uint64_t> cost(std::size_t(n) + 1);
    for (vid_t i = 0; i <= n; ++i) cost[i] = std::uint64_t(offsets[i]) * kEntryBytes<V> + std::uint64_t(i) * sizeof(eid_t);
    panels = plan_panels(cost, out_room, budget,
                         [&](vid_t i) { return describe_output_row(i, offsets[i + 1] - offsets[i]); });
  }
  info.panels = static_cast<int>(panels.size());

  PanelWriter<V> writer(sink, whole, rowptr.data(), n, b.ncols, nnz);
  for (const Panel& p : panels) {
    const eid_t begin = offsets.empty() ? 0 : offsets[p.first];
    const eid_t end = offsets.empty() ? nnz : offsets[p.last];
    const NumericOutput<V> out = writer.begin(p.first, p.last, begin, end);
    const Buckets buckets =
        panels.size() == 1
            ? bucket_counted_rows(group.data(), 0, n, host.numeric_rows, counters->numeric_cursor, kMainStream)
            : bucket_rows(group.data() + p.first, p.first, p.last, kMainStream);
    info.global_table_rows += hash_numeric<SR, V>(A.view(), B.view(), stats, buckets, out, force, budget,
                                                  global_room, streams, kMainStream, &counters->error,
                                                  &counters->dense_rows);
    if (sink) check_kernel_error(read_value(&counters->error, kMainStream), "mxm (hash)");
    writer.end(p.first, p.last, begin);
  }
  host = read_value(counters, kMainStream);
  check_kernel_error(host.error, "mxm (hash)");
  info.dense_rows = static_cast<vid_t>(host.dense_rows);
  if (!sink) whole->rowptr = std::move(rowptr);
  return info;
}

template <class SR, class V>
SpgemmInfo esc_product(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B, const MxmOptions& options,
                       const PanelSink<V>* sink, device::DeviceCsr<V>* whole) {
  const Structure a = structure_of(A), b = structure_of(B);
  const vid_t n = a.nrows;
  SpgemmInfo info;
  info.algorithm = "esc";
  const std::size_t bookkeeping = std::size_t(n) * (kRowStatsBytesPerRow + sizeof(eid_t)) +
                                  (std::size_t(a.nnz) + 2) * sizeof(eid_t);
  Budget budget = make_budget(options.memory_budget, bookkeeping, "mxm");

  const RowStats stats = row_stats(a, b, kMainStream);
  info.products = stats.total_products;
  const device::Buffer<eid_t> ap = entry_product_offsets(a, b, kMainStream);
  std::vector<eid_t> first_product(std::size_t(n) + 1, 0);  // per row, where its products start
  {
    const std::vector<eid_t> per_row = stats.products.download();
    for (vid_t i = 0; i < n; ++i) first_product[i + 1] = first_product[i] + per_row[i];
  }
  const auto describe_products = [&](vid_t i) {
    return "row " + std::to_string(i) + " (" + std::to_string(first_product[i + 1] - first_product[i]) +
           " products, expanded with their sort keys)";
  };

  // Symbolic pass in slices whose expanded keys fit the budget.
  std::vector<std::uint64_t> cost(std::size_t(n) + 1);
  for (vid_t i = 0; i <= n; ++i) cost[i] = std::uint64_t(first_product[i]) * kEscSymbolicBytesPerProduct;
  device::Buffer<eid_t> rowptr(std::size_t(n) + 1, kMainStream);
  rowptr.fill_zero();
  for (const Panel& s : plan_panels(cost, budget.room, budget, describe_products))
    esc_symbolic(a, b, ap.data(), s.first, s.last, first_product[s.first],
                 first_product[s.last] - first_product[s.first], rowptr.data(), kMainStream);
  exclusive_scan(rowptr.data(), rowptr.data(), eid_t(n) + 1, kMainStream);
  const std::vector<eid_t> offsets = download_offsets(rowptr.data(), n);
  const eid_t nnz = offsets[n];
  info.nnz = nnz;

  // Numeric pass in slices whose expansion (and, unless C is assembled from what was free,
  // their share of C) fits.
  const bool count_output = sink || budget.explicit_budget;
  std::size_t room = budget.room;
  const std::size_t c_bytes = std::size_t(nnz) * kEntryBytes<V> + (std::size_t(n) + 1) * sizeof(eid_t);
  if (!sink) check_output_fits(nnz, c_bytes, budget);
  if (!count_output) {
    budget.output_bytes = c_bytes;
    room -= c_bytes;
  }
  for (vid_t i = 0; i <= n; ++i) {
    cost[i] = std::uint64_t(first_product[i]) * kEscNumericBytesPerProduct<V>;
    if (count_output) cost[i] += std::uint64_t(offsets[i]) * kEntryBytes<V> + std::uint64_t(i) * sizeof(eid_t);
  }
  const std::vector<Panel> panels = plan_panels(cost, room, budget, describe_products);
  info.panels = static_cast<int>(panels.size());
  PanelWriter<V> writer(sink, whole, rowptr.data(), n, b.ncols, nnz);
  for (const Panel& p : panels) {
    const eid_t begin = offsets[p.first], end = offsets[p.last];
    const NumericOutput<V> out = writer.begin(p.first, p.last, begin, end);
    esc_numeric<SR, V>(A.view(), B.view(), ap.data(), p.first, p.last, first_product[p.first],
                       first_product[p.last] - first_product[p.first], end - begin, out.col + (begin - out.base),
                       out.val + (begin - out.base), kMainStream);
    writer.end(p.first, p.last, begin);
  }
  if (!sink) whole->rowptr = std::move(rowptr);
  return info;
}

// C = A*B without a mask, assembled into *whole or handed to *sink in panels.
template <class SR, class V>
SpgemmInfo product(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B, const MxmOptions& options,
                   const SpgemmTuning& tuning, const PanelSink<V>* sink, device::DeviceCsr<V>* whole) {
  if (A.nrows == 0 || A.nnz() == 0 || B.nnz() == 0) {
    SpgemmInfo info;
    info.algorithm = "none";
    info.panels = A.nrows > 0 ? 1 : 0;
    device::DeviceCsr<V> empty = empty_csr<V>(A.nrows, B.ncols, kMainStream);
    if (!sink) *whole = std::move(empty);
    else if (A.nrows > 0) (*sink)(0, Matrix<V>(std::move(empty)));
    return info;
  }
  if (options.algorithm == MxmAlgorithm::Esc) return esc_product<SR, V>(A, B, options, sink, whole);
  return hash_product<SR, V>(A, B, options, tuning, sink, whole);
}

template <class V>
device::DeviceCsr<V> concatenate_rows(std::vector<device::DeviceCsr<V>>& pieces, vid_t ncols) {
  device::DeviceCsr<V> c;
  c.ncols = ncols;
  eid_t nnz = 0;
  for (const auto& p : pieces) {
    c.nrows += p.nrows;
    nnz += p.nnz();
  }
  c.rowptr = device::Buffer<eid_t>(std::size_t(c.nrows) + 1, kMainStream);
  c.col = device::Buffer<vid_t>(nnz, kMainStream);
  c.val = device::Buffer<V>(nnz, kMainStream);
  vid_t row_at = 0;
  eid_t at = 0;
  for (auto& p : pieces) {
    shift_offsets(p.rowptr.data(), eid_t(p.nrows) + 1, at, c.rowptr.data() + row_at, kMainStream);
    if (p.nnz() > 0) {
      SPGRAPH_CUDA(cudaMemcpyAsync(c.col.data() + at, p.col.data(), p.nnz() * sizeof(vid_t),
                                   cudaMemcpyDeviceToDevice, kMainStream));
      SPGRAPH_CUDA(cudaMemcpyAsync(c.val.data() + at, p.val.data(), p.nnz() * sizeof(V), cudaMemcpyDeviceToDevice,
                                   kMainStream));
    }
    row_at += p.nrows;
    at += p.nnz();
    p = device::DeviceCsr<V>();  // free each piece as soon as it is copied
  }
  return c;
}

// C<M> = A*B computed only at M's allowed positions (M not complemented).
template <class SR, class V>
device::DeviceCsr<V> masked_product(const device::DeviceCsr<V>& M, bool structural, const device::DeviceCsr<V>& A,
                                    const device::DeviceCsr<V>& B, const MxmOptions& options, SpgemmInfo& info) {
  const Structure a = structure_of(A), b = structure_of(B);
  const vid_t n = a.nrows;
  info.algorithm = "masked-hash";
  if (n == 0 || a.nnz == 0 || b.nnz == 0 || M.nnz() == 0) {
    info.panels = n > 0 ? 1 : 0;
    return empty_csr<V>(n, b.ncols, kMainStream);
  }
  const Budget budget = make_budget(options.memory_budget, (std::size_t(a.nnz) + 2) * sizeof(eid_t), "mxm");
  const device::Buffer<eid_t> ap = entry_product_offsets(a, b, kMainStream);
  info.products = read_value(ap.data() + a.nnz, kMainStream);

  // Per mask entry: its accumulator, its hit flag (scanned into a position) and at most one
  // entry of C.
  constexpr std::size_t per_mask_entry = sizeof(V) + sizeof(eid_t) + kEntryBytes<V>;
  std::vector<Panel> panels{{0, n}};
  std::vector<eid_t> mask_offsets;
  if (std::size_t(M.nnz()) * per_mask_entry + (std::size_t(n) + 1) * sizeof(eid_t) > budget.room) {
    mask_offsets = download_offsets(M.rowptr.data(), n);
    std::vector<std::uint64_t> cost(std::size_t(n) + 1);
    for (vid_t i = 0; i <= n; ++i) cost[i] = std::uint64_t(mask_offsets[i]) * per_mask_entry + std::uint64_t(i) * sizeof(eid_t);
    panels = plan_panels(cost, budget.room, budget, [&](vid_t i) {
      return "row " + std::to_string(i) + " (" + std::to_string(mask_offsets[i + 1] - mask_offsets[i]) +
             " mask entries)";
    });
  }
  info.panels = static_cast<int>(panels.size());
  const MaskTest<V> mask{M.view(), structural, false};
  std::vector<device::DeviceCsr<V>> pieces;
  for (const Panel& p : panels) {
    const auto product_at = [&](vid_t row) {
      return row == n ? info.products : read_value(ap.data() + read_value(A.rowptr.data() + row, kMainStream), kMainStream);
    };
    const eid_t p0 = p.first == 0 ? 0 : product_at(p.first), p1 = product_at(p.last);
    const eid_t m0 = mask_offsets.empty() ? 0 : mask_offsets[p.first];
    const eid_t m1 = mask_offsets.empty() ? M.nnz() : mask_offsets[p.last];
    pieces.push_back(masked_panel<SR, V>(A.view(), B.view(), ap.data(), mask, p.first, p.last, p0, p1 - p0, m0,
                                         m1 - m0, kMainStream));
  }
  if (pieces.size() == 1) return std::move(pieces.front());
  return concatenate_rows(pieces, b.ncols);
}

// C<!M> = A*B forming only the products whose column M does not hold in their row
// (complement_masked_impl.cuh); rows in panels whose survivors fit the budget.
template <class SR, class V>
device::DeviceCsr<V> complement_masked_product(const device::DeviceCsr<V>& M, bool structural,
                                               const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B,
                                               const MxmOptions& options, SpgemmInfo& info) {
  const Structure a = structure_of(A), b = structure_of(B);
  const vid_t n = a.nrows;
  info.algorithm = "complement-masked";
  info.panels = n > 0 ? 1 : 0;
  if (n == 0 || a.nnz == 0 || b.nnz == 0) return empty_csr<V>(n, b.ncols, kMainStream);
  const std::size_t bookkeeping = (std::size_t(a.nnz) + 2 * std::size_t(n) + 4) * sizeof(eid_t);
  const Budget budget = make_budget(options.memory_budget, bookkeeping, "mxm");
  const device::Buffer<eid_t> ap = entry_product_offsets(a, b, kMainStream);
  const eid_t products = read_value(ap.data() + a.nnz, kMainStream);
  info.products = products;
  if (products == 0) return empty_csr<V>(n, b.ncols, kMainStream);
  const MaskTest<V> mask{M.view(), structural, true};
  device::Buffer<eid_t> row_survivors(std::size_t(n) + 1, kMainStream);
  row_survivors.fill_zero();
  device::Buffer<eid_t> tile_pos = complement_tile_positions(A.view(), B.view(), ap.data(), mask, 0, n, 0, products,
                                                             row_survivors.data(), kMainStream);
  const eid_t survivors = read_value(tile_pos.data() + (tile_pos.size() - 1), kMainStream);
  info.skipped = products - survivors;
  // Per survivor: its key and value with their sort buffers, and at most one entry of C.
  constexpr std::size_t per_survivor = kEscNumericBytesPerProduct<V> + kEntryBytes<V>;
  if (std::size_t(survivors) * per_survivor + (std::size_t(n) + 1) * sizeof(eid_t) <= budget.room)
    return complement_panel<SR, V>(A.view(), B.view(), ap.data(), mask, 0, n, 0, products, tile_pos, kMainStream);

  tile_pos = device::Buffer<eid_t>();
  exclusive_scan(row_survivors.data(), row_survivors.data(), eid_t(n) + 1, kMainStream);
  const std::vector<eid_t> kept = download_offsets(row_survivors.data(), n);
  row_survivors = device::Buffer<eid_t>();
  device::Buffer<eid_t> d_row_products(std::size_t(n) + 1, kMainStream);  // ap at each row's first entry
  gather_positions(A.rowptr.data(), eid_t(n) + 1, 0, ap.data(), d_row_products.data(), kMainStream);
  const std::vector<eid_t> row_products = download_offsets(d_row_products.data(), n);
  std::vector<std::uint64_t> cost(std::size_t(n) + 1);
  for (vid_t i = 0; i <= n; ++i) cost[i] = std::uint64_t(kept[i]) * per_survivor + std::uint64_t(i) * sizeof(eid_t);
  const std::vector<Panel> panels = plan_panels(cost, budget.room, budget, [&](vid_t i) {
    return "row " + std::to_string(i) + " (" + std::to_string(kept[i + 1] - kept[i]) +
           " products outside the complemented mask)";
  });
  info.panels = static_cast<int>(panels.size());
  std::vector<device::DeviceCsr<V>> pieces;
  for (const Panel& p : panels) {
    const eid_t p0 = row_products[p.first], count = row_products[p.last] - p0;
    const device::Buffer<eid_t> pos = complement_tile_positions(A.view(), B.view(), ap.data(), mask, p.first, p.last,
                                                                p0, count, nullptr, kMainStream);
    pieces.push_back(
        complement_panel<SR, V>(A.view(), B.view(), ap.data(), mask, p.first, p.last, p0, count, pos, kMainStream));
  }
  if (pieces.size() == 1) return std::move(pieces.front());
  return concatenate_rows(pieces, b.ncols);
}

template <class V>
std::string dims(const Matrix<V>& m) {
  return std::to_string(m.nrows()) + " x " + std::to_string(m.ncols());
}

}  // namespace spgraph::gpu::spgemm_detail

namespace spgraph::gpu {

template <class SR, class V>
SpgemmInfo mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
               SR, const Descriptor& desc, const MxmOptions& options, const SpgemmTuning& tuning) {
  using namespace spgemm_detail;
  std::optional<Matrix<V>> a_t, b_t;
  if (desc.transpose_a) a_t.emplace(transpose(A, kMainStream));
  if (desc.transpose_b) b_t.emplace(transpose(B, kMainStream));
  const Matrix<V>& a = a_t ? *a_t : A;
  const Matrix<V>& b = b_t ? *b_t : B;
  check_inner_dimensions(structure_of(a.csr()), structure_of(b.csr()), "mxm");
  if (mask && (mask->nrows() != a.nrows() || mask->ncols() != b.ncols()))
    throw Error("mxm: the mask is " + dims(*mask) + " but the product is " + std::to_string(a.nrows()) + " x " +
                std::to_string(b.ncols()));
  // Without replace, C's entries outside the mask stay, so C must have the product's shape.
  const bool keep_old = mask && !desc.replace && C.nnz() > 0;
  if (keep_old && (C.nrows() != a.nrows() || C.ncols() != b.ncols()))
    throw Error("mxm: C is " + dims(C) + " but the product is " + std::to_string(a.nrows()) + " x " +
                std::to_string(b.ncols()) + "; with a mask and without replace C's entries are kept, so they must match");

  SpgemmInfo info;
  device::DeviceCsr<V> z;
  // Esc stays the reference: the full product, then the mask.
  const bool mask_driven = mask && options.algorithm != MxmAlgorithm::Esc;
  if (mask_driven && desc.mask_complement)
    z = complement_masked_product<SR, V>(mask->csr(), desc.mask_structural, a.csr(), b.csr(), options, info);
  else if (mask_driven) z = masked_product<SR, V>(mask->csr(), desc.mask_structural, a.csr(), b.csr(), options, info);
  else info = product<SR, V>(a.csr(), b.csr(), options, tuning, nullptr, &z);
  if (mask && (keep_old || !mask_driven)) z = apply_mask(z, mask->csr(), keep_old ? &C.csr() : nullptr, desc, kMainStream);
  info.nnz = z.nnz();
  C = Matrix<V>(std::move(z));
  return info;
}

template <class SR, class V>
SpgemmInfo mxm_panels(const Matrix<V>& A, const Matrix<V>& B, SR, const MxmOptions& options,
                      const std::function<void(vid_t first_row, std::type_identity_t<Matrix<V>>&& panel)>& sink,
                      const SpgemmTuning& tuning) {
  using namespace spgemm_detail;
  check_inner_dimensions(structure_of(A.csr()), structure_of(B.csr()), "mxm_panels");
  return product<SR, V>(A.csr(), B.csr(), options, tuning, &sink, nullptr);
}

}  // namespace spgraph::gpu

// Explicit instantiation of mxm and mxm_panels for semiring SR over values V; use at global
// scope in a .cu file that includes this header.
#define SPGRAPH_INSTANTIATE_MXM(SR, V)                                                                          \
  template ::spgraph::gpu::SpgemmInfo spgraph::gpu::mxm<SR, V>(                                                 \
      ::spgraph::gpu::Matrix<V>&, const std::type_identity_t<::spgraph::gpu::Matrix<V>>*,                       \
      const ::spgraph::gpu::Matrix<V>&, const ::spgraph::gpu::Matrix<V>&, SR, const ::spgraph::Descriptor&,     \
      const ::spgraph::MxmOptions&, const ::spgraph::gpu::SpgemmTuning&);                                       \
  template ::spgraph::gpu::SpgemmInfo spgraph::gpu::mxm_panels<SR, V>(                                          \
      const ::spgraph::gpu::Matrix<V>&, const ::spgraph::gpu::Matrix<V>&, SR, const ::spgraph::MxmOptions&,     \
      const std::function<void(::spgraph::vid_t, std::type_identity_t<::spgraph::gpu::Matrix<V>>&&)>&,           \
      const ::spgraph::gpu::SpgemmTuning&);
