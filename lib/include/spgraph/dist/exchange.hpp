#pragma once
// How dist::Backend moves blocks between ranks (dist/layout.hpp says where each lives): vector
// pieces gathered into the row or column block a local product reads, partial results
// reduce-scattered back into pieces, and matrix entries sent to the ranks that own them.
//
// Data crosses ranks as host arrays, read from and written to the local backend's containers by
// its to_host and from_host, over the grid's communicators; so the grid must be on host memory
// (MPI). bool travels as one byte (std::vector<bool> has no array).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/dist/communicator.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/error.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::dist::detail {

template <class T>
using wire_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

template <class T>
std::vector<wire_t<T>> to_wire(std::vector<T> v) {
  if constexpr (std::is_same_v<T, bool>) return std::vector<std::uint8_t>(v.begin(), v.end());
  else return v;
}
template <class T>
std::vector<T> from_wire(std::vector<wire_t<T>> w) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<bool> v(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) v[i] = w[i] != 0;
    return v;
  } else {
    return w;
  }
}

inline void require_host_grid(const ProcessGrid& grid) {
  if (grid.world().memory() != MemorySpace::Host)
    throw Error("dist::Backend moves blocks through host memory: its process grid must be on an MPI "
                "communicator, not a device (NCCL) one");
}

// The reduction of a semiring's add monoid across ranks. Any returns any value present: its
// "no value" marker is below every value it produces (-1 or 0), so the largest is one present.
template <class Monoid>
constexpr ReduceOp reduce_op_of() {
  if constexpr (std::is_same_v<Monoid, monoid::Plus>) return ReduceOp::Sum;
  else if constexpr (std::is_same_v<Monoid, monoid::Min>) return ReduceOp::Min;
  else if constexpr (std::is_same_v<Monoid, monoid::Max> || std::is_same_v<Monoid, monoid::Any>) return ReduceOp::Max;
  else if constexpr (std::is_same_v<Monoid, monoid::Lor>) return ReduceOp::LogicalOr;
  else if constexpr (std::is_same_v<Monoid, monoid::Bor>) return ReduceOp::BitOr;
  else static_assert(sizeof(Monoid) == 0, "dist::Backend: no cross-rank reduction for this monoid");
}

// The sizes of pieces first .. first + count - 1 of an n-vector.
inline std::vector<std::int64_t> piece_sizes(std::int64_t n, GridShape g, int first, int count) {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) sizes[std::size_t(k)] = vector_piece(n, g, first + k).size();
  return sizes;
}
inline std::vector<std::int64_t> offsets_of(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> displs(counts.size(), 0);
  for (std::size_t k = 1; k < counts.size(); ++k) displs[k] = displs[k - 1] + counts[k - 1];
  return displs;
}

// Sends `data` to world rank `to` and returns what world rank `from` sends here (`count`
// elements): one piece a rank, by all-to-all with a single block each way. Collective on every
// grid but a 1 x P or P x 1 one, where every piece stays where it is.
template <class W>
std::vector<W> move_piece(const ProcessGrid& grid, const std::vector<W>& data, int to, int from, std::int64_t count) {
  if (grid.rows() == 1 || grid.cols() == 1) return data;
  Communicator& world = grid.world();
  const std::size_t p = std::size_t(world.size());
  std::vector<std::int64_t> send_counts(p, 0), send_displs(p, 0), recv_counts(p, 0), recv_displs(p, 0);
  send_counts[std::size_t(to)] = std::int64_t(data.size());
  recv_counts[std::size_t(from)] = count;
  std::vector<W> out(static_cast<std::size_t>(count));
  world.alltoallv(data.data(), send_counts, send_displs, out.data(), recv_counts, recv_displs);
  return out;
}

// The elements of this rank's row block of an n-vector (grid row i: pieces i*pc .. i*pc+pc-1,
// gathered along the row), from `mine`, this rank's piece, as host arrays.
template <class W>
std::vector<W> gather_row_block(const ProcessGrid& g, std::int64_t n, const std::vector<W>& mine) {
  const auto counts = piece_sizes(n, g.shape(), g.row() * g.cols(), g.cols());
  const auto displs = offsets_of(counts);
  std::vector<W> all(std::size_t(displs.back() + counts.back()));
  g.row_comm().allgatherv(mine.data(), all.data(), counts, displs);
  return all;
}

// The elements of this rank's column block of an n-vector (pieces j*pr .. j*pr+pr-1): each
// piece moved to the rank of grid column j that gathers it, then gathered along the column.
template <class W>
std::vector<W> gather_col_block(const ProcessGrid& g, std::int64_t n, const std::vector<W>& mine) {
  const int me = g.world().rank();
  const int taken = column_gather_piece(g.shape(), me);
  const auto piece = move_piece(g, mine, column_gather_rank(g.shape(), me), taken, vector_piece(n, g.shape(), taken).size());
  const auto counts = piece_sizes(n, g.shape(), g.col() * g.rows(), g.rows());
  const auto displs = offsets_of(counts);
  std::vector<W> all(std::size_t(displs.back() + counts.back()));
  g.col_comm().allgatherv(piece.data(), all.data(), counts, displs);
  return all;
}

// x's elements of this rank's row block, as a host array.
template <class Local, class T>
std::vector<wire_t<T>> row_block_values(const Vector<Local, T>& x) {
  return gather_row_block(*x.grid(), std::int64_t(x.size()), to_wire(Local::to_host(x.piece())));
}

// x's elements of this rank's column block, as a host array.
template <class Local, class T>
std::vector<wire_t<T>> col_block_values(const Vector<Local, T>& x) {
  return gather_col_block(*x.grid(), std::int64_t(x.size()), to_wire(Local::to_host(x.piece())));
}

template <class Local, class T>
typename Local::template Vector<T> local_vector(std::vector<wire_t<T>> values) {
  return Local::from_host(from_wire<T>(std::move(values)));
}

// The partial results of this rank's row block (an n-vector's rows i*pc.. pieces), combined by
// `op` along the grid row: returns this rank's own piece.
template <class W>
std::vector<W> reduce_row_partials(const ProcessGrid& g, std::int64_t n, const std::vector<W>& partial, ReduceOp op) {
  const auto counts = piece_sizes(n, g.shape(), g.row() * g.cols(), g.cols());
  std::vector<W> piece(static_cast<std::size_t>(counts[std::size_t(g.col())]));
  g.row_comm().reduce_scatter_v(partial.data(), piece.data(), counts, op);
  return piece;
}

// The same for a column block's partials (an m-vector), combined along the grid column; the
// piece this leaves here (j*pr + i) then goes to the rank that owns it.
template <class W>
std::vector<W> reduce_col_partials(const ProcessGrid& g, std::int64_t m, const std::vector<W>& partial, ReduceOp op) {
  const auto counts = piece_sizes(m, g.shape(), g.col() * g.rows(), g.rows());
  std::vector<W> piece(static_cast<std::size_t>(counts[std::size_t(g.row())]));
  g.col_comm().reduce_scatter_v(partial.data(), piece.data(), counts, op);
  const int me = g.world().rank();
  return move_piece(g, piece, column_gather_piece(g.shape(), me), column_gather_rank(g.shape(), me),
                    vector_piece(m, g.shape(), me).size());
}

// Matrix entries with global indices; `pattern`: they came from a pattern (every entry 1), and
// their values are ones.
template <class V>
struct Entries {
  std::vector<std::int64_t> row, col;
  std::vector<wire_t<V>> val;
  bool pattern = false;
  std::size_t size() const { return row.size(); }
  void push(std::int64_t r, std::int64_t c) { row.push_back(r), col.push_back(c); }
};

// This rank's block as entries with global indices.
template <class Local, class V>
Entries<V> block_entries(const Matrix<Local, V>& A) {
  Entries<V> e;
  if (!A.grid()) return e;
  const Csr<V> h = Local::to_host(A.block());
  const std::int64_t r0 = A.row_range().begin, c0 = A.col_range().begin;
  e.row.reserve(std::size_t(h.nnz()));
  e.col.reserve(std::size_t(h.nnz()));
  for (vid_t i = 0; i < h.nrows; ++i)
    for (eid_t k = h.rowptr[std::size_t(i)]; k < h.rowptr[std::size_t(i) + 1]; ++k) e.push(r0 + i, c0 + h.col[std::size_t(k)]);
  // A local backend may give a pattern block without values (the GPU's); its entries are ones.
  e.pattern = h.val.empty() && h.nnz() > 0;
  e.val = e.pattern ? std::vector<wire_t<V>>(e.size(), wire_t<V>(1)) : to_wire(h.val);
  return e;
}

// Whether the entries the ranks of `world` hold between them form a pattern: some rank holds
// pattern entries and none holds valued ones (collective).
template <class V>
bool all_pattern(Communicator& world, const Entries<V>& mine) {
  std::uint8_t mine_flags[2] = {std::uint8_t(mine.size() > 0 && mine.pattern), std::uint8_t(mine.size() > 0 && !mine.pattern)};
  std::uint8_t any[2] = {0, 0};
  world.allreduce(mine_flags, any, 2, ReduceOp::Max);
  return any[0] && !any[1];
}

// A local CSR of nrows x ncols from entries already in local indices (unsorted; no repeats):
// placed by a counting sort on the rows (the entries usually come row after row), then each row
// sorted by column where it is not already.
template <class V>
Csr<V> csr_from_local_entries(vid_t nrows, vid_t ncols, const std::vector<vid_t>& row, const std::vector<vid_t>& col,
                              const std::vector<wire_t<V>>& val, bool pattern) {
  const std::size_t nnz = row.size();
  Csr<V> h;
  h.nrows = nrows;
  h.ncols = ncols;
  h.rowptr.assign(std::size_t(nrows) + 1, 0);
  for (std::size_t e = 0; e < nnz; ++e) ++h.rowptr[std::size_t(row[e]) + 1];
  for (std::size_t i = 0; i < std::size_t(nrows); ++i) h.rowptr[i + 1] += h.rowptr[i];
  std::vector<std::size_t> order(nnz);
  {
    std::vector<eid_t> next(h.rowptr.begin(), h.rowptr.end() - 1);
    for (std::size_t e = 0; e < nnz; ++e) order[std::size_t(next[std::size_t(row[e])]++)] = e;
  }
  const auto by_col = [&](std::size_t a, std::size_t b) { return col[a] < col[b]; };
  for (std::size_t i = 0; i < std::size_t(nrows); ++i) {
    const auto first = order.begin() + h.rowptr[i], last = order.begin() + h.rowptr[i + 1];
    if (!std::is_sorted(first, last, by_col)) std::sort(first, last, by_col);
    for (auto k = first; k + 1 < last; ++k)
      if (col[*k] == col[*(k + 1)])
        throw Error("dist::Backend: entry (" + std::to_string(row[*k]) + ", " + std::to_string(col[*k]) +
                    ") of a block appears twice");
  }
  h.col.resize(nnz);
  std::vector<wire_t<V>> v(pattern ? 0 : nnz);
  for (std::size_t k = 0; k < nnz; ++k) {
    h.col[k] = col[order[k]];
    if (!pattern) v[k] = val[order[k]];
  }
  h.val = from_wire<V>(std::move(v));
  return h;
}

// The n x m matrix whose entries the ranks hold between them (each entry on one rank, anywhere):
// every entry sent to the rank that owns it (all-to-all), each block built there.
template <class Local, class V>
Matrix<Local, V> matrix_from_entries(const ProcessGrid& grid, std::int64_t n, std::int64_t m, const Entries<V>& mine) {
  require_host_grid(grid);
  Communicator& world = grid.world();
  const std::size_t p = std::size_t(world.size());
  const bool pattern = all_pattern(world, mine);
  std::vector<int> owner(mine.size());
  std::vector<std::int64_t> send_counts(p, 0);
  for (std::size_t e = 0; e < mine.size(); ++e) {
    if (mine.row[e] < 0 || mine.row[e] >= n || mine.col[e] < 0 || mine.col[e] >= m)
      throw Error("dist::Backend: entry (" + std::to_string(mine.row[e]) + ", " + std::to_string(mine.col[e]) +
                  ") is outside a " + std::to_string(n) + " x " + std::to_string(m) + " matrix");
    owner[e] = matrix_owner(n, m, grid.shape(), mine.row[e], mine.col[e]);
    ++send_counts[std::size_t(owner[e])];
  }
  const auto send_displs = offsets_of(send_counts);
  std::vector<std::int64_t> recv_counts(p, 0);
  world.alltoall(send_counts.data(), recv_counts.data(), 1);
  const auto recv_displs = offsets_of(recv_counts);
  const std::size_t received = std::size_t(recv_displs.back() + recv_counts.back());

  const BlockRange rows = matrix_row_block(n, grid.shape(), grid.row());
  const BlockRange cols = matrix_col_block(m, grid.shape(), grid.col());
  auto exchange = [&](auto value_of, auto& out) {
    using W = typename std::decay_t<decltype(out)>::value_type;
    std::vector<W> send(mine.size());
    std::vector<std::int64_t> next(send_displs);
    for (std::size_t e = 0; e < mine.size(); ++e) send[std::size_t(next[std::size_t(owner[e])]++)] = value_of(e);
    out.resize(received);
    world.alltoallv(send.data(), send_counts, send_displs, out.data(), recv_counts, recv_displs);
  };
  std::vector<std::int64_t> global_row, global_col;
  exchange([&](std::size_t e) { return mine.row[e]; }, global_row);
  exchange([&](std::size_t e) { return mine.col[e]; }, global_col);
  std::vector<vid_t> row(received), col(received);
  for (std::size_t e = 0; e < received; ++e) {
    row[e] = vid_t(global_row[e] - rows.begin);
    col[e] = vid_t(global_col[e] - cols.begin);
  }
  std::vector<wire_t<V>> val;
  if (!pattern) {
    if (mine.val.size() != mine.size())
      throw Error("dist::Backend: " + std::to_string(mine.size()) + " entries with " + std::to_string(mine.val.size()) +
                  " values");
    exchange([&](std::size_t e) { return mine.val[e]; }, val);
  }
  Csr<V> block = csr_from_local_entries<V>(vid_t(rows.size()), vid_t(cols.size()), row, col, val, pattern);
  auto local = pattern ? Local::template pattern_from_host<V>(block) : Local::from_host(block);
  return Matrix<Local, V>(grid, n, m, std::move(local));
}

// The whole rows of this rank's vector piece (rows of its row block), from every rank of its grid
// row (all-to-all along the row), in an n-row CSR with every other row empty.
template <class Local, class V>
Csr<V> piece_rows(const Matrix<Local, V>& A) {
  const ProcessGrid& g = *A.grid();
  const std::int64_t n = A.nrows();
  const std::int64_t p = std::int64_t(g.world().size());
  const Entries<V> mine = block_entries(A);
  const std::size_t pc = std::size_t(g.cols());
  std::vector<int> to(mine.size());
  std::vector<std::int64_t> send_counts(pc, 0);
  for (std::size_t e = 0; e < mine.size(); ++e) {
    to[e] = int(block_owner(n, p, mine.row[e]) - std::int64_t(g.row()) * g.cols());
    ++send_counts[std::size_t(to[e])];
  }
  const auto send_displs = offsets_of(send_counts);
  std::vector<std::int64_t> recv_counts(pc, 0);
  g.row_comm().alltoall(send_counts.data(), recv_counts.data(), 1);
  const auto recv_displs = offsets_of(recv_counts);
  const std::size_t received = std::size_t(recv_displs.back() + recv_counts.back());
  auto exchange = [&](const auto& values, auto& out) {
    std::decay_t<decltype(out)> send(mine.size());
    std::vector<std::int64_t> next(send_displs);
    for (std::size_t e = 0; e < mine.size(); ++e) send[std::size_t(next[std::size_t(to[e])]++)] = values[e];
    out.resize(received);
    g.row_comm().alltoallv(send.data(), send_counts, send_displs, out.data(), recv_counts, recv_displs);
  };
  std::vector<std::int64_t> row, col;
  std::vector<wire_t<V>> val;
  exchange(mine.row, row);
  exchange(mine.col, col);
  exchange(mine.val, val);
  std::vector<vid_t> r(row.begin(), row.end()), c(col.begin(), col.end());
  return csr_from_local_entries<V>(vid_t(n), vid_t(A.ncols()), r, c, val, false);
}

// Every rank's entries, on every rank (the whole matrix, for to_host).
template <class V>
Entries<V> allgather_entries(Communicator& world, const Entries<V>& mine) {
  const std::size_t p = std::size_t(world.size());
  std::int64_t count = std::int64_t(mine.size());
  std::vector<std::int64_t> counts(p);
  world.allgather(&count, counts.data(), 1);
  const auto displs = offsets_of(counts);
  Entries<V> all;
  const std::size_t total = std::size_t(displs.back() + counts.back());
  all.row.resize(total);
  all.col.resize(total);
  world.allgatherv(mine.row.data(), all.row.data(), counts, displs);
  world.allgatherv(mine.col.data(), all.col.data(), counts, displs);
  all.val.resize(total);
  world.allgatherv(mine.val.data(), all.val.data(), counts, displs);
  all.pattern = all_pattern(world, mine);
  return all;
}

// Rows [r0, r1) and columns [c0, c1) of a host CSR, re-indexed from 0 (values kept, or none).
template <class V>
Csr<V> host_block(const Csr<V>& h, std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) {
  Csr<V> b;
  b.nrows = vid_t(r1 - r0);
  b.ncols = vid_t(c1 - c0);
  b.rowptr.assign(std::size_t(b.nrows) + 1, 0);
  std::vector<wire_t<V>> val;
  for (std::int64_t i = r0; i < r1; ++i) {
    const auto first = h.col.begin() + h.rowptr[std::size_t(i)], last = h.col.begin() + h.rowptr[std::size_t(i) + 1];
    for (auto it = std::lower_bound(first, last, vid_t(c0)); it != last && *it < c1; ++it) {
      b.col.push_back(vid_t(*it - c0));
      if (!h.val.empty()) val.push_back(h.val[std::size_t(it - h.col.begin())]);
    }
    b.rowptr[std::size_t(i - r0) + 1] = eid_t(b.col.size());
  }
  b.val = from_wire<V>(std::move(val));
  return b;
}

// A host CSR broadcast from `root` over `comm` (the others' `h` is replaced).
template <class V>
void broadcast_csr(Communicator& comm, Csr<V>& h, int root) {
  std::int64_t dims[3] = {h.nrows, h.ncols, h.nnz()};
  comm.broadcast(dims, 3, root);
  std::vector<wire_t<V>> val;
  std::int64_t has_values = h.val.empty() ? 0 : 1;
  comm.broadcast(&has_values, 1, root);
  if (comm.rank() == root) {
    val = to_wire(h.val);
  } else {
    h.nrows = vid_t(dims[0]);
    h.ncols = vid_t(dims[1]);
    h.rowptr.assign(std::size_t(dims[0]) + 1, 0);
    h.col.assign(std::size_t(dims[2]), 0);
    val.assign(has_values ? std::size_t(dims[2]) : 0, wire_t<V>{});
  }
  comm.broadcast(h.rowptr.data(), std::int64_t(h.rowptr.size()), root);
  comm.broadcast(h.col.data(), std::int64_t(h.col.size()), root);
  if (has_values) comm.broadcast(val.data(), std::int64_t(val.size()), root);
  if (comm.rank() != root) h.val = from_wire<V>(std::move(val));
}

}  // namespace spgraph::dist::detail
