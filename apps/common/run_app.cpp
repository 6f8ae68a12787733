#include "run_app.hpp"

#include <cstdio>

namespace spgraph::apps {

Command::Command(const char* name, int argc, char** argv)
    : name_(name), argc_(argc), argv_(argv), cli_("", name) {}

void Command::parse() {
  cli_.parse(argc_, argv_);
  if (const CLI::Option* graph = cli_.get_option_no_throw("graph"); graph && graph->count() > 0)
    input_ = graph->as<std::string>();
}

CLI::Option* Command::add_timings_option() {
  return cli_
      .add_option("--timings", timings_path_,
                  "write where the run's time went as one JSON object to FILE (\"-\": a line 'timings: {...}' "
                  "on stderr): total_s, process start (as /proc/self/stat gives it, to 10 ms) to the output "
                  "written; phases startup_s (to main: loading the program and its libraries), device_init_s "
                  "(the CUDA context, or GraphBLAS, started beside the load: the wait for it after the load), load_s, build_s (the graph on the backend), compute_s, "
                  "write_s; other_s, the rest")
      ->type_name("FILE");
}

void Command::report_timings() const {
  if (!timings_path_.empty()) timings_.report(name_, timings_path_);
}

void print_error(const std::string& name, const std::string& message) {
  std::string line;
  for (char c : message) {
    if (c == '\n') line += "; ";
    else if (c != '\r') line += c;
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == ';')) line.pop_back();
  std::fflush(stdout);  // what the app printed before the failure stays before the error
  std::fprintf(stderr, "%s: error: %s\n", name.c_str(), line.c_str());
}

std::string out_of_host_memory(const std::string& input) {
  if (input.empty()) return "out of host memory";
  return "out of host memory working on " + input +
         " (more than this process may take; --help says what memory a load takes)";
}

}  // namespace spgraph::apps
