#pragma once
// --backend auto's rule: the backend that finishes first. Starting the GPU (its CUDA context)
// costs about 0.3 s, which a small graph never wins back, so auto runs on the GPU only from a
// number of links on, per app: the crossovers measured end to end (process start to output
// written, bench_end_to_end) on an H200 machine with 16 cores, docs/performance/backend-choice.md.
// SPGRAPH_GPU_THRESHOLD=LINKS replaces every app's threshold (0: the GPU whenever one is usable).
#include <cstdint>
#include <string>
#include <string_view>

#include "input_options.hpp"

namespace spgraph::apps {

struct GpuThreshold {
  std::string_view app;
  std::int64_t links;  // stored links (the graph line's edges) from which the GPU finishes first
};

// One row per app that runs on a graph, from the crossovers of docs/performance/backend-choice.md
// (keep the two in step): where the CPU's time, which grows with the links, meets the GPU's,
// about 0.35 s of start and little more up to millions of links.
inline constexpr GpuThreshold kGpuThresholds[] = {
    {"pagerank", 8'000'000},  // CPU 0.13 s at 1.9M links, 0.93 s at 16.5M; GPU 0.40 s, 0.58 s
    {"tricount", 1'000'000},  // skewed R-MAT: the GPU wins 5x at 1.9M; web-NotreDame: the CPU at 1.5M
    {"msbfs", 4'000'000},     // 8 sources: CPU 0.16 s at 1.9M links, even at cnr-2000's 3.2M
    {"mcl", 10'000},          // the CPU's expansions grow fast: 24 s on email-Enron's 367K links
};

inline constexpr const char* kGpuThresholdVariable = "SPGRAPH_GPU_THRESHOLD";

struct Threshold {
  std::int64_t links = 0;
  bool from_environment = false;  // SPGRAPH_GPU_THRESHOLD, not the table
};

// The table's row for app (0 for an app without one: the GPU whenever usable).
std::int64_t table_threshold(std::string_view app);

// The threshold auto applies to app: SPGRAPH_GPU_THRESHOLD's where set (digits only, else an
// Error "SPGRAPH_GPU_THRESHOLD=...: expected a number of links ..."), else the table's.
Threshold gpu_threshold(std::string_view app);

struct SizeDecision {
  bool gpu = false;
  // "183,831 links is below pagerank's GPU threshold of 8,000,000", or "... is at or above
  // ...", or with SPGRAPH_GPU_THRESHOLD "... the GPU threshold of 1,000 (SPGRAPH_GPU_THRESHOLD)".
  std::string reason;
};

// The rule: the GPU when links >= threshold.links.
SizeDecision decide_by_size(std::string_view app, std::int64_t links, const Threshold& threshold);

// "1,234,567"
std::string with_thousands(std::int64_t n);

// The graph's stored links as far as can be told before loading it, to choose the backend to
// start beside the load: exact from a .spgcsr's header and a Matrix Market size line (twice its
// entries when symmetric), else from the file's size (about 12 bytes a link of text, 3 of
// gzip-compressed text); doubled with --undirected. 0 for a file that cannot be read (the load
// then says why).
std::int64_t estimate_links(const InputOptions& input);

}  // namespace spgraph::apps
