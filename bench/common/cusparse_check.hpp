#pragma once
#include <cusparse.h>

#include <string>
#include <utility>

#include "spgraph/error.hpp"
// cuSPARSE is used only as the baseline the benchmarks compare against.

namespace spgraph::device {

// A failed cuSPARSE call. The benchmarks catch it to report "failed: <status name>" for one
// algorithm and go on with the others (cuSPARSE SpGEMM fails with INSUFFICIENT_RESOURCES on
// some web graphs).
class CusparseError : public Error {
 public:
  CusparseError(cusparseStatus_t status, std::string function, const std::string& message)
      : Error(message), status_(status), function_(std::move(function)) {}
  cusparseStatus_t status() const { return status_; }
  const char* status_name() const { return cusparseGetErrorName(status_); }
  const std::string& function() const { return function_; }  // "cusparseSpGEMM_compute"

 private:
  cusparseStatus_t status_;
  std::string function_;
};

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line);

}  // namespace spgraph::device

#define SPGRAPH_CUSPARSE(call) ::spgraph::device::check_cusparse((call), #call, __FILE__, __LINE__)
