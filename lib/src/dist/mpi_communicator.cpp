#include "spgraph/dist/mpi_communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "dist/mpi_check.hpp"
#include "dist/mpi_comm_impl.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {
namespace {

MPI_Datatype mpi_type(DataType type) {
  switch (type) {
    case DataType::Bool: return MPI_UINT8_T;  // one byte, 0 or 1: every op defined on bool holds
    case DataType::Int8: return MPI_INT8_T;
    case DataType::UInt8: return MPI_UINT8_T;
    case DataType::Int32: return MPI_INT32_T;
    case DataType::UInt32: return MPI_UINT32_T;
    case DataType::Int64: return MPI_INT64_T;
    case DataType::UInt64: return MPI_UINT64_T;
    case DataType::Float32: return MPI_FLOAT;
    case DataType::Float64: return MPI_DOUBLE;
  }
  throw Error("MpiCommunicator: unknown DataType");
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return MPI_SUM;
    case ReduceOp::Prod: return MPI_PROD;
    case ReduceOp::Min: return MPI_MIN;
    case ReduceOp::Max: return MPI_MAX;
    case ReduceOp::LogicalOr: return MPI_LOR;
    case ReduceOp::LogicalAnd: return MPI_LAND;
    case ReduceOp::BitOr: return MPI_BOR;
    case ReduceOp::BitAnd: return MPI_BAND;
    case ReduceOp::BitXor: return MPI_BXOR;
  }
  throw Error("MpiCommunicator: unknown ReduceOp");
}

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

// Element `i` of a buffer of `type`.
char* at(void* p, std::int64_t i, DataType type) {
  return static_cast<char*>(p) + i * static_cast<std::int64_t>(size_of(type));
}
const char* at(const void* p, std::int64_t i, DataType type) {
  return static_cast<const char*>(p) + i * static_cast<std::int64_t>(size_of(type));
}

// Whether every value fits in one MPI call's int count or displacement.
bool all_fit(std::span<const std::int64_t> values, std::int64_t limit) {
  return std::all_of(values.begin(), values.end(), [&](std::int64_t v) { return v <= limit; });
}
std::vector<int> as_ints(std::span<const std::int64_t> values) {
  return std::vector<int>(values.begin(), values.end());  // callers checked all_fit first
}

// count elements of `type` at `buffer` in calls of at most `limit`: call(offset, n).
template <class Call>
void in_pieces(std::int64_t count, std::int64_t limit, Call call) {
  for (std::int64_t offset = 0; offset < count; offset += limit)
    call(offset, static_cast<int>(std::min(limit, count - offset)));
}

constexpr int kTag = 0;  // the communicator is this object's own: no other message can match

// MPI applies no op when one rank takes part: its values come back as they were. The logical
// ops promise 1 or 0, so a lone rank's results are made so (bool is 0 or 1 already).
template <class T>
void to_truth(void* values, std::int64_t count) {
  T* v = static_cast<T*>(values);
  for (std::int64_t i = 0; i < count; ++i) v[i] = static_cast<T>(v[i] != T(0));
}
void logical_when_alone(int size, void* recv, std::int64_t count, DataType type, ReduceOp op) {
  if (size != 1 || (op != ReduceOp::LogicalOr && op != ReduceOp::LogicalAnd)) return;
  switch (type) {
    case DataType::Int8: return to_truth<std::int8_t>(recv, count);
    case DataType::UInt8: return to_truth<std::uint8_t>(recv, count);
    case DataType::Int32: return to_truth<std::int32_t>(recv, count);
    case DataType::UInt32: return to_truth<std::uint32_t>(recv, count);
    case DataType::Int64: return to_truth<std::int64_t>(recv, count);
    case DataType::UInt64: return to_truth<std::uint64_t>(recv, count);
    default: return;  // bool, and floats (which have no logical ops)
  }
}

}  // namespace

MpiCommunicator::Impl::Impl(MPI_Comm c, Options o)
    : comm(c), options(o), exceptions_at_start(std::uncaught_exceptions()) {
  SPGRAPH_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  SPGRAPH_MPI(MPI_Comm_rank(comm, &rank));
  SPGRAPH_MPI(MPI_Comm_size(comm, &size));
}

MpiCommunicator::Impl::~Impl() {
  if (comm == MPI_COMM_NULL || !mpi_running()) return;
  if (std::uncaught_exceptions() > exceptions_at_start) return;
  MPI_Comm_free(&comm);
}

MpiCommunicator::MpiCommunicator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MpiCommunicator::~MpiCommunicator() = default;

std::unique_ptr<MpiCommunicator> MpiCommunicator::world(Options options) {
  if (!mpi_running())
    throw Error("MpiCommunicator::world: MPI is not running (start it with a dist::MpiSession, "
                "under mpirun)");
  if (options.max_message < 1 || options.max_message > std::numeric_limits<int>::max())
    throw Error("MpiCommunicator: max_message " + std::to_string(options.max_message) +
                " is outside 1 .. 2^31-1");
  MPI_Comm dup = MPI_COMM_NULL;
  SPGRAPH_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  return std::make_unique<MpiCommunicator>(std::make_unique<Impl>(dup, options));
}

std::unique_ptr<MpiCommunicator> MpiCommunicator::duplicate() const {
  MPI_Comm dup = MPI_COMM_NULL;
  SPGRAPH_MPI(MPI_Comm_dup(impl_->comm, &dup));
  return std::make_unique<MpiCommunicator>(std::make_unique<Impl>(dup, impl_->options));
}

std::unique_ptr<MpiCommunicator> MpiCommunicator::split_mpi(int color, int key) const {
  if (color < 0 && color != kNoColor)
    throw Error("dist::Communicator::split: color " + std::to_string(color) +
                " is negative (kNoColor, -1, joins no group)");
  MPI_Comm part = MPI_COMM_NULL;
  SPGRAPH_MPI(MPI_Comm_split(impl_->comm, color == kNoColor ? MPI_UNDEFINED : color, key, &part));
  if (part == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiCommunicator>(std::make_unique<Impl>(part, impl_->options));
}

const MpiCommunicator::Options& MpiCommunicator::options() const { return impl_->options; }
int MpiCommunicator::rank() const { return impl_->rank; }
int MpiCommunicator::size() const { return impl_->size; }

void MpiCommunicator::barrier() { SPGRAPH_MPI(MPI_Barrier(impl_->comm)); }

void MpiCommunicator::do_allreduce(const void* send, void* recv, std::int64_t count, DataType type,
                                   ReduceOp op) {
  const bool in_place = send == recv;
  in_pieces(count, impl_->options.max_message, [&](std::int64_t offset, int n) {
    SPGRAPH_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : at(send, offset, type), at(recv, offset, type), n,
                              mpi_type(type), mpi_op(op), impl_->comm));
  });
  logical_when_alone(impl_->size, recv, count, type, op);
}

void MpiCommunicator::do_broadcast(void* buffer, std::int64_t count, DataType type, int root) {
  in_pieces(count, impl_->options.max_message, [&](std::int64_t offset, int n) {
    SPGRAPH_MPI(MPI_Bcast(at(buffer, offset, type), n, mpi_type(type), root, impl_->comm));
  });
}

void MpiCommunicator::do_allgather(const void* send, void* recv, std::int64_t count, DataType type) {
  const int p = impl_->size;
  if (count <= impl_->options.max_message / p) {  // the whole receive buffer fits one call
    const bool in_place = send == at(recv, impl_->rank * count, type);
    SPGRAPH_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : send, static_cast<int>(count), mpi_type(type), recv,
                              static_cast<int>(count), mpi_type(type), impl_->comm));
    return;
  }
  std::vector<std::int64_t> counts(p, count), displs(p);
  for (int r = 0; r < p; ++r) displs[r] = r * count;
  do_allgatherv(send, recv, counts, displs, type);
}

void MpiCommunicator::do_allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                                    std::span<const std::int64_t> displs, DataType type) {
  const int me = impl_->rank;
  const std::int64_t limit = impl_->options.max_message;
  void* mine = at(recv, displs[me], type);
  const bool in_place = send == mine;
  if (all_fit(counts, limit) && all_fit(displs, limit)) {
    const std::vector<int> c = as_ints(counts), d = as_ints(displs);
    SPGRAPH_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : send, c[me], mpi_type(type), recv, c.data(),
                               d.data(), mpi_type(type), impl_->comm));
    return;
  }
  // Past int: each rank's part broadcast from it, in pieces (counts are known to every rank, so
  // every rank makes the same calls).
  if (!in_place && counts[me] > 0)
    std::memcpy(mine, send, static_cast<std::size_t>(counts[me]) * size_of(type));
  for (int root = 0; root < impl_->size; ++root) do_broadcast(at(recv, displs[root], type), counts[root], type, root);
}

void MpiCommunicator::do_reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type,
                                        ReduceOp op) {
  const int p = impl_->size;
  if (count <= impl_->options.max_message / p) {
    SPGRAPH_MPI(MPI_Reduce_scatter_block(send, recv, static_cast<int>(count), mpi_type(type), mpi_op(op),
                                         impl_->comm));
    logical_when_alone(impl_->size, recv, count, type, op);
    return;
  }
  const std::vector<std::int64_t> counts(p, count);
  do_reduce_scatter_v(send, recv, counts, type, op);
}

void MpiCommunicator::do_reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                                          DataType type, ReduceOp op) {
  const std::int64_t limit = impl_->options.max_message;
  std::int64_t total = 0;
  for (std::int64_t c : counts) total += c;
  if (total <= limit) {  // the send buffer fits one call
    const std::vector<int> c = as_ints(counts);
    SPGRAPH_MPI(MPI_Reduce_scatter(send, recv, c.data(), mpi_type(type), mpi_op(op), impl_->comm));
    logical_when_alone(impl_->size, recv, counts[impl_->rank], type, op);
    return;
  }
  // Past int: block r reduced onto rank r, in pieces.
  std::int64_t block = 0;
  for (int root = 0; root < impl_->size; ++root) {
    in_pieces(counts[root], limit, [&](std::int64_t offset, int n) {
      SPGRAPH_MPI(MPI_Reduce(at(send, block + offset, type), root == impl_->rank ? at(recv, offset, type) : nullptr,
                             n, mpi_type(type), mpi_op(op), root, impl_->comm));
    });
    block += counts[root];
  }
  logical_when_alone(impl_->size, recv, counts[impl_->rank], type, op);
}

void MpiCommunicator::do_alltoall(const void* send, void* recv, std::int64_t count, DataType type) {
  const int p = impl_->size;
  if (count <= impl_->options.max_message / p) {
    SPGRAPH_MPI(MPI_Alltoall(send, static_cast<int>(count), mpi_type(type), recv, static_cast<int>(count),
                             mpi_type(type), impl_->comm));
    return;
  }
  std::vector<std::int64_t> counts(p, count), displs(p);
  for (int r = 0; r < p; ++r) displs[r] = r * count;
  do_alltoallv(send, counts, displs, recv, counts, displs, type);
}

void MpiCommunicator::do_alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                                   std::span<const std::int64_t> send_displs, void* recv,
                                   std::span<const std::int64_t> recv_counts,
                                   std::span<const std::int64_t> recv_displs, DataType type) {
  const int me = impl_->rank;
  const std::int64_t limit = impl_->options.max_message;
  if (send_counts[me] != recv_counts[me])
    throw Error("dist::Communicator::alltoallv: rank " + std::to_string(me) + " sends itself " +
                std::to_string(send_counts[me]) + " elements but receives " + std::to_string(recv_counts[me]));
  // Each rank sees only its own counts: agree on the path, or ranks would wait in different calls.
  int local_large = !(all_fit(send_counts, limit) && all_fit(send_displs, limit) &&
                      all_fit(recv_counts, limit) && all_fit(recv_displs, limit));
  int any_large = 0;
  SPGRAPH_MPI(MPI_Allreduce(&local_large, &any_large, 1, MPI_INT, MPI_MAX, impl_->comm));
  if (!any_large) {
    const std::vector<int> sc = as_ints(send_counts), sd = as_ints(send_displs);
    const std::vector<int> rc = as_ints(recv_counts), rd = as_ints(recv_displs);
    SPGRAPH_MPI(MPI_Alltoallv(send, sc.data(), sd.data(), mpi_type(type), recv, rc.data(), rd.data(),
                              mpi_type(type), impl_->comm));
    return;
  }
  // Past int: every piece a nonblocking message. Messages between two ranks on one tag arrive in
  // the order sent, so both sides cutting a block into the same pieces keeps them matched.
  std::vector<MPI_Request> requests;
  for (int r = 0; r < impl_->size; ++r) {
    if (r == me) continue;
    in_pieces(recv_counts[r], limit, [&](std::int64_t offset, int n) {
      requests.emplace_back();
      SPGRAPH_MPI(MPI_Irecv(at(recv, recv_displs[r] + offset, type), n, mpi_type(type), r, kTag, impl_->comm,
                            &requests.back()));
    });
  }
  for (int r = 0; r < impl_->size; ++r) {
    if (r == me) continue;
    in_pieces(send_counts[r], limit, [&](std::int64_t offset, int n) {
      requests.emplace_back();
      SPGRAPH_MPI(MPI_Isend(at(send, send_displs[r] + offset, type), n, mpi_type(type), r, kTag, impl_->comm,
                            &requests.back()));
    });
  }
  if (send_counts[me] > 0)
    std::memcpy(at(recv, recv_displs[me], type), at(send, send_displs[me], type),
                static_cast<std::size_t>(send_counts[me]) * size_of(type));
  SPGRAPH_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
}

}  // namespace spgraph::dist
