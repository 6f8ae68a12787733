#pragma once
// The Communicator of GPU ranks: NCCL collectives on device buffers (see communicator.hpp for
// the contract), one GPU a rank. MPI launches the ranks and bootstraps NCCL: rank 0 makes the
// ncclUniqueId, MPI broadcasts it, every rank calls ncclCommInitRank. Our MPIs are not
// CUDA-aware, so device data moves only here.
//
// Operations are enqueued on stream() and return; work later on that stream sees the result,
// the host after synchronize(). How each is carried:
// - allreduce, broadcast, allgather, reduce_scatter: NCCL's collectives;
// - allgatherv: a grouped ncclBroadcast from each rank (ncclAllGather when the parts are equal
//   and in rank order); reduce_scatter_v: a grouped ncclReduce onto each rank
//   (ncclReduceScatter when the counts are equal);
// - alltoall and alltoallv: grouped ncclSend/ncclRecv (ncclGroupStart/End), the rank's own
//   block by a device copy;
// - the ops NCCL lacks (logical and bitwise on integers, bxor on bool): the blocks exchanged by
//   grouped send/receive, reduced by a kernel, and for allreduce gathered again, the same bytes
//   moved as a ring allreduce.
//
// Built only where NCCL is found (SPGRAPH_WITH_NCCL); this header needs no nccl.h.
#include <cuda_runtime_api.h>

#include <memory>

#include "spgraph/dist/communicator.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/dist/rank_gpu.hpp"  // device_for_local_rank

namespace spgraph::dist {

struct NcclOptions {
  int device = -1;                // -1: device_for_local_rank(host)
  cudaStream_t stream = nullptr;  // nullptr: a non-blocking stream of its own
};

class NcclCommunicator final : public Communicator {
 public:
  using Options = NcclOptions;

  // Collective over `host`: sets this rank's device (cudaSetDevice), bootstraps NCCL over a
  // duplicate of `host`. The NCCL ranks are host's ranks, in its order.
  explicit NcclCommunicator(const MpiCommunicator& host, Options options = {});
  // ncclCommFinalize and ncclCommDestroy; ncclCommAbort instead while an exception unwinds
  // (the rank is failing, and finalising would wait for the others).
  ~NcclCommunicator() override;

  int device() const;
  cudaStream_t stream() const;
  // The MPI communicator of the same ranks in the same order, for host data that goes with the
  // device data (counts before an alltoallv). Split with this one.
  MpiCommunicator& host() const;

  int rank() const override;
  int size() const override;
  MemorySpace memory() const override { return MemorySpace::Device; }
  void barrier() override;  // drains the stream, then an MPI barrier
  void synchronize() override;
  // ncclCommSplit, with the host twin split alike; the part shares this one's stream.
  std::unique_ptr<Communicator> split(int color, int key) override;

  struct Impl;  // lib/src/dist/nccl_communicator.cpp
  explicit NcclCommunicator(std::unique_ptr<Impl> impl);

 protected:
  void do_allreduce(const void* send, void* recv, std::int64_t count, DataType type, ReduceOp op) override;
  void do_broadcast(void* buffer, std::int64_t count, DataType type, int root) override;
  void do_allgather(const void* send, void* recv, std::int64_t count, DataType type) override;
  void do_allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                     std::span<const std::int64_t> displs, DataType type) override;
  void do_reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type,
                         ReduceOp op) override;
  void do_reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                           DataType type, ReduceOp op) override;
  void do_alltoall(const void* send, void* recv, std::int64_t count, DataType type) override;
  void do_alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                    std::span<const std::int64_t> send_displs, void* recv,
                    std::span<const std::int64_t> recv_counts, std::span<const std::int64_t> recv_displs,
                    DataType type) override;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace spgraph::dist
