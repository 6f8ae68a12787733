#pragma once
// Block-parallel loops for the generators and statistics. Work is cut into blocks fixed by the
// problem, never by the thread count, and each block writes only its own results, so the output
// does not depend on how many threads ran.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace spgraph::io::detail {

inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Calls body(block, worker) for every block in [0, nblocks); worker in [0, workers) identifies
// the calling thread's scratch space. The first exception thrown is rethrown here.
template <class Body>
void parallel_blocks(std::int64_t nblocks, int workers, Body&& body) {
  workers = static_cast<int>(std::min<std::int64_t>(std::max(1, workers), std::max<std::int64_t>(1, nblocks)));
  if (workers == 1) {
    for (std::int64_t b = 0; b < nblocks; ++b) body(b, 0);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](int worker) {
    try {
      for (std::int64_t b; (b = next.fetch_add(1)) < nblocks;) body(b, worker);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = nblocks;
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace spgraph::io::detail
