#pragma once
// The run-time choice of backend for the algorithms' non-template entry points (what the apps'
// --backend flag selects). The compile-time backends are gpu::GpuBackend and
// graphblas::GraphBlasBackend.
namespace spgraph::algorithms {

enum class Backend {
  Gpu,          // this project's CUDA kernels
  Cpu,          // SuiteSparse:GraphBLAS
  Distributed,  // the ranks of an MPI job, each with its block on GraphBLAS (dist::CpuBackend),
                // on the grid of the dist::GridScope in use; collective
  DistributedGpu,  // the same, each block on the rank's own GPU (dist::GpuBackend)
};

constexpr const char* to_string(Backend b) {
  return b == Backend::Gpu ? "gpu" : b == Backend::Cpu ? "cpu" : b == Backend::Distributed ? "distributed" : "distributed gpu";
}

}  // namespace spgraph::algorithms
