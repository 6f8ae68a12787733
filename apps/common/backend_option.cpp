#include "backend_option.hpp"

#include <cstdio>

#include "choice_option.hpp"
#include "mpi_job.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graphblas/matrix.hpp"

namespace spgraph::apps {

CLI::Option* add_backend_option(CLI::App& cli, BackendChoice& choice) {
  mpi_job().add_grid_option(cli);  // every app that picks a backend also runs under mpirun
  return add_choice(cli, "--backend", choice,
                    {{"auto", BackendChoice::Auto}, {"gpu", BackendChoice::Gpu}, {"cpu", BackendChoice::Cpu}},
                    "where to run: gpu (this project's CUDA kernels), cpu (SuiteSparse:GraphBLAS), or auto (the "
                    "GPU when one is usable and the graph has at least this app's threshold of links, where the GPU "
                    "finishes first; SPGRAPH_GPU_THRESHOLD=LINKS sets it; else the CPU; under mpirun, GPU ranks "
                    "when every rank has a GPU of its own, else CPU ranks); the backend that ran and why are "
                    "printed");
}

SelectedBackend select_backend(BackendChoice choice) {
  SelectedBackend selected;
  if (choice == BackendChoice::Cpu) {
    selected.description = graphblas::description() + ")";
    return selected;
  }
  std::string why;
  if (device::gpu_available(&why)) {
    selected.backend = algorithms::Backend::Gpu;
    selected.description = "gpu (" + device::device_description() + ")";
    return selected;
  }
  if (choice == BackendChoice::Gpu)
    throw Error("--backend gpu: no usable GPU: " + why + " (--backend cpu or auto runs on the CPU)");
  // why is a plain statement ("no NVIDIA driver found"): with ", chosen by --backend auto"
  // after it, the line says why the CPU runs.
  selected.description = graphblas::description() + "; " + why + ")";
  return selected;
}

void print_backend(const SelectedBackend& selected, BackendChoice choice) {
  std::string how;
  if (choice == BackendChoice::Auto)
    how = ", chosen by --backend auto" + (selected.why_chosen.empty() ? "" : ": " + selected.why_chosen);
  std::printf("backend: %s%s\n", selected.description.c_str(), how.c_str());
}

}  // namespace spgraph::apps
