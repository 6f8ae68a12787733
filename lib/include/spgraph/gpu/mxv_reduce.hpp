#pragma once
// A product y = A (+).(x) x chained with a pass over its rows, for iterative algorithms whose
// every iteration is "one SpMV, then one pass over its result" (PageRank): each row's value
// w_i goes to a functor, which may write element i of some vectors and add to R sums, as in
// gpu::map_reduce (dense_map_reduce.hpp):
//
//   gpu::MxvReducer<V, R> pass;
//   pass.seed({...});                              // the totals the first pass sees
//   pass.prepare(A, options);                      // optional: the product's format, built now
//   pass.start(f, A, x, SR{}, options, v1, v2, ...);
//   std::array<double, R> sums = pass.finish();
//
// calls f(i, w_i, acc, prev, v1.data(), v2.data(), ...) for every row i of A, with acc a
// double[R] f adds to and prev the const double[R] totals of the previous pass of this reducer
// (or the seed; zeros if none). prev lets pass k+1 depend on pass k's sums without the host
// reading them first, so the host can queue pass k+1 before it waits for pass k: start() may
// run one pass ahead of finish(), never two. f's contract is map_reduce's: write only element
// i, read other elements only of vectors no call writes (x is read across rows, so f must not
// write x). No mask; the semiring, its operand order and options.kernel are mxv's. A start()
// on the matrix and kernel of the start() before it may begin its product while the previous
// pass finishes (below), so A must not be written while the reducer uses it (gpu::Matrix is
// immutable: the caution is for a matrix freed and another built at its address).
//
// The product goes to scratch and a map_reduce pass follows on the device. Handing the rows to
// f from inside the CSR-stream kernel instead was built and measured on the H200 (PageRank,
// wb-edu-like float: 0.36 ms an iteration against 0.24 ms this way; cit-Patents-like double
// 0.27 against 0.19): the functor's registers and the per-tile sums slow the product more than
// the 8 bytes a row it saves. Built again for the smaller graphs, whose iterations are short
// (us an iteration, float / double, against the paths below): cnr-2000 22.9 / 32.1 against
// 26.5 / 27.5, web-NotreDame 15.5 / 20.1 against 17.8 / 19.9, cit-HepPh 11.2 / 13.0 against
// 11.7 / 11.9, email-Enron 9.7 / 10.1 against 9.6 / 9.8: a gain in float on the two larger,
// a loss in double, and still 1.34 to 1.8 SpMVs an iteration, so not kept. Built a third time
// on the CSR-stream kernel with its stage filled by cp.async (an output policy beside y<mask>,
// every row handed to f once): wb-edu-like float 0.279 ms against 0.232, double 0.446 against
// 0.328, cit-Patents-like float 0.101 against 0.080; only web-NotreDame float gained (16.1
// against 17.8 us). With the per-tile sums added in two levels (groups of 256 blocks, so the
// last block adds at most 256 partials): wb-edu-like float 0.262, cit-Patents-like 0.093, and
// the small graphs' passes slower (email-Enron 10.8 against 9.9 us), so the epilogue itself,
// not the sums, is what costs. Built a fourth time as one kernel whose blocks take, in
// dispatch order, either a CSR-stream tile or a pass over the rows of 4 tiles dispatched at
// least a wave earlier (a count per 4 tiles, released by each tile's block after its rows):
// PageRank float, an iteration, cit-Patents-like 0.092 ms against 0.080, wb-edu-like 0.257
// against 0.230, web-NotreDame 18.8 against 17.3 us. With the pass items left empty an
// iteration still took 0.078 and 0.217 ms, against 0.055 and 0.178 for the product alone, and
// the pass items added 70-90% of a separate pass instead of hiding behind the product;
// probably (not profiled) the vertex vectors streamed beside the gathers take the L2 that
// holds x, and evict-first hints on the pass's loads gained about 1%. Half a wave, two waves
// or 8 tiles per pass item changed nothing that mattered; as persistent blocks taking items
// by ticket it was slower still (0.113 and 0.350 ms: the loop's state spilled from the
// product's 32 registers). Also tried: programmatic dependent launch, the product and the
// pass each waiting for the kernel before it at its start (the form kept is below).
// cit-Patents-like float 0.0779 against 0.0801 ms and web-NotreDame float 15.8 against
// 17.3 us, but wb-edu-like double
// 0.334 against 0.328; the SpMV an iteration is measured against moved too (cit-Patents-like
// 0.0535 against 0.0549, web-NotreDame double 0.0115 against 0.0107): no graph above 1.3
// SpMVs an iteration came below it, and wb-edu-like double went above (1.32 against 1.29).
// Not kept. Built a fifth time as a row policy of the CSR-stream kernel: each row handed to f
// as the kernel finished it, f's per-row inputs (t_{k-1}, the out-degrees) and the previous
// totals copied by cp.async into the shared memory the tile leaves unused while the product's
// loads were in flight (so f waited on no load after the product), one block reduction per
// tile, and the tiles' sums added by a one-block kernel after it. PageRank, an iteration,
// against the separate pass: cit-Patents-like double 0.146 against 0.155 ms, web-NotreDame
// 16.0 / 17.5 against 17.9 / 18.9 us (float / double), but cit-Patents-like float 0.088
// against 0.080, wb-edu-like float 0.251 against 0.233 and double 0.349 against 0.328. Under
// ncu (cit-Patents-like float) the kernel took 78.9 us against 55.9 for the product alone, its
// SM throughput 80% against 57% (the pass's double-precision arithmetic for every row, now in
// the product's tail), and the one-block sum 7.7 us. No graph above 1.3 SpMVs an iteration
// came below it; not kept. Built a sixth time (H100, 2026-11-26) so that the pass writes
// nothing the next product reads: the CSR-stream kernel's output wrote t_k itself (r_k from
// the row's sum and dangling_{k-1}, divided by the row's out-degree), the pass only read t_k,
// t_{k-1} and the out-degrees for the two sums (12 bytes a vertex in float instead of 16), and
// the next product, launched as a programmatic dependent of that pass, gathered at once and
// waited only before its output. An iteration, float / double, against this design in the same
// run: wb-edu-like 0.383 / 0.495 ms against 0.248 / 0.361, cit-Patents-like 0.096 / 0.246
// against 0.076 / 0.163 (ordinary launches instead: 0.390 / 0.517 and 0.099 / 0.243). The
// output made the product slower by more than a whole pass costs, even where it did not spill
// (float cit-Patents-like; the other two instantiations spilled 12-16 bytes).
// A COO product (options.kernel, Auto's choice, or Auto on a matrix of at most kFusedChainMaxNnz
// nonzeros) adds into the scratch with atomics, so the pass puts a scratch back to the identity
// and the next product needs no fill kernel first. Up to kFusedChainMaxNnz nonzeros product and
// pass run in one cooperative kernel (the product's atomics, a grid-wide barrier, the pass, which
// clears each row as it reads it); above it as two kernels, the pass clearing a spare scratch
// that the next product then takes. (PageRank on cnr-2000, where Auto picks COO: three kernels an
// iteration became two.)
// Sums are deterministic for a given device and kernel, up to the order of the COO kernel's
// atomics. Everything runs on the default stream.
//
// What brought cit-Patents-like float below 1.3 value-free SpMVs an iteration (1.28-1.29), with
// the L2 hints of PageRank's pass (algorithms/pagerank_impl.hpp): the product launched as a
// programmatic dependent of the pass before it (device/dependent_launch.hpp). The pass lets it
// start at once, and each block of the CSR-stream kernel reads its share of A (row ends, column
// ids, values) before it waits for the pass, so the product's first blocks load while the
// pass's last blocks and its last-block sum finish. H200, an iteration, against the same build
// launching the product the ordinary way (us, float / double): cit-Patents-like 70.3 / 137.6
// against 73.3 / 140.9, wb-edu-like 211.7 / 314.6 against 215.6 / 317.8. The wait costs when it
// is executed even in an ordinary launch (wb-edu-like float valued SpMV 0.1815-0.1823 ms
// against 0.1726-0.1737), so the kernel waits only when told it was launched as a dependent.
// Measured and not kept: the pass launched as a dependent of the product as well, loading its
// rows' inputs for its first round before waiting (cit-Patents-like float 1.3 us less again,
// but wb-edu-like float 5.7 and double 11.5 us more); the earlier form above, in which both
// kernels waited at their start.
//
// Where the separate pass stood before that (H200, cit-Patents-like float, an iteration 73.8-74.6 us
// against a value-free SpMV of 54.5-55.1). Under ncu the product in the chain takes 57.4-59.7 us
// against 54.8-56.7 alone, as the pass's t_k leaves L2 while it runs (27 MB written to DRAM
// against 9), and the pass 20.8-22.3 us, its 45 MB read from DRAM: the product's gathers leave
// little of t_{k-1} in L2 (27% of the pass's sectors hit). Timed with parts removed, against
// the whole pass in the same run: f doing no arithmetic, 0.8 us less; the pass's sums left as
// per-block partials (no fence, arrival count or last-block sum), 1.8 less; no sums at all,
// 2.3 less; no arithmetic and partials only, 71.0 us against 73.8, which is 1.30 SpMVs: with
// the product as it was, no form of this pass could get that graph below 1.3.
// Also measured and not kept: the rows in reverse order, so that the pass reads first the
// product's last rows, in case L2 still held them (75.2 against 74.1 us); out-degrees as 16-bit
// integers (74.1 against 74.6, double 151.1 against 152.1); grids of whole rounds of 1, 2, 3
// or 6 rows a thread (75.2-80.2); an L2 set-aside for persisting accesses with an access
// policy window on x, a device-wide setting that slows every other access (37.5 MB set aside:
// the SpMV 76 us); set aside to x's size it helped double only (SpMV 117 -> 97 us, PageRank
// 148 -> 134) and float not at all.
//
// Declared here for host code (gpu/backend.hpp); prepare() and start() are defined in
// mxv_reduce_impl.cuh, which the .cu file instantiating them includes.
#include <array>
#include <optional>

#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operations.hpp"

namespace spgraph::gpu {

// Up to this many nonzeros, Auto runs a chain's product as COO in one kernel with its pass.
// There an iteration is bound by launching kernels: on the H200 machine the host takes 3.5 to
// 4.8 us to queue one, while a pass over 34k rows runs in 3.2 us. PageRank float, H200, an
// iteration (three kernels -> one): email-Enron (367k nonzeros) 16.3 -> 10.2 us, cit-HepPh
// (421k) 15.8 -> 12.4 us. Above this bound the single kernel lost: web-NotreDame (1.5M,
// against CSR stream and a pass) 18.8 -> 19.9 us, cnr-2000 (3.2M, against COO and a pass)
// 26.4 -> 28.7 us, and the generated cit-Patents-like and wb-edu-like graphs ran at a third of
// the speed. The grid is capped at the blocks resident at once, and so are the
// warps sharing the product.
inline constexpr eid_t kFusedChainMaxNnz = 1'000'000;

template <class V, int R>
class MxvReducer {
  static_assert(R >= 1, "a row pass needs at least one sum");

 public:
  static constexpr bool deferred = true;  // start() queues the pass and returns

  MxvReducer() : sums_(2, R) { seed({}); }
  MxvReducer(const MxvReducer&) = delete;
  MxvReducer& operator=(const MxvReducer&) = delete;
  ~MxvReducer() {
    for (int p = finished_; p < started_; ++p) sums_.drain(p % 2);
  }

  // The totals the next pass sees as prev. Only between passes (none started and unfinished).
  void seed(const std::array<double, R>& totals) {
    if (started_ != finished_) throw Error("gpu::MxvReducer::seed: a pass is still in flight (finish() it first)");
    if (totals_.empty()) totals_ = device::Buffer<double>(R, 0);
    SPGRAPH_CUDA(cudaMemcpy(totals_.data(), totals.data(), R * sizeof(double), cudaMemcpyHostToDevice));
  }

  // Optional: builds ahead what the products of start(f, A, x, SR{}, options, ...) read (the
  // kernel's format or the COO row ids, and the scratch), which the first start() otherwise
  // builds, so that every pass costs the same.
  void prepare(const Matrix<V>& A, const SpmvOptions& options);

  template <class SR, class F, class... T>
  void start(F f, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options, Vector<T>&... vectors);

  // The sums of the oldest pass not yet finished; waits for that pass alone.
  std::array<double, R> finish() {
    if (finished_ == started_) throw Error("gpu::MxvReducer::finish: no pass is in flight");
    const int slot = finished_++ % 2;
    return sums_.template wait<R>(slot);
  }

 private:
  void size_product(std::size_t n, bool with_spare) {
    if (with_spare && spare_.size() != n) spare_ = Vector<V>(n);
    if (product_.size() == n) return;
    product_ = Vector<V>(n);
    product_holds_.reset();
  }

  template <class SR, class F, class... T>
  void start_coo(F f, const Matrix<V>& A, const Vector<V>& x, bool fused, Vector<T>&... vectors);

  device::Buffer<double> partials_;    // one sum per block and r
  device::Buffer<unsigned> arrivals_;  // blocks done with the pass in flight; 0 between passes
  device::Buffer<double> totals_;      // the last pass's totals, which the next one reads
  Vector<V> product_;                  // A x
  Vector<V> spare_;                    // the next A x of a two-kernel COO chain (its pass clears
                                       // it while it reads product_; then the two swap)
  std::optional<V> product_holds_;     // the value in every element of product_, when known (a
                                       // COO chain's pass leaves the identity for the next product)
  detail::MappedSums sums_;            // two slots: the pass being finished, the one ahead
  const Matrix<V>* last_matrix_ = nullptr;  // the last start()'s product, where it was mxv then a pass
  SpmvKernel last_kernel_ = SpmvKernel::Auto;  // and the kernel it asked for
  int started_ = 0, finished_ = 0;
};

}  // namespace spgraph::gpu
