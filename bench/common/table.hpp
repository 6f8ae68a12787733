#pragma once
// Plain-text tables for benchmark output: aligned columns on stdout, numbers right-aligned.
#include <cstddef>
#include <exception>
#include <ostream>
#include <string>
#include <vector>

namespace spgraph::bench {

class Table {
 public:
  explicit Table(std::vector<std::string> header);
  // Cells beyond the header's width are an error; missing trailing cells print empty.
  void add_row(std::vector<std::string> cells);
  void add_gap();  // a blank line between groups of rows
  // A column whose cells all read as numbers ("12.3", "1.25x", "80%") is right-aligned.
  void print(std::ostream& out) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a gap
};

// Formatting shared by the tables; NaN or a negative sentinel prints as "-".
std::string fixed(double value, int decimals);
std::string times(double ratio);            // "1.34x"
std::string percent(double fraction);       // 0.812 -> "81.2%"
std::string gib(std::size_t bytes);         // "1.23 GiB", "512.0 MiB"
std::string count(long long n);             // 57156537 -> "57.2M", 3216 -> "3216"
std::string scientific(double value);       // "1.3e-05"
// What a table's check column says for a run that threw: "failed: <cuSPARSE status> in
// <function>" for a cuSPARSE error, else "failed: " and the first line of the message.
std::string failure(const std::exception& e);

}  // namespace spgraph::bench
