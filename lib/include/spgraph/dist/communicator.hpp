#pragma once
// The collectives the distributed backend is written on (issue 42): one interface, two
// implementations. MpiCommunicator (mpi_communicator.hpp) moves host buffers, for CPU ranks and
// CI; NcclCommunicator (nccl_communicator.hpp) moves device buffers, for GPU ranks.
//
// An abstract class rather than a concept, because:
// - which one a rank uses is decided at run time (under mpirun, by whether it has a GPU), and
//   a split returns a communicator of the same kind without its type leaking into every caller;
// - the distributed containers and the process grid hold one without becoming templates on it;
// - a virtual call costs nanoseconds, a collective microseconds at the very least.
// The typed front below (inline templates) maps each element type to a DataType tag, so the
// virtual surface stays untyped and small, and a buffer of an unsupported type does not compile.
//
// Contract, as in MPI and NCCL:
// - Every rank of the communicator calls the same operations in the same order, with matching
//   arguments (the same count, root, op; counts that agree between senders and receivers).
// - Buffers live in memory(): host memory for MPI, the communicator's GPU for NCCL.
// - Host communicators have finished when a call returns. Device communicators enqueue the
//   operation on their stream and return: later work on that stream sees the result, the host
//   after synchronize().
// - Counts and displacements are in elements and 64-bit; implementations split calls that pass
//   what one MPI call can carry (int counts).
// - In place: allreduce with send == recv; allgather with send == recv + rank * count;
//   allgatherv with send == recv + displs[rank]; broadcast always. Otherwise send and receive
//   buffers must not overlap.
// - Arguments that cannot be right (a negative count, a root outside the communicator, an op
//   the type does not have, a counts array of the wrong length) throw spgraph::Error before
//   anything is sent, on every rank that passes them. A failure of MPI, NCCL or CUDA throws
//   spgraph::Error naming the call, file and line; dist::run_or_abort (mpi_session.hpp) turns
//   it into the end of the whole job.
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

namespace spgraph::dist {

// The element types collectives carry: those of the value types spgraph instantiates (float,
// double, int32, int64, bool), 64-bit words for bit-parallel frontiers, and the other integer
// widths that cost nothing to add. bool is one byte holding 0 or 1.
enum class DataType : std::uint8_t { Bool, Int8, UInt8, Int32, UInt32, Int64, UInt64, Float32, Float64 };

// The DataType of T, by kind and width (so long and long long both map to Int64).
template <class T>
consteval DataType data_type_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    static_assert(sizeof(bool) == 1, "collectives carry bool as one byte");
    return DataType::Bool;
  } else if constexpr (std::is_same_v<U, float>) {
    return DataType::Float32;
  } else if constexpr (std::is_same_v<U, double>) {
    return DataType::Float64;
  } else if constexpr (std::is_integral_v<U> && sizeof(U) == 1) {
    return std::is_signed_v<U> ? DataType::Int8 : DataType::UInt8;
  } else if constexpr (std::is_integral_v<U> && sizeof(U) == 4) {
    return std::is_signed_v<U> ? DataType::Int32 : DataType::UInt32;
  } else if constexpr (std::is_integral_v<U> && sizeof(U) == 8) {
    return std::is_signed_v<U> ? DataType::Int64 : DataType::UInt64;
  } else {
    static_assert(sizeof(U) == 0, "collectives carry bool, 8/32/64-bit integers, float and double");
  }
}

std::size_t size_of(DataType type);
const char* name_of(DataType type);  // "int64", "float32", ...

// Reductions. Logical ones give 1 or 0 (as MPI's MPI_LOR); bitwise ones act on each bit.
enum class ReduceOp : std::uint8_t { Sum, Prod, Min, Max, LogicalOr, LogicalAnd, BitOr, BitAnd, BitXor };

const char* name_of(ReduceOp op);  // "sum", "bor", ...
// Which ops a type has: floats sum, prod, min and max; integers all; bool all but sum and prod
// (they would not stay 0 or 1).
bool defined_on(ReduceOp op, DataType type);

enum class MemorySpace : std::uint8_t { Host, Device };

enum class Collective : std::uint8_t {
  Allreduce, Broadcast, Allgather, Allgatherv, ReduceScatter, ReduceScatterV, Alltoall, Alltoallv
};
inline constexpr int kCollectives = 8;
const char* name_of(Collective c);  // "allreduce", "reduce_scatter_v", ...

// What a communicator's collectives cost this rank, for benchmarks (bench_scaling): per
// collective, the calls, the bytes other ranks' data brought into this rank (a broadcast's
// root, and a communicator of one rank, receive none; a reduction counts each other rank's
// contribution), and the seconds in the call. A device communicator's call only enqueues, so
// its seconds are the enqueueing unless waits are measured. With measure_waits on, every
// collective first waits at a barrier, whose seconds are waiting_seconds (the ranks arriving
// at different times), and then, on a device communicator, for its own completion: the
// collective's seconds are then the transfer alone. That changes the timing, so it is for
// runs that measure the split, not for the timed ones.
struct CollectiveCost {
  std::int64_t calls = 0;
  std::int64_t bytes = 0;
  double seconds = 0;
  CollectiveCost& operator+=(const CollectiveCost& o) {
    calls += o.calls;
    bytes += o.bytes;
    seconds += o.seconds;
    return *this;
  }
};
struct Traffic {
  CollectiveCost by_collective[kCollectives];
  double waiting_seconds = 0;
  Traffic& operator+=(const Traffic& o);
  CollectiveCost total() const;
};

class Communicator {
 public:
  // split(): the color of a rank that joins no group; it gets nullptr.
  static constexpr int kNoColor = -1;

  Communicator() = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual MemorySpace memory() const = 0;

  // Returns when every rank has entered it (device communicators first drain their stream).
  virtual void barrier() = 0;
  // Waits for what this rank has enqueued (a no-op for host communicators).
  virtual void synchronize() = 0;

  // Collective: the ranks that pass the same color form a new communicator of the same kind,
  // ordered by key, ties by rank here. kNoColor joins none and returns nullptr.
  virtual std::unique_ptr<Communicator> split(int color, int key) = 0;

  // What this communicator's collectives have cost since it was made or reset (Traffic).
  const Traffic& traffic() const { return traffic_; }
  void reset_traffic() { traffic_ = Traffic{}; }
  void measure_waits(bool on) { measure_waits_ = on; }

  // recv[i] = op over ranks of send[i], on every rank.
  template <class T>
  void allreduce(const T* send, T* recv, std::int64_t count, ReduceOp op) {
    allreduce(send, recv, count, data_type_of<T>(), op);
  }
  // buffer[0, count) of `root` to every rank.
  template <class T>
  void broadcast(T* buffer, std::int64_t count, int root) {
    broadcast(buffer, count, data_type_of<T>(), root);
  }
  // recv[r * count, (r+1) * count) = send of rank r.
  template <class T>
  void allgather(const T* send, T* recv, std::int64_t count) {
    allgather(send, recv, count, data_type_of<T>());
  }
  // recv[displs[r], displs[r] + counts[r]) = send[0, counts[r]) of rank r (counts and displs
  // the same on every rank, size() long).
  template <class T>
  void allgatherv(const T* send, T* recv, std::span<const std::int64_t> counts,
                  std::span<const std::int64_t> displs) {
    allgatherv(send, recv, counts, displs, data_type_of<T>());
  }
  // send holds size() blocks of count; rank r gets recv[i] = op over ranks of block r's [i].
  template <class T>
  void reduce_scatter(const T* send, T* recv, std::int64_t count, ReduceOp op) {
    reduce_scatter(send, recv, count, data_type_of<T>(), op);
  }
  // As reduce_scatter with blocks of counts[r] laid one after another in rank order (counts the
  // same on every rank); rank r's recv holds counts[r].
  template <class T>
  void reduce_scatter_v(const T* send, T* recv, std::span<const std::int64_t> counts, ReduceOp op) {
    reduce_scatter_v(send, recv, counts, data_type_of<T>(), op);
  }
  // Block r of send (count elements at r * count) goes to rank r, into its block for this rank.
  template <class T>
  void alltoall(const T* send, T* recv, std::int64_t count) {
    alltoall(send, recv, count, data_type_of<T>());
  }
  // send[send_displs[r], + send_counts[r]) goes to rank r, which receives it at
  // recv[recv_displs[q], + recv_counts[q]) for this rank q. Rank q's send_counts[r] must equal
  // rank r's recv_counts[q] (exchange the counts first, with alltoall, when they are not known).
  template <class T>
  void alltoallv(const T* send, std::span<const std::int64_t> send_counts,
                 std::span<const std::int64_t> send_displs, T* recv,
                 std::span<const std::int64_t> recv_counts, std::span<const std::int64_t> recv_displs) {
    alltoallv(send, send_counts, send_displs, recv, recv_counts, recv_displs, data_type_of<T>());
  }

  // The same operations on untyped buffers, for callers that hold a DataType at run time. They
  // check the arguments (see the contract above) and call the implementation.
  void allreduce(const void* send, void* recv, std::int64_t count, DataType type, ReduceOp op);
  void broadcast(void* buffer, std::int64_t count, DataType type, int root);
  void allgather(const void* send, void* recv, std::int64_t count, DataType type);
  void allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                  std::span<const std::int64_t> displs, DataType type);
  void reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type, ReduceOp op);
  void reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                        DataType type, ReduceOp op);
  void alltoall(const void* send, void* recv, std::int64_t count, DataType type);
  void alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                 std::span<const std::int64_t> send_displs, void* recv,
                 std::span<const std::int64_t> recv_counts, std::span<const std::int64_t> recv_displs,
                 DataType type);

 private:
  // op(), counted as collective c bringing `bytes` into this rank.
  template <class Op>
  void counted(Collective c, std::int64_t bytes, Op&& op);

  Traffic traffic_;
  bool measure_waits_ = false;

 protected:
  // The implementations, called with arguments already checked.
  virtual void do_allreduce(const void* send, void* recv, std::int64_t count, DataType type, ReduceOp op) = 0;
  virtual void do_broadcast(void* buffer, std::int64_t count, DataType type, int root) = 0;
  virtual void do_allgather(const void* send, void* recv, std::int64_t count, DataType type) = 0;
  virtual void do_allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                             std::span<const std::int64_t> displs, DataType type) = 0;
  virtual void do_reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type,
                                 ReduceOp op) = 0;
  virtual void do_reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                                   DataType type, ReduceOp op) = 0;
  virtual void do_alltoall(const void* send, void* recv, std::int64_t count, DataType type) = 0;
  virtual void do_alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                            std::span<const std::int64_t> send_displs, void* recv,
                            std::span<const std::int64_t> recv_counts,
                            std::span<const std::int64_t> recv_displs, DataType type) = 0;
};

}  // namespace spgraph::dist
