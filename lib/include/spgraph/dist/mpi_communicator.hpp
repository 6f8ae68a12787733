#pragma once
// The Communicator of CPU ranks: MPI collectives on host buffers (see communicator.hpp for the
// contract). Every call has finished when it returns.
//
// Large transfers: MPI (3.1, OpenMPI 4) counts and displacements are int. A call whose counts
// or displacements pass Options::max_message is carried by several MPI calls: allreduce and
// broadcast in pieces; allgatherv by a broadcast per rank, reduce_scatter_v by a reduce per
// rank, alltoallv by nonblocking sends and receives, each in pieces. Every rank takes the same
// path: for alltoallv, where each rank knows only its own counts, that costs one small
// MPI_Allreduce per call to agree on it.
#include <cstdint>
#include <limits>
#include <memory>

#include "spgraph/dist/communicator.hpp"

namespace spgraph::dist {

struct MpiOptions {
  // The most elements one MPI call carries, count or displacement; the same on every rank.
  // Tests lower it to run the paths of large transfers on small data.
  std::int64_t max_message = std::numeric_limits<int>::max();
};

class MpiCommunicator final : public Communicator {
 public:
  using Options = MpiOptions;

  // Collective over MPI_COMM_WORLD: a duplicate of it, so this communicator's messages never
  // match those of other code on the world communicator. MPI must be running (MpiSession).
  static std::unique_ptr<MpiCommunicator> world(Options options = {});

  ~MpiCommunicator() override;

  // Collective: a duplicate of this communicator (same ranks, separate messages).
  std::unique_ptr<MpiCommunicator> duplicate() const;
  // split() with the type kept: the NCCL communicator keeps its host twin split alike.
  std::unique_ptr<MpiCommunicator> split_mpi(int color, int key) const;

  const Options& options() const;

  int rank() const override;
  int size() const override;
  MemorySpace memory() const override { return MemorySpace::Host; }
  void barrier() override;
  void synchronize() override {}
  std::unique_ptr<Communicator> split(int color, int key) override { return split_mpi(color, key); }

  struct Impl;  // the MPI_Comm and options (lib/src/dist/mpi_comm_impl.hpp)
  explicit MpiCommunicator(std::unique_ptr<Impl> impl);
  const Impl& impl() const { return *impl_; }

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
