#pragma once
// What an MpiCommunicator holds; internal, so that the public header needs no mpi.h and the
// NCCL communicator can bootstrap over the same MPI communicator.
#include <mpi.h>

#include "spgraph/dist/mpi_communicator.hpp"

namespace spgraph::dist {

struct MpiCommunicator::Impl {
  // Takes ownership of `comm` (a duplicate or split made for this communicator) and sets
  // MPI_ERRORS_RETURN on it, so failures throw (mpi_check.hpp) instead of aborting silently.
  Impl(MPI_Comm comm, Options options);
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  // MPI_Comm_free, unless MPI has been finalised, or an exception is unwinding (the rank is
  // failing; nothing it may wait for runs then).
  ~Impl();

  MPI_Comm comm = MPI_COMM_NULL;
  Options options;
  int rank = 0;
  int size = 1;
  int exceptions_at_start = 0;
};

}  // namespace spgraph::dist
