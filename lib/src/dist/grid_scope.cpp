#include "spgraph/dist/containers.hpp"

namespace spgraph::dist {

namespace {
thread_local const ProcessGrid* current = nullptr;
}

GridScope::GridScope(const ProcessGrid& grid) : previous_(current) { current = &grid; }
GridScope::~GridScope() { current = previous_; }

const ProcessGrid& current_grid() {
  if (!current)
    throw Error("dist::Backend: no process grid is in use; create a dist::GridScope over the job's grid first");
  return *current;
}

}  // namespace spgraph::dist
