#pragma once
// The collectives io::read_text_rows needs (io::RankExchange: a text graph read by the ranks of
// a job together) on an MPI communicator of host buffers, so that io/ itself stays free of MPI.
// A failure is agreed on as the GPU ranks' start agrees on one: the lowest failing rank's reason
// (at most 1,023 bytes) reaches every rank.
#include <cstdint>
#include <span>
#include <string>

#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/io/text_rows.hpp"

namespace spgraph::dist {

class MpiRankExchange final : public io::RankExchange {
 public:
  // `comm` must outlive the exchange.
  explicit MpiRankExchange(MpiCommunicator& comm) : comm_(comm) {}

  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  void allgather(std::span<const std::int64_t> mine, std::span<std::int64_t> all) override;
  void alltoall(std::span<const std::int64_t> to, std::span<std::int64_t> from) override;
  void alltoallv(const void* send, std::span<const std::int64_t> send_counts, std::span<const std::int64_t> send_displs,
                 void* recv, std::span<const std::int64_t> recv_counts,
                 std::span<const std::int64_t> recv_displs) override;
  std::string first_failure(const std::string& why) override;

 private:
  MpiCommunicator& comm_;
};

}  // namespace spgraph::dist
