#pragma once
// A step every rank must pass before a collective start (NCCL's bootstrap, GPU ranks): each rank
// says why it failed (empty where it did not), and every rank learns the first failing rank's
// reason, so none is left waiting for the others.
#include <string>

#include "spgraph/dist/mpi_communicator.hpp"

namespace spgraph::dist {

// Collective over `comm`: the lowest failing rank and its reason (at most 1,023 bytes), or
// rank -1 where no rank failed.
struct FirstFailure {
  int rank = -1;
  std::string why;
};
FirstFailure first_failure(const MpiCommunicator& comm, const std::string& why);

}  // namespace spgraph::dist
