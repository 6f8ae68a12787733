#pragma once
// The MapReducer (FusedMxvReduce, operations.hpp) of a backend whose map_reduce returns once its
// pass is done (graphblas, dist): start() runs the pass and keeps its sums, finish() hands them
// over, so that callers written for the GPU's deferred reducer run unchanged. MapReduce names
// the backend (`name`) and runs its map_reduce (`run<R>(f, vectors...)`).
#include <array>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::detail {

template <int R, class MapReduce>
class ImmediateMapReducer {
 public:
  static constexpr bool deferred = false;  // start() returns once the pass is done

  template <class F, class... Vs>
  void start(F f, Vs&... vectors) {
    if (pending_)
      throw Error(std::string(MapReduce::name) +
                  "::MapReducer::start: the previous pass's sums were not taken (call finish() first)");
    sums_ = MapReduce::template run<R>(f, vectors...);
    pending_ = true;
  }
  std::array<double, R> finish() {
    if (!pending_)
      throw Error(std::string(MapReduce::name) + "::MapReducer::finish: no pass was started since the last finish()");
    pending_ = false;
    return sums_;
  }

 private:
  std::array<double, R> sums_{};
  bool pending_ = false;
};

}  // namespace spgraph::detail
