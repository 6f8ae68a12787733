#include "json_output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"

namespace spgraph::bench {

void write_json_file(const std::string& path, const nlohmann::json& doc) {
  std::ofstream file(path);
  if (file) file << doc.dump(2) << '\n';
  if (!file) throw Error(path + ": cannot write the JSON results (" + std::strerror(errno) + ")");
}

nlohmann::json to_json(const TimingOptions& options) {
  return {{"warmup", options.warmup},
          {"repeats", options.repeats},
          {"l2_flushed", options.flush_l2},
          {"device_synchronized", options.synchronize_device}};
}

int finish_run(std::ostream& out, const std::string& json_path, nlohmann::json doc,
               const nlohmann::json& failed_inputs, const nlohmann::json& summary, bool ours_wrong) {
  for (const auto& f : failed_inputs)
    out << "input not completed: " << f["input"].get<std::string>() << " (" << f["error"].get<std::string>() << ")\n";
  if (!json_path.empty()) {
    std::string no_gpu;  // a run of the host parts alone (bench_mcl --cpu) still writes its results
    doc["device"] = device::gpu_available(&no_gpu) ? device::device_description() : "no GPU: " + no_gpu;
    doc["failed_inputs"] = failed_inputs;
    doc["summary"] = summary;
    write_json_file(json_path, doc);
    out << "JSON: " << json_path << '\n';
  }
  return ours_wrong || !failed_inputs.empty() ? 1 : 0;
}

}  // namespace spgraph::bench
