#pragma once
// JSON output of the benchmarks (nlohmann::json), for scripts that compare runs.
#include <nlohmann/json.hpp>

#include <string>

#include "gpu_timer.hpp"

namespace spgraph::bench {

// Writes `doc` (indented) to `path`; throws spgraph::Error naming the path when it cannot.
void write_json_file(const std::string& path, const nlohmann::json& doc);

// {"warmup": .., "repeats": .., "l2_flushed": .., "device_synchronized": ..}
nlohmann::json to_json(const TimingOptions& options);

}  // namespace spgraph::bench
