#pragma once
// Wall-clock time of an app's phases (load, build, solve), as the user waits for them.
#include <chrono>
#include <cstdio>
#include <string>

namespace spgraph::apps {

class WallTimer {
 public:
  WallTimer() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

// "0.0123 s": four significant digits read well from microseconds to minutes.
inline std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g s", s);
  return buf;
}

}  // namespace spgraph::apps
