#include "run_app.hpp"

#include <cstdio>

namespace spgraph::apps {

Command::Command(const char* name, int argc, char** argv)
    : name_(name), argc_(argc), argv_(argv), cli_("", name) {}

void Command::parse() { cli_.parse(argc_, argv_); }

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

}  // namespace spgraph::apps
