#pragma once
// Every MPI call of spgraph's communicators is checked; a failure becomes spgraph::Error naming
// the call, file and line and MPI's own words. The communicators set MPI_ERRORS_RETURN on their
// MPI communicators so that errors come back here instead of MPI aborting without a word.
namespace spgraph::dist {

void check_mpi(int status, const char* call, const char* file, int line);

}  // namespace spgraph::dist

#define SPGRAPH_MPI(call) ::spgraph::dist::check_mpi((call), #call, __FILE__, __LINE__)
