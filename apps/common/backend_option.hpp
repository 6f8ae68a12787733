#pragma once
// --backend auto|gpu|cpu, shared by every app: auto runs on the GPU when one is usable and the
// graph is large enough for the GPU to finish first (backend_rule.hpp), else on
// SuiteSparse:GraphBLAS; the app prints which one ran and why.
#include <CLI/CLI.hpp>

#include <string>

#include "spgraph/algorithms/backend.hpp"
#include "spgraph/error.hpp"

namespace spgraph::apps {

enum class BackendChoice { Auto, Gpu, Cpu };

// Adds --backend (default auto) to cli, writing into choice, and --grid (mpi_job.hpp).
CLI::Option* add_backend_option(CLI::App& cli, BackendChoice& choice);

struct SelectedBackend {
  algorithms::Backend backend = algorithms::Backend::Cpu;
  // What runs, for the app's "backend: ..." line: "gpu (NVIDIA H200 (sm_90, 139.8 GiB))",
  // "cpu (SuiteSparse:GraphBLAS 7.4.0, 16 threads; no NVIDIA driver found)", the reason
  // device::gpu_available gave where no GPU was usable.
  std::string description;
  // Why --backend auto chose by the graph's size, for the line's end: "183,831 links is below
  // pagerank's GPU threshold of 8,000,000". Empty otherwise.
  std::string why_chosen;
};

// Runs f() on the selected backend; a ResourceError from the GPU (or a GPU rank) gets the hint
// that the graph (the rank's block) does not fit it and that --backend cpu runs it on the CPU.
template <class F>
auto run_on(const SelectedBackend& selected, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const ResourceError& e) {
    if (selected.backend == algorithms::Backend::Gpu)
      throw ResourceError(std::string(e.what()) + "; the graph does not fit the GPU (--backend cpu runs it on the CPU)");
    if (selected.backend == algorithms::Backend::DistributedGpu)
      throw ResourceError(std::string(e.what()) +
                          "; this rank's block does not fit its GPU (more ranks cut it smaller; --backend cpu runs on "
                          "the CPUs)");
    throw;
  }
}

// The app's first line: "backend: <what runs>", with ", chosen by --backend auto" where the
// choice was automatic, and ": <why_chosen>" after it where the size decided.
void print_backend(const SelectedBackend& selected, BackendChoice choice);

// Resolves the choice against the machine (Auto: the GPU whenever one is usable; the size
// rule is start_and_load.hpp's). Gpu without a usable GPU throws spgraph::Error saying why
// (and that --backend cpu or auto runs without one).
SelectedBackend select_backend(BackendChoice choice);

}  // namespace spgraph::apps
