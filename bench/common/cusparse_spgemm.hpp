#pragma once
// cuSPARSE SpGEMM (C = A*B), the SpGEMM benchmark's baseline, with each of its algorithms.
#include <vector>

#include "cusparse_csr.hpp"

namespace spgraph::bench {

struct CusparseSpgemmAlgorithm {
  cusparseSpGEMMAlg_t id;
  const char* name;  // "cuSPARSE alg1", ...
};

// ALG1 (fast, most memory), ALG2 (less memory: sizes its buffer from estimateMemory),
// ALG3 (least: computes in chunks of the intermediate products).
const std::vector<CusparseSpgemmAlgorithm>& cusparse_spgemm_algorithms();

// ALG3 processes the intermediate products in chunks of this fraction (NVIDIA's sample value).
inline constexpr float kCusparseChunkFraction = 0.2f;

// C = A*B by the generic API's protocol in CUDA 12-13: workEstimation (size query, then with
// its buffer); for ALG2/ALG3 getNumProducts and estimateMemory (which sizes the compute
// buffer; its own buffer is freed right after); for ALG1 compute's size query; compute;
// then C's arrays are allocated from the size cuSPARSE reports and filled by copy. Every
// buffer comes from spgraph's pool. Throws device::CusparseError naming the failed call and
// status, and spgraph::Error when C has more nonzeros than 32-bit offsets hold. The result is
// not checked here: cuSPARSE has returned an empty C without an error status past 2^31
// products, so callers compare it with a trusted result.
template <class V>
CusparseCsr<V> cusparse_spgemm(cusparseHandle_t handle, CusparseCsr<V>& a, CusparseCsr<V>& b,
                               cusparseSpGEMMAlg_t alg);

}  // namespace spgraph::bench
