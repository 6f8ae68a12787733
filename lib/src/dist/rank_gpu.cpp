// Which GPU each rank of a job uses (spgraph/dist/rank_gpu.hpp).
#include "spgraph/dist/rank_gpu.hpp"

#include <mpi.h>

#include <exception>

#include "dist/mpi_check.hpp"
#include "dist/mpi_comm_impl.hpp"
#include "dist/mpi_first_failure.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {

int device_for_local_rank(const MpiCommunicator& host) {
  int local = local_rank_from_environment();
  if (local < 0) {  // no launcher said: the ranks that share this host's memory
    MPI_Comm node = MPI_COMM_NULL;
    SPGRAPH_MPI(MPI_Comm_split_type(host.impl().comm, MPI_COMM_TYPE_SHARED, host.rank(), MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
  }
  std::string why;
  if (!device::gpu_available(&why))
    throw Error("rank " + std::to_string(host.rank()) + " has no usable GPU: " + why);
  int count = 0;
  SPGRAPH_CUDA(cudaGetDeviceCount(&count));
  if (local >= count)
    throw Error("rank " + std::to_string(host.rank()) + " is rank " + std::to_string(local) + " on its host, which has " +
                std::to_string(count) + " GPU(s); GPU ranks need a GPU each (run at most " + std::to_string(count) +
                " ranks a host)");
  return local;
}

int start_gpu_ranks(const MpiCommunicator& world, std::string* why) {
  std::string mine;
  int device = -1;
  try {
    device = device_for_local_rank(world);
  } catch (const std::exception& e) {
    mine = e.what();
  }
  const FirstFailure first = first_failure(world, mine);
  if (first.rank >= 0) {
    if (why) *why = first.why;
    return -1;
  }
  SPGRAPH_CUDA(cudaSetDevice(device));
  return device;
}

}  // namespace spgraph::dist
