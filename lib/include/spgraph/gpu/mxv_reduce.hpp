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
// calls f(i, w_i, acc, prev, v1, v2, ...) for every row i of A, with each vector as a view whose
// v[i] carries a cache hint (device/cache_hints.hpp, which converts to the vector's pointer):
// one passed const is read evict-first, and one written, which the next product
// reads, is stored evict-last (so no vector may be passed both ways); acc is a double[R] f adds to and prev the const double[R] totals
// of the previous pass of this reducer
// (or the seed; zeros if none). prev lets pass k+1 depend on pass k's sums without the host
// reading them first, so the host can queue pass k+1 before it waits for pass k: start() may
// run one pass ahead of finish(), never two. f's contract is map_reduce's: write only element
// i, read other elements only of vectors no call writes (x is read across rows, so f must not
// write x). No mask; the semiring, its operand order and options.kernel are mxv's. A start()
// on the matrix and kernel of the start() before it may begin its product while the previous
// pass finishes (below), so A must not be written while the reducer uses it (gpu::Matrix is
// immutable; a matrix built where a freed one was is told apart by Matrix::id()).
//
// The product goes to scratch and a map_reduce pass follows on the device. Six designs that
// fused the pass into the product (rows handed to f from the CSR-stream kernel's epilogue or
// as a row policy, pass items interleaved with the tiles, the product writing t_k itself) were
// built and measured; each slowed the product more than the pass's bytes it saved, and none is
// kept (docs/performance/pagerank.md).
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
// Each product after the first is launched as a programmatic dependent of the pass before it
// (device/dependent_launch.hpp): each block of the CSR-stream kernel reads its share of A
// before it waits for the pass, so the product's first blocks load while the pass's last
// blocks finish. The wait costs when executed in an ordinary launch, so the kernel waits only
// when told it was launched as a dependent. Measurements, the forms not kept and where the
// separate pass's floor lies: docs/performance/pagerank.md.
//
// Declared here for host code (gpu/backend.hpp); prepare() and start() are defined in
// mxv_reduce_impl.cuh, which the .cu file instantiating them includes.
#include <array>
#include <cstdint>
#include <optional>

#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operation_options.hpp"

namespace spgraph::gpu {

// Up to this many nonzeros, Auto runs a chain's product as COO in one kernel with its pass.
// There an iteration is bound by launching kernels (the host takes longer to queue one than
// such a pass runs); above this bound the single kernel lost (docs/performance/pagerank.md).
// The grid is capped at the blocks resident at once, and so are the warps sharing the product.
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

  template <class SR, class F, class... Vs>
  void start(F f, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options, Vs&... vectors);

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

  template <class SR, class F, class... Vs>
  void start_coo(F f, const Matrix<V>& A, const Vector<V>& x, bool fused, Vs&... vectors);

  device::Buffer<double> partials_;    // one sum per block and r
  device::Buffer<unsigned> arrivals_;  // blocks done with the pass in flight; 0 between passes
  device::Buffer<double> totals_;      // the last pass's totals, which the next one reads
  Vector<V> product_;                  // A x
  Vector<V> spare_;                    // the next A x of a two-kernel COO chain (its pass clears
                                       // it while it reads product_; then the two swap)
  std::optional<V> product_holds_;     // the value in every element of product_, when known (a
                                       // COO chain's pass leaves the identity for the next product)
  detail::MappedSums sums_;            // two slots: the pass being finished, the one ahead
  std::uint64_t last_matrix_ = 0;      // Matrix::id() of the last start()'s product, where it was mxv
                                       // then a pass (0: none; an address could be reused)
  SpmvKernel last_kernel_ = SpmvKernel::Auto;  // and the kernel it asked for
  int started_ = 0, finished_ = 0;
};

}  // namespace spgraph::gpu
