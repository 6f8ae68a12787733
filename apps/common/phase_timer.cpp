#include "phase_timer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "spgraph/error.hpp"

namespace spgraph::apps {
namespace {

// Field 22 of /proc/self/stat, the start time in clock ticks since boot, in seconds; -1 when
// there is no /proc to read. The command name (field 2, in parentheses) may hold spaces, so
// counting starts after its closing ')'.
double process_start_since_boot() {
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return std::strtod(field.c_str(), nullptr) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return -1;
}

double boot_clock_seconds() {
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Read once. Without /proc the clock starts at the first call (start-up reads 0), and the
// report says so.
double started_at() {
  static const double since_boot = process_start_since_boot();
  return since_boot;
}

}  // namespace

const char* phase_name(Phase phase) {
  static constexpr const char* kNames[kPhaseCount] = {"startup", "device_init", "load", "build", "compute", "write"};
  return kNames[static_cast<std::size_t>(phase)];
}

double seconds_since_process_start() {
  // Read once: later calls measure from the same origin on the steady clock.
  static const WallTimer since_start;
  static const double at_first_call = started_at() < 0 ? 0.0 : std::max(0.0, boot_clock_seconds() - started_at());
  return at_first_call + since_start.seconds();
}

PhaseTimings::PhaseTimings() { add(Phase::Startup, seconds_since_process_start()); }

void PhaseTimings::add(Phase phase, double seconds) { seconds_[static_cast<std::size_t>(phase)] += seconds; }

std::string PhaseTimings::json(const std::string& app) const {
  const double total = seconds_since_process_start();
  double accounted = 0;
  std::string phases;
  for (std::size_t p = 0; p < kPhaseCount; ++p) {
    char field[64];
    std::snprintf(field, sizeof field, "%s\"%s_s\":%.6f", p ? "," : "", phase_name(static_cast<Phase>(p)),
                  seconds_[p]);
    phases += field;
    accounted += seconds_[p];
  }
  char clock[160];
  if (started_at() < 0)
    std::snprintf(clock, sizeof clock, "main to the report, after the output is written (no /proc/self/stat)");
  else
    std::snprintf(clock, sizeof clock,
                  "process start from /proc/self/stat (resolution %.3g s) to the report, after the output is written",
                  1.0 / static_cast<double>(sysconf(_SC_CLK_TCK)));
  char text[640];
  std::snprintf(text, sizeof text,
                "{\"app\":\"%s\",\"total_s\":%.6f,\"phases\":{%s},\"other_s\":%.6f,\"clock\":\"%s\"}",
                app.c_str(), total, phases.c_str(), std::max(0.0, total - accounted), clock);
  return text;
}

void PhaseTimings::report(const std::string& app, const std::string& path) const {
  const std::string text = json(app);
  if (path == "-") {
    std::fflush(stdout);
    std::fprintf(stderr, "timings: %s\n", text.c_str());
    return;
  }
  std::ofstream file(path);
  if (file) file << text << '\n';
  if (!file) throw Error("--timings " + path + ": cannot write the timings (" + std::strerror(errno) + ")");
}

}  // namespace spgraph::apps
