#pragma once
// JSON output of the benchmarks (nlohmann::json), for scripts that compare runs.
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "gpu_timer.hpp"

namespace spgraph::bench {

// Writes `doc` (indented) to `path`; throws spgraph::Error naming the path when it cannot.
void write_json_file(const std::string& path, const nlohmann::json& doc);

// {"warmup": .., "repeats": .., "l2_flushed": .., "device_synchronized": ..}
nlohmann::json to_json(const TimingOptions& options);

// The end of a benchmark run: reports the inputs that could not be completed, writes `doc` with
// the device, those inputs and the summary added to json_path (unless it is empty), and returns
// the exit status: 1 when our results were wrong or an input failed, else 0.
int finish_run(std::ostream& out, const std::string& json_path, nlohmann::json doc,
               const nlohmann::json& failed_inputs, const nlohmann::json& summary, bool ours_wrong);

}  // namespace spgraph::bench
