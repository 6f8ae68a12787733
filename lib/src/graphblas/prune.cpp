// mxm_prune_rows on the CPU, as the mcl program expands: each row of A (+.*) B is produced by one
// thread in a dense accumulator and pruned at once with the rule the GPU kernels share
// (host/prune_rule.hpp); only its kept entries are stored. Rows go to the threads in small
// chunks as they finish; the kept rows are concatenated by a prefix sum of their counts. No
// unpruned product, nor a panel of one, ever exists: beside A and B (read in place) there are
// the result, and per thread an accumulator over B's columns for a group of rows and their
// unpruned entries (docs/performance/mcl.md, "The CPU backend").
//
// The arithmetic is GraphBLAS's plus-times in V, term for term: row i's entry j is the sum of
// A(i,k) * B(k,j) over the k of A's row in increasing order, the first term assigned (double sums
// for double, as mcl sums); the rule then reads the row in column order, as GraphBLAS stores it.
// (The build targets plain x86-64, without FMA, so a product and its sum are rounded apart, as in
// GraphBLAS; a build for a CPU with FMA would let the compiler fuse them.)
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "host/prune_rule.hpp"
#include "internal.hpp"

namespace spgraph::graphblas::detail {
namespace {

using spgraph::detail::PruneCase;

// A matrix's CSR arrays, read where GraphBLAS keeps them: unpacked (which hands them over
// without a copy, sorted) and packed back unchanged when done, so a const input is neither
// copied nor altered. A row panel's host copy of T was as large as T itself.
//
// While they are ours, B's 8-byte columns can hold each entry's value too: the column in the low
// 32 bits (B has fewer than 2^31 columns), the value as a float in the high 32, where every
// value is a float exactly (an MCL iterate is: each is rounded to float). A product then reads
// 8 bytes of B, as mcl does, instead of 16, and no more memory; the columns are restored before
// GraphBLAS takes them back. A column read as aj[p] & kColumn is right either way.
constexpr GrB_Index kColumn = 0xffffffffu;
using internal::kParallelEntries;

template <class V>
class InPlaceCsr {
 public:
  explicit InPlaceCsr(GrB_Matrix m) : a_(m) {}
  InPlaceCsr(const InPlaceCsr&) = delete;
  InPlaceCsr& operator=(const InPlaceCsr&) = delete;
  ~InPlaceCsr() { restore_columns(); }  // then a_ packs the arrays back, if give_back has not
  void give_back() {
    restore_columns();
    a_.give_back();
  }
  // Puts each value beside its column where every value is a float exactly; says whether it did.
  bool pack_values() {
    if (p_.iso) return false;
    const std::int64_t nnz = std::int64_t(p_.nnz());
    const V* x = p_.ax;
    bool exact = true;
#pragma omp parallel for reduction(&& : exact) if (nnz > kParallelEntries)
    for (std::int64_t q = 0; q < nnz; ++q) exact = exact && V(float(x[q])) == x[q];  // NaN is not
    if (!exact) return false;
    GrB_Index* j = p_.aj;
#pragma omp parallel for if (nnz > kParallelEntries)
    for (std::int64_t q = 0; q < nnz; ++q) j[q] |= GrB_Index(std::bit_cast<std::uint32_t>(float(x[q]))) << 32;
    packed_ = true;
    return true;
  }
  // Whether no value has its sign bit set (no negative number, no -0.0).
  bool sign_free() const {
    const std::int64_t nnz = p_.iso ? 1 : std::int64_t(p_.nnz());
    const V* x = p_.ax;
    bool free = true;
#pragma omp parallel for reduction(&& : free) if (nnz > kParallelEntries)
    for (std::int64_t q = 0; q < nnz; ++q) free = free && !std::signbit(x[q]);
    return free;
  }
  GrB_Index nrows() const { return p_.nrows; }
  GrB_Index ncols() const { return p_.ncols; }
  const GrB_Index* ap() const { return p_.ap; }
  const GrB_Index* aj() const { return p_.aj; }
  const V* ax() const { return p_.ax; }
  bool iso() const { return p_.iso; }
  bool packed() const { return packed_; }

 private:
  void restore_columns() noexcept {
    if (!packed_) return;
    const std::int64_t nnz = std::int64_t(p_.nnz());
    GrB_Index* j = p_.aj;
#pragma omp parallel for if (nnz > kParallelEntries)
    for (std::int64_t q = 0; q < nnz; ++q) j[q] &= kColumn;
    packed_ = false;
  }

  internal::UnpackedCsr<V> a_;
  internal::PackedCsr<V>& p_ = a_.csr;
  bool packed_ = false;
};

// How a product reads B's entries: value beside the column (packed), one value for all (iso),
// or the column and value arrays as GraphBLAS keeps them.
enum class BRead { Packed, Iso, Plain };

// What a product notes of the columns it reaches: a list of the group's columns and the touched
// bytes (a small group), the bytes alone (a large one), or nothing where no term can be -0.0 (no
// value of A or B has its sign bit set): a sum then differs from its starting -0.0 exactly where
// a term reached it.
enum class Track { List, Bytes, None };

// The kept entries of one thread's rows in the order it produced them, in blocks mapped from the
// system and unmapped as soon as they are copied into the result, so the result never exists
// twice at once (malloc would keep freed blocks of this size in its heap).
template <class V>
class KeptEntries {
 public:
  static constexpr std::size_t kBlock = std::size_t(1) << 18;  // entries: 1 MiB of columns, 2 of double values

  KeptEntries() = default;
  KeptEntries(const KeptEntries&) = delete;
  KeptEntries& operator=(const KeptEntries&) = delete;
  ~KeptEntries() {
    for (Block& b : blocks_) unmap(b);
  }

  void push(vid_t c, V v) {
    if (used_ == kBlock) grow();
    blocks_.back().col[used_] = c;
    blocks_.back().val[used_++] = v;
  }

  // Copies the next n entries to col and val, unmapping each block once it is passed.
  void take(std::size_t n, GrB_Index* col, V* val) {
    while (n > 0) {
      Block& b = blocks_[front_];
      const std::size_t in_block = (front_ + 1 == blocks_.size() ? used_ : kBlock) - read_;
      const std::size_t k = std::min(n, in_block);
      std::copy(b.col + read_, b.col + read_ + k, col);
      std::copy(b.val + read_, b.val + read_ + k, val);
      col += k, val += k, n -= k, read_ += k;
      if (read_ == kBlock) {
        unmap(b);
        ++front_, read_ = 0;
      }
    }
  }

 private:
  struct Block {
    void* base = nullptr;
    vid_t* col = nullptr;
    V* val = nullptr;
  };
  static constexpr std::size_t kBytes = kBlock * (sizeof(vid_t) + sizeof(V));

  void grow() {
    blocks_.reserve(blocks_.size() + 1);  // may throw; the mapping below is then not leaked
    void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw ResourceError("graphblas: mxm_prune_rows: cannot map " + std::to_string(kBytes) +
                          " bytes of host memory for the kept entries (" + std::strerror(errno) + ")");
    Block b;
    b.base = p;
    b.val = static_cast<V*>(p);  // values first: aligned for V
    b.col = reinterpret_cast<vid_t*>(b.val + kBlock);
    blocks_.push_back(b);
    used_ = 0;
  }
  static void unmap(Block& b) {
    if (b.base) munmap(b.base, kBytes);
    b.base = nullptr;
  }

  std::vector<Block> blocks_;
  std::size_t used_ = kBlock;  // entries in the last block
  std::size_t front_ = 0, read_ = 0;
};

// A row's bar where the rule needs the row's largest values in order (Select, RecoverAll): its
// entries >= the bar are kept. Only the largest are ordered, but every number is the one a full
// sort in descending order gives: the select-th and recover-th largest, and the mass of the
// entries at or above the select-th summed largest first (those past the select-th all equal it).
template <class V>
double ordered_bar(const V* vals, std::size_t n, eid_t kept, PruneCase c, const PruneSpec& s, std::vector<V>& top) {
  const std::greater<V> descending;
  if (c == PruneCase::RecoverAll) {  // more than `recover` entries, fewer kept
    top.assign(vals, vals + n);
    std::nth_element(top.begin(), top.begin() + (s.recover - 1), top.end(), descending);
    return double(top[std::size_t(s.recover - 1)]);
  }
  // Select: more than `select` entries >= threshold, so the select-th largest of the row is one
  // of them, and so is the recover-th where more than `recover` are kept.
  top.clear();
  for (std::size_t k = 0; k < n; ++k)
    if (double(vals[k]) >= s.threshold) top.push_back(vals[k]);
  const auto select_end = top.begin() + s.select;
  std::nth_element(top.begin(), select_end - 1, top.end(), descending);
  std::sort(top.begin(), select_end - 1, descending);
  const double sbar = double(top[std::size_t(s.select - 1)]);
  eid_t selected = 0;
  double selected_mass = 0;
  for (; selected < s.select; ++selected) selected_mass += double(top[std::size_t(selected)]);
  for (auto it = select_end; it != top.end(); ++it)
    if (double(*it) >= sbar) ++selected, selected_mass += double(*it);  // a tie at the bar
  double recover_bar = 0.0;
  if (s.recover > 0 && kept > s.recover) {
    if (s.recover > s.select) std::nth_element(select_end, top.begin() + (s.recover - 1), top.end(), descending);
    recover_bar = double(top[std::size_t(s.recover - 1)]);
  }
  return spgraph::detail::select_bar(sbar, selected, selected_mass, kept, recover_bar, s);
}

// One thread's rows, taken a group of consecutive rows at a time: rows of an MCL iterate reach
// many of the same rows of B (its hubs, and its neighbours' where the ids have locality), and a
// row of B read once serves every row of the group that reaches it. Per column of B the
// accumulator holds the group's sums side by side, -0.0 between groups, and a byte says which
// rows of the group touched the column. Groups are of kGroup rows (8 side by side took 2.3 MB
// on cit-HepPh's 34,546 columns, past a 2 MiB L2, and were slower), fewer where B has so many
// columns that the accumulator would pass kAccumulatorBytes.
template <class V>
struct RowWorker {
  static constexpr int kGroup = 4;  // at most 8: the touched byte
  static constexpr std::size_t kAccumulatorBytes = std::size_t(32) << 20;
  int group = kGroup, shift = 2;  // group = 1 << shift
  // A group whose products reach more than 1/kDense of B's columns is read back by a scan of
  // the touched bytes; a smaller one keeps a list of its columns, sorted after.
  static constexpr std::uint64_t kDense = 8;
  std::unique_ptr<V[]> acc;  // acc[(j << shift) + r]: row r of the group, column j
  std::vector<std::uint8_t> touched;
  std::vector<vid_t> list;  // the group's columns, then in increasing order (room for one more)
  std::array<std::vector<vid_t>, kGroup> cols;  // each row of the group in column order
  std::array<std::vector<V>, kGroup> vals;
  std::array<std::size_t, kGroup> length{};
  std::vector<V> top;
  KeptEntries<V> kept;
  std::vector<std::pair<vid_t, vid_t>> chunks;  // the row ranges this thread did, in order

  void start(GrB_Index ncols) {
    while (shift > 0 && (std::size_t(ncols) << shift) * sizeof(V) > kAccumulatorBytes) --shift;
    group = 1 << shift;
    acc.reset(new V[std::size_t(ncols) << shift]);
    std::fill_n(acc.get(), std::size_t(ncols) << shift, V(-0.0));
    touched.assign(std::size_t(ncols), 0);
  }
  void finish() {  // the accumulator is not needed for the copy
    acc.reset();
    std::vector<std::uint8_t>().swap(touched);
    std::vector<vid_t>().swap(list);
    for (int r = 0; r < kGroup; ++r) std::vector<vid_t>().swap(cols[r]), std::vector<V>().swap(vals[r]);
    std::vector<V>().swap(top);
  }

  // The `count` rows first.. of A B (count <= group) into cols, vals and length, each in column
  // order. Every sum starts at -0.0, which leaves its first term as it is (x + -0.0 == x for every
  // x, zeros and NaN included), so the sums are GraphBLAS's, whose first term is assigned, and
  // the loops have no branch on the data. The rows of A are merged by column, so each row's
  // terms still come in the order of its k.
  template <BRead How>
  void product(vid_t first, int count, const InPlaceCsr<V>& a, const InPlaceCsr<V>& b, bool sign_free) {
    const GrB_Index *ap = a.ap(), *aj = a.aj(), *bp = b.ap(), *bj = b.aj();
    const V *ax = a.ax(), *bx = b.ax();
    const std::size_t a_step = a.iso() ? 0 : 1, ncols = touched.size();
    GrB_Index at[kGroup], end[kGroup];
    std::uint64_t products = 0;
    for (int r = 0; r < kGroup; ++r) {
      at[r] = r < count ? ap[first + r] : 0;
      end[r] = r < count ? ap[first + r + 1] : 0;
      for (GrB_Index p = at[r]; p < end[r]; ++p) products += bp[(aj[p] & kColumn) + 1] - bp[aj[p] & kColumn];
    }
    const std::size_t room = std::size_t(std::min<std::uint64_t>(products, ncols)) + 1;
    if (list.size() < room) list.resize(room);
    const bool dense = products * kDense > ncols;
    std::size_t n = 0;
    for (;;) {
      GrB_Index k = std::numeric_limits<GrB_Index>::max();
      for (int r = 0; r < kGroup; ++r)
        if (at[r] < end[r]) k = std::min(k, aj[at[r]] & kColumn);
      if (k == std::numeric_limits<GrB_Index>::max()) break;
      int c = 0, rows[kGroup];
      V aik[kGroup];
      std::uint8_t mask = 0;
      for (int r = 0; r < kGroup; ++r)
        if (at[r] < end[r] && (aj[at[r]] & kColumn) == k) {
          aik[c] = ax[at[r]++ * a_step];
          rows[c++] = r;
          mask = std::uint8_t(mask | (1u << r));
        }
      const GrB_Index q0 = bp[k], q1 = bp[k + 1];
      if (!dense) scatter_rows<Track::List, How>(c, q0, q1, bj, bx, rows, aik, mask, n);
      else if (sign_free) scatter_rows<Track::None, How>(c, q0, q1, bj, bx, rows, aik, mask, n);
      else scatter_rows<Track::Bytes, How>(c, q0, q1, bj, bx, rows, aik, mask, n);
    }
    if (dense && sign_free) {
      gather_scan(count, std::size_t(std::min<std::uint64_t>(products, ncols)));
      return;
    }
    // The group's columns in order: a scan of the touched bytes where they are many, else a sort.
    vid_t* __restrict const l = list.data();
    const std::uint8_t* __restrict const t = touched.data();
    if (dense || n * 64 > ncols) {
      n = 0;
      for (std::size_t j = 0; j < ncols; ++j) {
        l[n] = vid_t(j);
        n += t[j] != 0;
      }
    } else {
      std::sort(l, l + n);
    }
    gather(count, n, std::size_t(std::min<std::uint64_t>(products, ncols)));
  }

  // scatter<C> for the c (1..kGroup) rows of the group that reach a row of B.
  template <Track Note, BRead How, int C = 1>
  void scatter_rows(int c, GrB_Index q0, GrB_Index q1, const GrB_Index* bj, const V* bx, const int* rows,
                    const V* aik, std::uint8_t mask, std::size_t& n) {
    if constexpr (C < kGroup) {
      if (c != C) return scatter_rows<Note, How, C + 1>(c, q0, q1, bj, bx, rows, aik, mask, n);
    }
    scatter<C, Note, How>(q0, q1, bj, bx, rows, aik, mask, n);
  }

  // B's row k (q0..q1) scaled by the C values aik into the rows `rows` of the group; the list
  // of the group's columns grows where a column is new to it.
  template <int C, Track Note, BRead How>
  void scatter(GrB_Index q0, GrB_Index q1, const GrB_Index* __restrict bj, const V* __restrict bx,
               const int* rows, const V* aik, std::uint8_t mask, std::size_t& n) {
    V* __restrict const x = acc.get();
    std::uint8_t* __restrict const t = touched.data();
    vid_t* __restrict const l = list.data();
    int r[C];
    V s[C];
    for (int c = 0; c < C; ++c) r[c] = rows[c], s[c] = aik[c];
    std::size_t m = n;
    for (GrB_Index q = q0; q < q1; ++q) {
      __builtin_prefetch(bj + q + 64);
      if (How == BRead::Plain) __builtin_prefetch(bx + q + 64);
      const GrB_Index j = bj[q] & kColumn;
      V bkj;
      if constexpr (How == BRead::Packed) bkj = V(std::bit_cast<float>(std::uint32_t(bj[q] >> 32)));
      else bkj = How == BRead::Iso ? bx[0] : bx[q];
      V* const y = x + (j << shift);
      for (int c = 0; c < C; ++c) y[r[c]] += s[c] * bkj;
      if constexpr (Note == Track::List) {
        l[m] = vid_t(j);
        m += t[j] == 0;
      }
      if constexpr (Note != Track::None) t[j] = std::uint8_t(t[j] | mask);
    }
    n = m;
  }

  // Each row of the group out of the accumulator by a scan of its sums, in column order: those
  // that are no longer -0.0 were reached (Track::None); the accumulator back to -0.0.
  void gather_scan(int count, std::size_t most) {
    using Bits = std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>;
    constexpr Bits kUntouched = std::bit_cast<Bits>(V(-0.0));
    for (int r = 0; r < count; ++r)
      if (cols[r].size() <= most) cols[r].resize(most + 1), vals[r].resize(most + 1);  // one more: the scan writes ahead
    V* __restrict const x = acc.get();
    const std::size_t ncols = touched.size();
    for (int r = 0; r < count; ++r) {
      vid_t* __restrict const c = cols[r].data();
      V* __restrict const v = vals[r].data();
      std::size_t n = 0;
      for (std::size_t j = 0; j < ncols; ++j) {
        const V y = x[(j << shift) + std::size_t(r)];
        c[n] = vid_t(j);
        v[n] = y;
        n += std::bit_cast<Bits>(y) != kUntouched;
      }
      length[r] = n;
      for (std::size_t k = 0; k < n; ++k) x[(std::size_t(c[k]) << shift) + std::size_t(r)] = V(-0.0);
    }
  }

  // Each row of the group out of the accumulator, in column order; the accumulator back to
  // -0.0 and the touched bytes to 0 where the group reached.
  void gather(int count, std::size_t n, std::size_t most) {
    for (int r = 0; r < count; ++r) {
      if (cols[r].size() < most) cols[r].resize(most), vals[r].resize(most);
      length[r] = 0;
    }
    V* __restrict const x = acc.get();
    std::uint8_t* __restrict const t = touched.data();
    const vid_t* __restrict const l = list.data();
    for (std::size_t k = 0; k < n; ++k) {
      const vid_t j = l[k];
      V* const y = x + (std::size_t(j) << shift);
      for (unsigned bits = t[j]; bits; bits &= bits - 1) {
        const int r = __builtin_ctz(bits);
        cols[r][length[r]] = j;
        vals[r][length[r]++] = y[r];
        y[r] = V(-0.0);
      }
      t[j] = 0;
    }
  }

  // Prunes row r of the group (row i of the product); returns how many entries it keeps.
  eid_t prune(int r, vid_t i, const PruneSpec& spec, V& peak_out, V& squares_out) {
    const V* const v = vals[r].data();
    const vid_t* const c = cols[r].data();
    const std::size_t n = length[r];
    double peak = -std::numeric_limits<double>::infinity(), squares = 0, kept_mass = 0;
    eid_t kept_count = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double x = double(v[k]);
      peak = std::max(peak, x);
      squares += x * x;
      if (x >= spec.threshold) ++kept_count, kept_mass += x;
    }
    peak_out = n > 0 ? V(peak) : V(0);  // the largest value, as the GPU's; 0 for an empty row
    squares_out = V(squares);
    const PruneCase how = spgraph::detail::prune_case(eid_t(n), kept_count, kept_mass, spec);
    if (how == PruneCase::Loop) {  // mcl's emergency loop: the diagonal alone, set to 1
      const vid_t* at = std::lower_bound(c, c + n, i);
      if (at == c + n || *at != i) return 0;
      kept.push(i, V(1));
      return 1;
    }
    double bar = spec.threshold;
    if (how == PruneCase::KeepAll) bar = -std::numeric_limits<double>::infinity();
    else if (how == PruneCase::Select || how == PruneCase::RecoverAll) bar = ordered_bar(v, n, kept_count, how, spec, top);
    eid_t count = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (double(v[k]) >= bar) kept.push(c[k], v[k]), ++count;
    return count;
  }
};

bool is_plus_times(SemiringId sr) {
  return sr.add.op == spgraph::detail::Op::Plus && sr.mul.op == spgraph::detail::Op::Times;
}

}  // namespace

template <class V>
void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A, const Matrix<V>& B,
                    SemiringId sr, const PruneSpec& spec, std::size_t /*memory_budget: no panels on the CPU*/) {
  internal::require(A.handle(), "mxm_prune_rows", "A");
  internal::require(B.handle(), "mxm_prune_rows", "B");
  if (!is_plus_times(sr))
    throw Error(std::string("graphblas: mxm_prune_rows: the semiring must be plus-times (MCL's expansion); got ") +
                sr.add.name + "." + sr.mul.name);
  const GrB_Index a_cols = internal::ncols(A.handle()), b_rows = internal::nrows(B.handle());
  if (a_cols != b_rows)
    throw Error("graphblas: mxm_prune_rows: A is " + std::to_string(internal::nrows(A.handle())) + " x " +
                std::to_string(a_cols) + " but B has " + std::to_string(b_rows) + " rows");

  Matrix<V> result;
  std::vector<V> peak_h, squares_h;
  {
    // A and B read in place (the same arrays when B is A), given back before C is replaced,
    // which may be one of them.
    InPlaceCsr<V> a(A.handle());
    std::unique_ptr<InPlaceCsr<V>> b_own;
    if (B.handle() != A.handle()) b_own = std::make_unique<InPlaceCsr<V>>(B.handle());
    InPlaceCsr<V>& b = b_own ? *b_own : a;
    const bool sign_free = a.sign_free() && (!b_own || b.sign_free());
    b.pack_values();
    const vid_t n = vid_t(a.nrows());
    const GrB_Index ncols = b.ncols();
    peak_h.resize(std::size_t(n));
    squares_h.resize(std::size_t(n));
    internal::PackedCsr<V> out;
    out.nrows = a.nrows();
    out.ncols = ncols;
    out.ap = internal::malloc_array<GrB_Index>(std::size_t(n) + 1);
    out.ap_bytes = (std::size_t(n) + 1) * sizeof(GrB_Index);
    out.ap[0] = 0;

    int threads = std::max(1, omp_get_max_threads());
    if (std::int64_t(a.ap()[n]) <= kParallelEntries) {  // a small product (late MCL iterations) on one thread
      std::int64_t products = 0;
      for (GrB_Index p = 0; p < a.ap()[n]; ++p) {
        const GrB_Index k = a.aj()[p] & kColumn;
        products += std::int64_t(b.ap()[k + 1] - b.ap()[k]);
      }
      if (products <= kParallelEntries) threads = 1;
    }
    std::vector<RowWorker<V>> workers(static_cast<std::size_t>(threads));
    constexpr std::int64_t kChunk = 16;  // rows a thread takes at a time
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_lock;
    const auto fail = [&] {
      std::lock_guard<std::mutex> hold(error_lock);
      if (!error) error = std::current_exception();
      failed = true;
    };
#pragma omp parallel num_threads(threads)
    {
      RowWorker<V>& w = workers[std::size_t(omp_get_thread_num())];
      try {
        w.start(ncols);
        while (!failed.load(std::memory_order_relaxed)) {
          const std::int64_t first = next.fetch_add(kChunk);
          if (first >= n) break;
          const vid_t last = vid_t(std::min<std::int64_t>(n, first + kChunk));
          w.chunks.emplace_back(vid_t(first), last);
          for (vid_t g = vid_t(first); g < last; g += w.group) {
            const int count = int(std::min<vid_t>(w.group, last - g));
            if (b.packed()) w.template product<BRead::Packed>(g, count, a, b, sign_free);
            else if (b.iso()) w.template product<BRead::Iso>(g, count, a, b, sign_free);
            else w.template product<BRead::Plain>(g, count, a, b, sign_free);
            for (int r = 0; r < count; ++r) {
              const std::size_t i = std::size_t(g) + std::size_t(r);
              out.ap[i + 1] = GrB_Index(w.prune(r, vid_t(i), spec, peak_h[i], squares_h[i]));
            }
          }
        }
        w.finish();
      } catch (...) {
        fail();
      }
    }
    if (error) std::rethrow_exception(error);

    for (vid_t i = 0; i < n; ++i) out.ap[std::size_t(i) + 1] += out.ap[i];
    const std::size_t nnz = std::size_t(out.ap[n]);
    out.aj = internal::malloc_array<GrB_Index>(nnz);
    out.aj_bytes = std::max<std::size_t>(nnz, 1) * sizeof(GrB_Index);
    out.ax = internal::malloc_array<V>(nnz);
    out.ax_bytes = std::max<std::size_t>(nnz, 1) * sizeof(V);
    // Each thread copies the rows it produced, in order, giving back its blocks as it goes.
#pragma omp parallel num_threads(threads) if (std::int64_t(nnz) > kParallelEntries)
    for (int t = omp_get_thread_num(); t < threads; t += omp_get_num_threads())
      for (const auto& [first, last] : workers[std::size_t(t)].chunks) {
        const GrB_Index at = out.ap[first];
        workers[std::size_t(t)].kept.take(std::size_t(out.ap[last] - at), out.aj + at, out.ax + at);
      }
    workers.clear();

    a.give_back();
    if (b_own) b_own->give_back();
    result = Matrix<V>(n, vid_t(ncols));
    out.pack(result.handle());
  }
  C = std::move(result);
  peak = from_host(peak_h);
  squares = from_host(squares_h);
}

#define SPGRAPH_INSTANTIATE(V)                                                                                  \
  template void mxm_prune_rows<V>(Matrix<V>&, Vector<V>&, Vector<V>&, const Matrix<V>&, const Matrix<V>&,      \
                                  SemiringId, const PruneSpec&, std::size_t);
SPGRAPH_INSTANTIATE(float)
SPGRAPH_INSTANTIATE(double)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas::detail
