#pragma once
// Every failure a user can cause or act on is an spgraph::Error whose message says what went
// wrong and where (file and line for input, the call for CUDA, the limit for memory). Apps print
// what() as one line on stderr and exit non-zero.
#include <stdexcept>
#include <string>

namespace spgraph {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Input that cannot be parsed or violates the format: message is "FILE:LINE: reason".
class ParseError : public Error {
 public:
  ParseError(const std::string& file, long long line, const std::string& reason)
      : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + reason) {}
};

// A resource limit (device memory, memory budget) that the request cannot fit in.
class ResourceError : public Error {
 public:
  using Error::Error;
};

}  // namespace spgraph
