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

// One row per app that runs on a graph, from the sweep of docs/performance/backend-choice.md
// (keep the two in step): where the CPU's time, which grows with the links, meets the GPU's,
// about 0.35 s of start and little more up to millions of links.
inline constexpr GpuThreshold kGpuThresholds[] = {
    // The sweep of 10bf1be on an H200 (R-MAT, wall seconds GPU / CPU): each row the smallest
    // graph on which the GPU finished first, rounded down to two significant figures.
    {"pagerank", 7'900'000},  // R-MAT 19, 7.97M links: 0.386 / 0.392; R-MAT 18, 3.9M: 0.374 / 0.191
    {"tricount", 950'000},    // R-MAT 16, 955K links: 0.391 / 0.763; R-MAT 15, 468K: 0.352 / 0.255
    {"msbfs", 16'000'000},    // 8 sources; R-MAT 20, 16.1M: 0.416 / 0.601; R-MAT 19, 8.0M: 0.359 / 0.314
    {"mcl", 25'000},          // R-MAT 11, 25.4K links: 0.374 / 0.521; R-MAT 10, 12.1K: 0.352 / 0.164
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
