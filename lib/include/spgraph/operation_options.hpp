#pragma once
// The options some operations of the contract (operations.hpp) take: the SpGEMM algorithm and
// memory budget, the SpMV kernel, what select keeps, MCL's pruning and inflation. Apart from
// operations.hpp so that the kernel families' headers need not include the whole contract.
#include <cstddef>
#include <cstdint>

namespace spgraph {

enum class MxmAlgorithm { Auto, Hash, Esc };

struct MxmOptions {
  MxmAlgorithm algorithm = MxmAlgorithm::Auto;
  // Bytes C's computation may use (0: the backend's default). On the GPU, device bytes (what is
  // free): a C that does not fit is computed in row panels (gpu/spgemm.hpp). On the distributed
  // backend, the host bytes one phase of a rank's mxm_prune_rows may use (dist/pruned_product.hpp;
  // a quarter of the host's memory shared among its ranks), and within which mxm_reduce_rows
  // replicates its operands on every rank (dist/replicated_product.hpp). GraphBLAS needs none.
  std::size_t memory_budget = 0;
};

enum class SpmvKernel { Auto, CsrVector, CsrMergePath, CsrStream, CooLoadBalanced, SellP, Hyb, Amb };

struct SpmvOptions {
  SpmvKernel kernel = SpmvKernel::Auto;  // the caller may override the automatic choice
};

// What select keeps of A.
//   by value, comparing double(a_ij) with threshold: GreaterEqual, Greater, LessEqual, Less,
//     NotEqualZero (threshold ignored); NaN fails every comparison except NotEqualZero.
//   by position, with offset k (GraphBLAS's TRIL, TRIU, DIAG, OFFDIAG):
//     Lower j - i <= k, Upper j - i >= k, Diagonal j - i == k, OffDiagonal j - i != k
//     (strictly lower: Lower with k = -1; strictly upper: Upper with k = 1).
//   TopKPerRow / TopKPerCol: the k largest values of each row (column); ties go to the smaller
//     column (row); NaN ranks below every number; k >= 0.
struct SelectSpec {
  enum class Kind {
    GreaterEqual, Greater, LessEqual, Less, NotEqualZero,
    Lower, Upper, Diagonal, OffDiagonal,
    TopKPerRow, TopKPerCol
  } kind = Kind::GreaterEqual;
  double threshold = 0;
  std::int64_t offset = 0;  // for the positional kinds
  std::int64_t k = 0;       // for TopKPerRow and TopKPerCol

  static SelectSpec value(Kind kind, double threshold) { return {kind, threshold, 0, 0}; }
  static SelectSpec position(Kind kind, std::int64_t offset = 0) { return {kind, 0, offset, 0}; }
  static SelectSpec top_k(Kind kind, std::int64_t k) { return {kind, 0, 0, k}; }
};

// How mxm_prune_rows prunes each row of a product: the mcl program's pruning of a column of its
// expansion (mcl's -P, -S, -R, -pct as threshold 0.99999/P, select S, recover R, recover_mass
// pct/100). With v the row's values (compared and summed in double):
//   kept = the entries >= threshold;
//   if recover > 0, |kept| < recover and sum(kept) < recover_mass: the `recover` largest
//     entries of the whole row (all of it when it has no more);
//   else if select > 0 and |kept| > select: the `select` largest of kept; then, if recover > 0
//     and those are fewer than `recover` with a sum below recover_mass, the `recover` largest
//     of kept instead (all of kept when it has no more);
//   "the k largest" are the entries >= the k-th largest value (ties at the bar all kept);
//   if recover == 0 and nothing is kept, the row keeps its diagonal entry, set to 1 (mcl's
//   emergency loop; an MCL iterate always holds one).
// The kept entries keep their values (mcl rescales them, which inflation makes moot).
struct PruneSpec {
  double threshold = 0;
  std::int64_t select = 0;
  std::int64_t recover = 0;
  double recover_mass = 0;
};

// What inflate_rows does to each row of A (MCL's inflation): every entry raised to `power`
// (computed in double, stored as the value type), the row then scaled to sum 1 (x times the
// inverse of the row's sum, in the value type), each value rounded to float precision where
// float_values holds (mcl keeps its matrices in float). An empty row stays empty.
struct InflateSpec {
  double power = 2;
  bool float_values = false;
};

}  // namespace spgraph
