// io::RankExchange on an MPI communicator (spgraph/dist/text_exchange.hpp).
#include "spgraph/dist/text_exchange.hpp"

#include "dist/mpi_first_failure.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {

void MpiRankExchange::allgather(std::span<const std::int64_t> mine, std::span<std::int64_t> all) {
  if (all.size() != mine.size() * std::size_t(comm_.size()))
    throw Error("MpiRankExchange::allgather: " + std::to_string(all.size()) + " places for " +
                std::to_string(comm_.size()) + " ranks of " + std::to_string(mine.size()));
  comm_.allgather(mine.data(), all.data(), std::int64_t(mine.size()));
}

void MpiRankExchange::alltoall(std::span<const std::int64_t> to, std::span<std::int64_t> from) {
  if (to.size() != std::size_t(comm_.size()) || from.size() != to.size())
    throw Error("MpiRankExchange::alltoall: one value a rank each way, for " + std::to_string(comm_.size()) + " ranks");
  comm_.alltoall(to.data(), from.data(), 1);
}

void MpiRankExchange::alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                                std::span<const std::int64_t> send_displs, void* recv,
                                std::span<const std::int64_t> recv_counts, std::span<const std::int64_t> recv_displs) {
  comm_.alltoallv(static_cast<const std::uint8_t*>(send), send_counts, send_displs, static_cast<std::uint8_t*>(recv),
                  recv_counts, recv_displs);
}

std::string MpiRankExchange::first_failure(const std::string& why) { return dist::first_failure(comm_, why).why; }

}  // namespace spgraph::dist
