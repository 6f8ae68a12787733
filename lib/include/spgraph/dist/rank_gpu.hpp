#pragma once
// The GPU of each rank of a job on GPU ranks (dist::GpuBackend, and NcclCommunicator): one GPU a
// rank, the rank's index among the job's ranks on its host. Built where both MPI and the GPU
// backend are.
#include <string>

#include "spgraph/dist/mpi_communicator.hpp"

namespace spgraph::dist {

// This rank's GPU: its index among the job's ranks on its host (the launcher's
// OMPI_COMM_WORLD_LOCAL_RANK, or MPI's shared-memory split of `host` when no launcher says).
// Throws Error when this rank has no usable GPU, or its host fewer GPUs than ranks, naming both
// counts. Collective over `host` (the split) when the environment does not say.
int device_for_local_rank(const MpiCommunicator& host);

// Every rank's GPU, agreed by all (collective over `world`): on success this rank's device is
// set (cudaSetDevice) and returned. Where any rank has none, nothing is set and every rank
// returns -1 with *why the first such rank's reason ("rank 2: ...").
int start_gpu_ranks(const MpiCommunicator& world, std::string* why);

}  // namespace spgraph::dist
