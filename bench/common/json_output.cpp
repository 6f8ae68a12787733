#include "json_output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

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

}  // namespace spgraph::bench
