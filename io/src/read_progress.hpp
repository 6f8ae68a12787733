#pragma once
// LoadOptions::progress reaching the line reader without a parameter through every reader:
// load_graph installs it for the calling thread while it reads (ProgressScope), and the line
// reader reports to whatever is installed each time it reads more of the file.
#include <cstdint>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::io::detail {

class ProgressScope {
 public:
  explicit ProgressScope(const ReadProgress& progress);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  const ReadProgress* outer_;
};

// Bytes of the file read so far and its size (0 when unknown); nothing when none is installed.
void report_progress(std::uint64_t bytes_read, std::uint64_t file_bytes);

}  // namespace spgraph::io::detail
