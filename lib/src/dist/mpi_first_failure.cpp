// The first failing rank of a step (mpi_first_failure.hpp).
#include "dist/mpi_first_failure.hpp"

#include <mpi.h>

#include <climits>
#include <cstring>

#include "dist/mpi_check.hpp"
#include "dist/mpi_comm_impl.hpp"

namespace spgraph::dist {

FirstFailure first_failure(const MpiCommunicator& comm, const std::string& why) {
  const MPI_Comm c = comm.impl().comm;
  const int mine = why.empty() ? INT_MAX : comm.rank();
  int first = INT_MAX;
  SPGRAPH_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c));
  if (first == INT_MAX) return {};
  char text[1024] = {};
  if (comm.rank() == first) std::strncpy(text, why.c_str(), sizeof text - 1);
  SPGRAPH_MPI(MPI_Bcast(text, sizeof text, MPI_CHAR, first, c));
  return {first, text};
}

}  // namespace spgraph::dist
