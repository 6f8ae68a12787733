#include "spgraph/dist/process_grid.hpp"

#include <charconv>
#include <string>

namespace spgraph::dist {

GridShape default_grid_shape(int p) {
  if (p < 1) throw Error("default_grid_shape: " + std::to_string(p) + " ranks; a grid needs at least 1");
  int rows = 1;
  for (int d = 1; static_cast<long long>(d) * d <= p; ++d)
    if (p % d == 0) rows = d;
  return {rows, p / rows};
}

namespace {

// A positive int written with digits only ("0", "+2", " 2", "2.0" are refused).
bool parse_positive(std::string_view s, int& value) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size() && value > 0;
}

}  // namespace

GridShape parse_grid_shape(std::string_view text, int p) {
  const std::string quoted = "--grid '" + std::string(text) + "'";
  const std::size_t x = text.find_first_of("xX");
  GridShape shape;
  if (x == std::string_view::npos || !parse_positive(text.substr(0, x), shape.rows) ||
      !parse_positive(text.substr(x + 1), shape.cols))
    throw Error(quoted + ": expected RxC, two positive integers such as 2x4 (rows x columns of ranks)");
  if (static_cast<long long>(shape.rows) * shape.cols != p)
    throw Error(quoted + ": a " + to_string(shape) + " grid has " +
                std::to_string(static_cast<long long>(shape.rows) * shape.cols) + " ranks, but the job has " +
                std::to_string(p) + " (mpirun -n); R*C must equal it (the default for " +
                std::to_string(p) + " is " + to_string(default_grid_shape(p)) + ")");
  return shape;
}

std::string to_string(GridShape shape) { return std::to_string(shape.rows) + "x" + std::to_string(shape.cols); }

ProcessGrid::ProcessGrid(Communicator& world) : ProcessGrid(world, default_grid_shape(world.size())) {}

ProcessGrid::ProcessGrid(Communicator& world, GridShape shape) : world_(world), shape_(shape) {
  if (shape.rows < 1 || shape.cols < 1 || static_cast<long long>(shape.rows) * shape.cols != world.size())
    throw Error("ProcessGrid: a " + to_string(shape) + " grid does not hold the " + std::to_string(world.size()) +
                " ranks of the communicator");
  row_ = world.rank() / shape.cols;
  col_ = world.rank() % shape.cols;
  row_comm_ = world.split(row_, col_);  // my grid row, ranked by column
  col_comm_ = world.split(col_, row_);  // my grid column, ranked by row
}

Traffic ProcessGrid::traffic() const {
  Traffic t = world_.traffic();
  t += row_comm_->traffic();
  t += col_comm_->traffic();
  return t;
}

void ProcessGrid::reset_traffic() const {
  for (Communicator* c : {&world_, row_comm_.get(), col_comm_.get()}) c->reset_traffic();
}

void ProcessGrid::measure_waits(bool on) const {
  for (Communicator* c : {&world_, row_comm_.get(), col_comm_.get()}) c->measure_waits(on);
}

namespace detail {

void bad_block_arguments(std::int64_t n, std::int64_t parts, std::int64_t i, const char* what) {
  throw Error("block_range: " + std::string(what) + " " + std::to_string(i) + " of [0, " + std::to_string(n) +
              ") in " + std::to_string(parts) + " blocks is out of range");
}

}  // namespace detail

}  // namespace spgraph::dist
