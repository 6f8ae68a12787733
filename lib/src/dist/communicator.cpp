#include "spgraph/dist/communicator.hpp"

#include <chrono>
#include <numeric>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::dist {

std::size_t size_of(DataType type) {
  switch (type) {
    case DataType::Bool:
    case DataType::Int8:
    case DataType::UInt8: return 1;
    case DataType::Int32:
    case DataType::UInt32:
    case DataType::Float32: return 4;
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Float64: return 8;
  }
  throw Error("dist: unknown DataType " + std::to_string(static_cast<int>(type)));
}

const char* name_of(DataType type) {
  switch (type) {
    case DataType::Bool: return "bool";
    case DataType::Int8: return "int8";
    case DataType::UInt8: return "uint8";
    case DataType::Int32: return "int32";
    case DataType::UInt32: return "uint32";
    case DataType::Int64: return "int64";
    case DataType::UInt64: return "uint64";
    case DataType::Float32: return "float32";
    case DataType::Float64: return "float64";
  }
  return "unknown type";
}

const char* name_of(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Min: return "min";
    case ReduceOp::Max: return "max";
    case ReduceOp::LogicalOr: return "lor";
    case ReduceOp::LogicalAnd: return "land";
    case ReduceOp::BitOr: return "bor";
    case ReduceOp::BitAnd: return "band";
    case ReduceOp::BitXor: return "bxor";
  }
  return "unknown op";
}

bool defined_on(ReduceOp op, DataType type) {
  const bool arithmetic = op == ReduceOp::Sum || op == ReduceOp::Prod || op == ReduceOp::Min ||
                          op == ReduceOp::Max;
  switch (type) {
    case DataType::Float32:
    case DataType::Float64: return arithmetic;
    case DataType::Bool: return op != ReduceOp::Sum && op != ReduceOp::Prod;
    default: return true;
  }
}

namespace {

// Every check throws the same message on every rank that passes the same arguments, before
// anything is sent, so no rank is left waiting in a collective the others refused.
[[noreturn]] void refuse(const char* call, const std::string& why) {
  throw Error(std::string("dist::Communicator::") + call + ": " + why);
}

void check_count(const char* call, std::int64_t count, const char* what = "count") {
  if (count < 0) refuse(call, std::string(what) + " " + std::to_string(count) + " is negative");
}

void check_op(const char* call, ReduceOp op, DataType type) {
  if (!defined_on(op, type))
    refuse(call, std::string("op ") + name_of(op) + " is not defined on " + name_of(type));
}

void check_per_rank(const char* call, std::span<const std::int64_t> values, int size, const char* what) {
  if (values.size() != static_cast<std::size_t>(size))
    refuse(call, std::string(what) + " has " + std::to_string(values.size()) + " entries for " +
                     std::to_string(size) + " ranks");
  for (std::size_t r = 0; r < values.size(); ++r)
    if (values[r] < 0)
      refuse(call, std::string(what) + "[" + std::to_string(r) + "] = " + std::to_string(values[r]) +
                       " is negative");
}

// The elements of counts but this rank's.
std::int64_t others(std::span<const std::int64_t> counts, int rank) {
  return std::accumulate(counts.begin(), counts.end(), std::int64_t{0}) - counts[std::size_t(rank)];
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

const char* name_of(Collective c) {
  switch (c) {
    case Collective::Allreduce: return "allreduce";
    case Collective::Broadcast: return "broadcast";
    case Collective::Allgather: return "allgather";
    case Collective::Allgatherv: return "allgatherv";
    case Collective::ReduceScatter: return "reduce_scatter";
    case Collective::ReduceScatterV: return "reduce_scatter_v";
    case Collective::Alltoall: return "alltoall";
    case Collective::Alltoallv: return "alltoallv";
  }
  return "?";
}

Traffic& Traffic::operator+=(const Traffic& o) {
  for (int c = 0; c < kCollectives; ++c) by_collective[c] += o.by_collective[c];
  waiting_seconds += o.waiting_seconds;
  return *this;
}

CollectiveCost Traffic::total() const {
  CollectiveCost t;
  for (const CollectiveCost& c : by_collective) t += c;
  return t;
}

template <class Op>
void Communicator::counted(Collective c, std::int64_t bytes, Op&& op) {
  using Clock = std::chrono::steady_clock;
  if (measure_waits_) {
    const auto arrived = Clock::now();
    barrier();
    traffic_.waiting_seconds += seconds_since(arrived);
  }
  const auto start = Clock::now();
  op();
  if (measure_waits_) synchronize();
  CollectiveCost& cost = traffic_.by_collective[static_cast<int>(c)];
  cost.calls += 1;
  cost.bytes += bytes;
  cost.seconds += seconds_since(start);
}

void Communicator::allreduce(const void* send, void* recv, std::int64_t count, DataType type, ReduceOp op) {
  check_count("allreduce", count);
  check_op("allreduce", op, type);
  counted(Collective::Allreduce, std::int64_t(size() - 1) * count * std::int64_t(size_of(type)),
          [&] { do_allreduce(send, recv, count, type, op); });
}

void Communicator::broadcast(void* buffer, std::int64_t count, DataType type, int root) {
  check_count("broadcast", count);
  if (root < 0 || root >= size())
    refuse("broadcast", "root " + std::to_string(root) + " is not a rank of " + std::to_string(size()));
  counted(Collective::Broadcast, rank() == root ? 0 : count * std::int64_t(size_of(type)),
          [&] { do_broadcast(buffer, count, type, root); });
}

void Communicator::allgather(const void* send, void* recv, std::int64_t count, DataType type) {
  check_count("allgather", count);
  counted(Collective::Allgather, std::int64_t(size() - 1) * count * std::int64_t(size_of(type)),
          [&] { do_allgather(send, recv, count, type); });
}

void Communicator::allgatherv(const void* send, void* recv, std::span<const std::int64_t> counts,
                              std::span<const std::int64_t> displs, DataType type) {
  check_per_rank("allgatherv", counts, size(), "counts");
  check_per_rank("allgatherv", displs, size(), "displs");
  counted(Collective::Allgatherv, others(counts, rank()) * std::int64_t(size_of(type)),
          [&] { do_allgatherv(send, recv, counts, displs, type); });
}

void Communicator::reduce_scatter(const void* send, void* recv, std::int64_t count, DataType type,
                                  ReduceOp op) {
  check_count("reduce_scatter", count);
  check_op("reduce_scatter", op, type);
  counted(Collective::ReduceScatter, std::int64_t(size() - 1) * count * std::int64_t(size_of(type)),
          [&] { do_reduce_scatter(send, recv, count, type, op); });
}

void Communicator::reduce_scatter_v(const void* send, void* recv, std::span<const std::int64_t> counts,
                                    DataType type, ReduceOp op) {
  check_per_rank("reduce_scatter_v", counts, size(), "counts");
  check_op("reduce_scatter_v", op, type);
  counted(Collective::ReduceScatterV,
          std::int64_t(size() - 1) * counts[std::size_t(rank())] * std::int64_t(size_of(type)),
          [&] { do_reduce_scatter_v(send, recv, counts, type, op); });
}

void Communicator::alltoall(const void* send, void* recv, std::int64_t count, DataType type) {
  check_count("alltoall", count);
  counted(Collective::Alltoall, std::int64_t(size() - 1) * count * std::int64_t(size_of(type)),
          [&] { do_alltoall(send, recv, count, type); });
}

void Communicator::alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                             std::span<const std::int64_t> send_displs, void* recv,
                             std::span<const std::int64_t> recv_counts,
                             std::span<const std::int64_t> recv_displs, DataType type) {
  check_per_rank("alltoallv", send_counts, size(), "send_counts");
  check_per_rank("alltoallv", send_displs, size(), "send_displs");
  check_per_rank("alltoallv", recv_counts, size(), "recv_counts");
  check_per_rank("alltoallv", recv_displs, size(), "recv_displs");
  counted(Collective::Alltoallv, others(recv_counts, rank()) * std::int64_t(size_of(type)),
          [&] { do_alltoallv(send, send_counts, send_displs, recv, recv_counts, recv_displs, type); });
}

}  // namespace spgraph::dist
