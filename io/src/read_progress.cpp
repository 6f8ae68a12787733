#include "read_progress.hpp"

namespace spgraph::io::detail {
namespace {

thread_local const ReadProgress* installed = nullptr;

}  // namespace

ProgressScope::ProgressScope(const ReadProgress& progress) : outer_(installed) {
  if (progress) installed = &progress;
}

ProgressScope::~ProgressScope() { installed = outer_; }

void report_progress(std::uint64_t bytes_read, std::uint64_t file_bytes) {
  if (installed) (*installed)(bytes_read, file_bytes);
}

}  // namespace spgraph::io::detail
