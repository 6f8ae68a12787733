// Host-side helpers of the SpGEMM: group streams, the error word, budgets and panel planning.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "spgraph/instantiations.hpp"
#include "gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {

GroupStreams& GroupStreams::for_this_thread() {
  thread_local std::unique_ptr<GroupStreams> streams;
  int device = 0;
  SPGRAPH_CUDA(cudaGetDevice(&device));
  if (!streams || streams->device_ != device) streams = std::make_unique<GroupStreams>();
  return *streams;
}

GroupStreams::GroupStreams() {
  SPGRAPH_CUDA(cudaGetDevice(&device_));
  for (int g = 0; g < kGroups; ++g) {
    SPGRAPH_CUDA(cudaStreamCreateWithFlags(&streams_[g], cudaStreamNonBlocking));
    SPGRAPH_CUDA(cudaEventCreateWithFlags(&events_[g], cudaEventDisableTiming));
  }
  SPGRAPH_CUDA(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
}

GroupStreams::~GroupStreams() {
  for (int g = 0; g < kGroups; ++g) {
    if (events_[g]) cudaEventDestroy(events_[g]);
    if (streams_[g]) cudaStreamDestroy(streams_[g]);
  }
  if (forked_) cudaEventDestroy(forked_);
}

void GroupStreams::fork(cudaStream_t main) {
  SPGRAPH_CUDA(cudaEventRecord(forked_, main));
  for (int g = 0; g < kGroups; ++g) SPGRAPH_CUDA(cudaStreamWaitEvent(streams_[g], forked_, 0));
}

void GroupStreams::join(cudaStream_t main) {
  for (int g = 0; g < kGroups; ++g) {
    SPGRAPH_CUDA(cudaEventRecord(events_[g], streams_[g]));
    SPGRAPH_CUDA(cudaStreamWaitEvent(main, events_[g], 0));
  }
}

void check_kernel_error(int code, const char* what) {
  if (code == 0) return;
  const char* why = code == kErrorCountMismatch ? "the numeric pass found a different row size than the symbolic pass"
                    : code == kErrorTableFull   ? "a hash table sized to hold a row overflowed"
                                                : "unknown kernel error code";
  throw Error(std::string(what) + ": internal error (" + why + "); the result would be wrong, please report");
}

namespace {
std::string describe_budget(const Budget& b) {
  return (b.explicit_budget ? "the memory budget of " : "the free device memory of ") + device::format_bytes(b.total);
}

// What helps a row that does not fit: a larger budget only where one was given.
std::string advice(const Budget& b) {
  if (b.explicit_budget) return "raise MxmOptions::memory_budget";
  if (b.output_bytes > 0)
    return "C itself takes " + device::format_bytes(b.output_bytes) +
           " of it: gpu::mxm_panels computes C a row panel at a time, without holding all of it";
  return "the row alone needs more than the device has free";
}
}  // namespace

void check_output_fits(eid_t nnz, std::size_t c_bytes, const Budget& budget) {
  const std::size_t room = budget.explicit_budget ? device::available_memory() : budget.room;
  if (c_bytes <= room) return;
  throw ResourceError("mxm: C has " + std::to_string(nnz) + " nonzeros (" + device::format_bytes(c_bytes) +
                      " with its row offsets), more than the device can hold (" + device::format_bytes(room) +
                      " free for it); no memory budget helps: gpu::mxm_panels computes C in row panels, "
                      "handing each over to be consumed (counted, pruned or copied out) before the next");
}

Budget make_budget(std::size_t budget_bytes, std::size_t bookkeeping_bytes, const char* what) {
  Budget b;
  b.explicit_budget = budget_bytes != 0;
  // Without an explicit budget, leave 5% of what is free for allocator granularity and CUB's
  // scratch, which the plans do not count.
  b.total = b.explicit_budget ? budget_bytes : device::available_memory() / 20 * 19;
  if (bookkeeping_bytes > b.total)
    throw ResourceError(std::string(what) + ": " + describe_budget(b) + " cannot hold the per-row bookkeeping (" +
                        device::format_bytes(bookkeeping_bytes) + "); raise MxmOptions::memory_budget");
  b.room = b.total - bookkeeping_bytes;
  return b;
}

std::vector<Panel> plan_panels(const std::vector<std::uint64_t>& cost_prefix, std::size_t room, const Budget& budget,
                               const std::function<std::string(vid_t)>& describe_row) {
  std::vector<Panel> panels;
  const vid_t n = static_cast<vid_t>(cost_prefix.size()) - 1;
  vid_t first = 0;
  while (first < n) {
    // Last row boundary `last` with cost_prefix[last] - cost_prefix[first] <= room.
    const std::uint64_t limit = cost_prefix[first] + room;
    const auto it = std::upper_bound(cost_prefix.begin() + first, cost_prefix.end(), limit);
    vid_t last = static_cast<vid_t>(it - cost_prefix.begin()) - 1;
    if (last <= first) {
      const std::uint64_t need = cost_prefix[first + 1] - cost_prefix[first];
      throw ResourceError("mxm: " + describe_row(first) + " needs " + device::format_bytes(need) + " but " +
                          describe_budget(budget) + " leaves " + device::format_bytes(room) + " for it; " +
                          advice(budget));
    }
    panels.push_back({first, last});
    first = last;
  }
  return panels;
}

}  // namespace spgraph::gpu::spgemm_detail

namespace spgraph::gpu {

template <class V>
eid_t count_products(const Matrix<V>& A, const Matrix<V>& B) {
  return spgemm_detail::count_products(spgemm_detail::structure_of(A.csr()), spgemm_detail::structure_of(B.csr()));
}

#define SPGRAPH_INSTANTIATE(V) template eid_t count_products<V>(const Matrix<V>&, const Matrix<V>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::gpu
