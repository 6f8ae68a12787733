#pragma once
// The algorithms' run-time entry points (a Backend and a host CSR): the graph built on the
// chosen backend for this one run, then run(graph). A build without the GPU backend (or MPI)
// refuses Backend::Gpu (or the distributed ones) with a message saying so.
#include <string>
#include <utility>

#include "spgraph/algorithms/backend.hpp"
#include "spgraph/config.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/cpu_backend.hpp"
#endif
#if SPGRAPH_HAVE_GPU
#include "spgraph/gpu/backend.hpp"
#endif
#if SPGRAPH_HAVE_MPI && SPGRAPH_HAVE_GPU
#include "spgraph/dist/gpu_backend.hpp"
#endif

namespace spgraph::algorithms {

template <class Run>
auto on_backend(Backend backend, const Csr<double>& graph, Run&& run) {
  if (backend == Backend::Gpu) {
#if SPGRAPH_HAVE_GPU
    Graph<gpu::GpuBackend> g(graph);
    return std::forward<Run>(run)(g);
#else
    std::string why;
    device::gpu_available(&why);
    throw Error("the gpu backend cannot run: " + why + "; use the cpu backend");
#endif
  }
  if (backend == Backend::Distributed) {
#if SPGRAPH_HAVE_MPI
    Graph<dist::CpuBackend> g(graph);
    return std::forward<Run>(run)(g);
#else
    throw Error("the distributed backend cannot run: this build of spgraph found no MPI");
#endif
  }
  if (backend == Backend::DistributedGpu) {
#if SPGRAPH_HAVE_MPI && SPGRAPH_HAVE_GPU
    Graph<dist::GpuBackend> g(graph);
    return std::forward<Run>(run)(g);
#else
    throw Error("the distributed backend on GPU ranks cannot run: this build of spgraph has " +
                std::string(SPGRAPH_HAVE_MPI ? "no GPU backend" : "no MPI"));
#endif
  }
  Graph<graphblas::GraphBlasBackend> g(graph);
  return std::forward<Run>(run)(g);
}

}  // namespace spgraph::algorithms
