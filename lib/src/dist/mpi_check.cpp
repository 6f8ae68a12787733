#include "dist/mpi_check.hpp"

#include <mpi.h>

#include <string>

#include "spgraph/error.hpp"

namespace spgraph::dist {

void check_mpi(int status, const char* call, const char* file, int line) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = 0;
  int error_class = status;
  MPI_Error_class(status, &error_class);
  throw Error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
              (length > 0 ? std::string(text, static_cast<std::size_t>(length)) : "MPI error") +
              " (error class " + std::to_string(error_class) + ")");
}

}  // namespace spgraph::dist
