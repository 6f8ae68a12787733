#include "spgraph/dist/nccl_communicator.hpp"

#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "dist/mpi_check.hpp"
#include "dist/mpi_comm_impl.hpp"
#include "dist/mpi_first_failure.hpp"
#include "dist/nccl_check.hpp"
#include "dist/nccl_reduce_parts.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/dist/rank_gpu.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {

using StreamHandle = std::shared_ptr<CUstream_st>;  // owned streams are shared with split parts

struct NcclCommunicator::Impl {
  std::unique_ptr<MpiCommunicator> host;
  ncclComm_t comm = nullptr;
  int device = -1;
  cudaStream_t stream = nullptr;
  StreamHandle owned_stream;
  int rank = 0;
  int size = 1;
  int exceptions_at_start = std::uncaught_exceptions();

  ~Impl() {
    if (comm == nullptr) return;
    if (std::uncaught_exceptions() > exceptions_at_start) {
      ncclCommAbort(comm);  // local: the other ranks may be stuck and never finalise with us
      return;
    }
    // Destructors cannot throw: a failure here is reported and the communicator abandoned.
    const bool drained = cudaStreamSynchronize(stream) == cudaSuccess;
    if (drained && ncclCommFinalize(comm) == ncclSuccess && ncclCommDestroy(comm) == ncclSuccess) return;
    std::fprintf(stderr, "warning: NcclCommunicator: rank %d could not finalise its NCCL communicator: %s\n",
                 rank, ncclGetLastError(nullptr));
    ncclCommAbort(comm);
  }
};

namespace {

ncclDataType_t nccl_type(DataType type) {
  switch (type) {
    case DataType::Bool: return ncclUint8;
    case DataType::Int8: return ncclInt8;
    case DataType::UInt8: return ncclUint8;
    case DataType::Int32: return ncclInt32;
    case DataType::UInt32: return ncclUint32;
    case DataType::Int64: return ncclInt64;
    case DataType::UInt64: return ncclUint64;
    case DataType::Float32: return ncclFloat32;
    case DataType::Float64: return ncclFloat64;
  }
  throw Error("NcclCommunicator: unknown DataType");
}

// For the (op, type) pairs nccl_has_op accepts.
ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return ncclSum;
    case ReduceOp::Prod: return ncclProd;
    case ReduceOp::Min:
    case ReduceOp::LogicalAnd:
    case ReduceOp::BitAnd: return ncclMin;  // on bool's 0/1 bytes
    case ReduceOp::Max:
    case ReduceOp::LogicalOr:
    case ReduceOp::BitOr: return ncclMax;
    case ReduceOp::BitXor: break;
  }
  throw Error(std::string("NcclCommunicator: NCCL has no ") + name_of(op));
}

char* at(void* p, std::int64_t i, DataType type) {
  return static_cast<char*>(p) + i * static_cast<std::int64_t>(size_of(type));
}
const char* at(const void* p, std::int64_t i, DataType type) {
  return static_cast<const char*>(p) + i * static_cast<std::int64_t>(size_of(type));
}
std::size_t bytes(std::int64_t count, DataType type) { return static_cast<std::size_t>(count) * size_of(type); }

// Whether counts are all equal and displs put them one after another in rank order: the layout
// of NCCL's own allgather and reduce-scatter.
bool uniform(std::span<const std::int64_t> counts, std::span<const std::int64_t> displs) {
  for (std::size_t r = 0; r < counts.size(); ++r)
    if (counts[r] != counts[0] || displs[r] != static_cast<std::int64_t>(r) * counts[0]) return false;
  return true;
}

std::vector<std::int64_t> prefix_displs(std::span<const std::int64_t> counts) {
  std::vector<std::int64_t> displs(counts.size());
  std::int64_t offset = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displs[r] = offset;
    offset += counts[r];
  }
  return displs;
}

// ncclGroupStart .. ncclGroupEnd; the group is closed also when a call inside it throws.
class Group {
 public:
  Group() { SPGRAPH_NCCL(ncclGroupStart()); }
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  ~Group() {
    if (open_) ncclGroupEnd();
  }
  void end() {
    open_ = false;
    SPGRAPH_NCCL(ncclGroupEnd());
  }

 private:
  bool open_ = true;
};

MPI_Comm mpi(const MpiCommunicator& c) { return c.impl().comm; }

// Every rank learns whether any rank failed to prepare (`why` non-empty there); all then throw
// the first failing rank's message, so none is left waiting for the others in NCCL's bootstrap.
void agree_or_throw(const MpiCommunicator& host, const std::string& why) {
  const FirstFailure first = first_failure(host, why);
  if (first.rank < 0) return;
  if (host.rank() == first.rank) throw Error(why);
  throw Error("NcclCommunicator: not started, because rank " + std::to_string(first.rank) + " failed: " + first.why);
}

}  // namespace

NcclCommunicator::NcclCommunicator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

NcclCommunicator::NcclCommunicator(const MpiCommunicator& host, Options options)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.host = host.duplicate();
  s.rank = s.host->rank();
  s.size = s.host->size();
  std::string why;
  try {
    s.device = options.device >= 0 ? options.device : device_for_local_rank(*s.host);
    SPGRAPH_CUDA(cudaSetDevice(s.device));
    if (options.stream != nullptr) {
      s.stream = options.stream;
    } else {
      cudaStream_t created = nullptr;
      SPGRAPH_CUDA(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
      s.owned_stream = StreamHandle(created, [](cudaStream_t st) { cudaStreamDestroy(st); });
      s.stream = created;
    }
  } catch (const std::exception& e) {
    why = e.what();
  }
  agree_or_throw(*s.host, why);

  ncclUniqueId id;
  std::memset(&id, 0, sizeof id);
  if (s.rank == 0) SPGRAPH_NCCL(ncclGetUniqueId(&id));
  SPGRAPH_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi(*s.host)));
  SPGRAPH_NCCL(ncclCommInitRank(&s.comm, s.size, id, s.rank));
}

NcclCommunicator::~NcclCommunicator() = default;

int NcclCommunicator::device() const { return impl_->device; }
cudaStream_t NcclCommunicator::stream() const { return impl_->stream; }
MpiCommunicator& NcclCommunicator::host() const { return *impl_->host; }
int NcclCommunicator::rank() const { return impl_->rank; }
int NcclCommunicator::size() const { return impl_->size; }

void NcclCommunicator::synchronize() { SPGRAPH_CUDA(cudaStreamSynchronize(impl_->stream)); }

void NcclCommunicator::barrier() {
  synchronize();
  impl_->host->barrier();
}

std::unique_ptr<Communicator> NcclCommunicator::split(int color, int key) {
  std::unique_ptr<MpiCommunicator> host_part = impl_->host->split_mpi(color, key);  // checks color
  ncclComm_t part = nullptr;
  SPGRAPH_NCCL(ncclCommSplit(impl_->comm, color == kNoColor ? NCCL_SPLIT_NOCOLOR : color, key, &part, nullptr));
  if (!host_part) return nullptr;
  auto s = std::make_unique<Impl>();
  s->host = std::move(host_part);
  s->comm = part;
  s->device = impl_->device;
  s->stream = impl_->stream;
  s->owned_stream = impl_->owned_stream;
  s->rank = s->host->rank();
  s->size = s->host->size();
  int nccl_rank = -1;
  SPGRAPH_NCCL(ncclCommUserRank(part, &nccl_rank));
  if (nccl_rank != s->rank)  // both order by key, then by rank in the parent
    throw Error("NcclCommunicator::split: NCCL made this rank " + std::to_string(nccl_rank) + ", MPI " +
                std::to_string(s->rank));
  return std::make_unique<NcclCommunicator>(std::move(s));
}

// ---- the collectives ----------------------------------------------------------------------

namespace {

// Rank `me` reduces block `me` of every rank's send (blocks at displs, counts long) into recv,
// for the ops NCCL lacks: the blocks exchanged by grouped send/receive into one buffer of
// size() parts, then reduce_parts.
void exchange_and_reduce(ncclComm_t comm, cudaStream_t stream, int me, int size, const void* send, void* recv,
                         std::span<const std::int64_t> counts, std::span<const std::int64_t> displs,
                         DataType type, ReduceOp op) {
  const std::int64_t mine = counts[me];
  device::Buffer<char> parts(bytes(mine * size, type), stream);
  if (mine > 0)
    SPGRAPH_CUDA(cudaMemcpyAsync(at(parts.data(), me * mine, type), at(send, displs[me], type), bytes(mine, type),
                                 cudaMemcpyDeviceToDevice, stream));
  Group group;
  for (int r = 0; r < size; ++r) {
    if (r == me) continue;
    if (counts[r] > 0)
      SPGRAPH_NCCL(ncclSend(at(send, displs[r], type), static_cast<std::size_t>(counts[r]), nccl_type(type), r,
                            comm, stream));
    if (mine > 0)
      SPGRAPH_NCCL(ncclRecv(at(parts.data(), r * mine, type), static_cast<std::size_t>(mine), nccl_type(type), r,
                            comm, stream));
  }
  group.end();
  reduce_parts(parts.data(), recv, mine, size, type, op, stream);
}

}  // namespace

void NcclCommunicator::do_allreduce(const void* send, void* recv, std::int64_t count, DataType type,
                                    ReduceOp op) {
  if (count == 0) return;
  Impl& s = *impl_;
  if (nccl_has_op(op, type)) {
    SPGRAPH_NCCL(ncclAllReduce(send, recv, static_cast<std::size_t>(count), nccl_type(type), nccl_op(op), s.comm,
                               s.stream));
    return;
  }
  // As a ring allreduce moves it: reduce-scatter into even blocks, then allgather them.
  std::vector<std::int64_t> counts(s.size), displs(s.size);
  for (int r = 0; r < s.size; ++r) {
    const BlockRange b = block_range(count, s.size, r);
    counts[r] = b.size();
    displs[r] = b.begin;
  }
  exchange_and_reduce(s.comm, s.stream, s.rank, s.size, send, at(recv, displs[s.rank], type), counts, displs, type, op);
  do_allgatherv(at(recv, displs[s.rank], type), recv, counts, displs, type);
}

void NcclCommunicator::do_broadcast(void* buffer, std::int64_t count, DataType type, int root) {
  if (count == 0) return;
  SPGRAPH_NCCL(ncclBroadcast(buffer, buffer, static_cast<std::size_t>(count), nccl_type(type), root, impl_->comm,
                             impl_->stream));
}

void NcclCommunicator::do_allgather(const void* send, void* recv, std::int64_t count, DataType type) {
  if (count == 0) return;
  SPGRAPH_NCCL(ncclAllGather(send, recv, static_cast<std::size_t>(count), nccl_type(type), impl_->comm,
                             impl_->stream));
}

void NcclCommunicator::do_allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                                     std::span<const std::int64_t> displs, DataType type) {
  Impl& s = *impl_;
  if (uniform(counts, displs)) return do_allgather(send, recv, counts[0], type);
  Group group;
  for (int root = 0; root < s.size; ++root) {
    if (counts[root] == 0) continue;
    void* part = at(recv, displs[root], type);
    SPGRAPH_NCCL(ncclBroadcast(root == s.rank ? send : part, part, static_cast<std::size_t>(counts[root]),
                               nccl_type(type), root, s.comm, s.stream));
  }
  group.end();
}

void NcclCommunicator::do_reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type,
                                         ReduceOp op) {
  if (count == 0) return;
  Impl& s = *impl_;
  if (nccl_has_op(op, type)) {
    SPGRAPH_NCCL(ncclReduceScatter(send, recv, static_cast<std::size_t>(count), nccl_type(type), nccl_op(op), s.comm,
                                   s.stream));
    return;
  }
  const std::vector<std::int64_t> counts(s.size, count);
  exchange_and_reduce(s.comm, s.stream, s.rank, s.size, send, recv, counts, prefix_displs(counts), type, op);
}

void NcclCommunicator::do_reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                                           DataType type, ReduceOp op) {
  Impl& s = *impl_;
  const std::vector<std::int64_t> displs = prefix_displs(counts);
  if (!nccl_has_op(op, type))
    return exchange_and_reduce(s.comm, s.stream, s.rank, s.size, send, recv, counts, displs, type, op);
  if (uniform(counts, displs)) return do_reduce_scatter(send, recv, counts[0], type, op);
  Group group;
  for (int root = 0; root < s.size; ++root) {
    if (counts[root] == 0) continue;
    const void* block = at(send, displs[root], type);
    // Only the root's receive buffer is written; others pass their block, a valid pointer.
    void* target = root == s.rank ? recv : const_cast<void*>(block);
    SPGRAPH_NCCL(ncclReduce(block, target, static_cast<std::size_t>(counts[root]), nccl_type(type), nccl_op(op),
                            root, s.comm, s.stream));
  }
  group.end();
}

void NcclCommunicator::do_alltoall(const void* send, void* recv, std::int64_t count, DataType type) {
  const std::vector<std::int64_t> counts(impl_->size, count);
  const std::vector<std::int64_t> displs = prefix_displs(counts);
  do_alltoallv(send, counts, displs, recv, counts, displs, type);
}

void NcclCommunicator::do_alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                                    std::span<const std::int64_t> send_displs, void* recv,
                                    std::span<const std::int64_t> recv_counts,
                                    std::span<const std::int64_t> recv_displs, DataType type) {
  Impl& s = *impl_;
  const int me = s.rank;
  if (send_counts[me] != recv_counts[me])
    throw Error("dist::Communicator::alltoallv: rank " + std::to_string(me) + " sends itself " +
                std::to_string(send_counts[me]) + " elements but receives " + std::to_string(recv_counts[me]));
  if (send_counts[me] > 0)
    SPGRAPH_CUDA(cudaMemcpyAsync(at(recv, recv_displs[me], type), at(send, send_displs[me], type),
                                 bytes(send_counts[me], type), cudaMemcpyDeviceToDevice, s.stream));
  // Empty blocks are skipped on both sides (rank q's send count to r is r's receive count from
  // q), so the group holds at most 2 (size - 1) calls.
  Group group;
  for (int r = 0; r < s.size; ++r) {
    if (r == me) continue;
    if (send_counts[r] > 0)
      SPGRAPH_NCCL(ncclSend(at(send, send_displs[r], type), static_cast<std::size_t>(send_counts[r]),
                            nccl_type(type), r, s.comm, s.stream));
    if (recv_counts[r] > 0)
      SPGRAPH_NCCL(ncclRecv(at(recv, recv_displs[r], type), static_cast<std::size_t>(recv_counts[r]),
                            nccl_type(type), r, s.comm, s.stream));
  }
  group.end();
}

}  // namespace spgraph::dist
