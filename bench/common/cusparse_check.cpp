#include "cusparse_check.hpp"

namespace spgraph::device {

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  std::string text(call);
  std::string function = text.substr(0, text.find('('));
  throw CusparseError(status, function,
                      text + " failed at " + file + ":" + std::to_string(line) + ": " + cusparseGetErrorName(status) +
                          " (" + cusparseGetErrorString(status) + ")");
}

}  // namespace spgraph::device
