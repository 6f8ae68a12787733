#pragma once
// The skeleton every spgraph app runs in, so they all fail the same way:
//
//   int main(int argc, char** argv) {
//     return spgraph::apps::run_app("pagerank", argc, argv, [&](spgraph::apps::Command& cmd) {
//       cmd.cli().add_option(...);   // declare the flags
//       cmd.parse();                 // then parse them
//       ...                          // do the work
//       return 0;                    // the exit status
//     });
//   }
//
// An app that calls cmd.add_timings_option() takes --timings FILE: once the body returns, where
// the run's time went (PhaseTimings, marked by the app through cmd.timings()) is written there.
//
// Exit statuses: what the body returns; 0 after --help (CLI11 prints it); 2 for a usage
// error (bad or missing flags, UsageError); 1 for any other failure. Every failure is ONE
// line on stderr, "NAME: error: <what>", so scripts and users see the cause and nothing else.
// The readers name their own large allocations when they fail (file, what, bytes); any other
// std::bad_alloc says "out of host memory" and names the input the app was given (its GRAPH
// positional, or cmd.set_input), the one thing the user can weigh against their memory.
#include <CLI/CLI.hpp>

#include <new>
#include <string>

#include "mpi_job.hpp"
#include "phase_timer.hpp"
#include "spgraph/error.hpp"

namespace spgraph::apps {

// A flag combination CLI11 cannot check by itself (exit status 2, like CLI11's own).
class UsageError : public Error {
 public:
  using Error::Error;
};

// A failure every rank of an MPI job has agreed on and meets alike (--backend gpu where some
// rank has no GPU): printed once, by rank 0, exit 1; the job ends normally.
class JobWideError : public Error {
 public:
  using Error::Error;
};

class Command {
 public:
  Command(const char* name, int argc, char** argv);
  const std::string& name() const { return name_; }
  CLI::App& cli() { return cli_; }
  // Parses the command line against the declared flags; CLI::ParseError (including --help)
  // propagates to run_app.
  void parse();

  // The input the app works on, for the message of a std::bad_alloc: parse() takes the GRAPH
  // positional (input_options.hpp); an app whose positional is not its input says otherwise.
  void set_input(const std::string& input) { input_ = input; }
  const std::string& input() const { return input_; }

  // Declares --timings FILE (FILE "-": one "timings: {...}" line on stderr).
  CLI::Option* add_timings_option();
  PhaseTimings& timings() { return timings_; }
  // Writes the timings where --timings asked, if it was given.
  void report_timings() const;

 private:
  PhaseTimings timings_;  // first: its clock starts with the command
  std::string name_;
  int argc_;
  char** argv_;
  CLI::App cli_;
  std::string timings_path_;
  std::string input_;
};

// Prints "NAME: error: <message>" as one line (newlines in the message become "; ").
void print_error(const std::string& name, const std::string& message);

// "out of host memory working on FILE", or without an input "out of host memory".
std::string out_of_host_memory(const std::string& input);

// Runs body(Command&) and returns its exit status, turning every exception into the
// status and one-line message described above. Under mpirun (mpi_job.hpp) a failure after the
// flags are parsed ends the whole job with the failing rank's message; usage errors, which
// every rank meets alike, are printed once.
template <class Body>
int run_app(const char* name, int argc, char** argv, Body&& body) {
  try {
    MpiJob job(&argc, &argv);
    try {
      Command command(name, argc, argv);
      try {
        const int status = body(command);
        if (job.root()) command.report_timings();
        return status;
      } catch (const CLI::Success& e) {  // --help: CLI11 prints it
        return command.cli().exit(e);
      } catch (const CLI::ParseError&) {
        throw;
      } catch (const UsageError&) {
        throw;
      } catch (const JobWideError&) {
        throw;
      } catch (const std::bad_alloc&) {
        return job.fail(name, out_of_host_memory(command.input()), 1);
      }
    } catch (const CLI::ParseError& e) {
      return job.usage_error(name, std::string(e.what()) + " (see --help)", 2);
    } catch (const UsageError& e) {
      return job.usage_error(name, std::string(e.what()) + " (see --help)", 2);
    } catch (const JobWideError& e) {
      return job.usage_error(name, e.what(), 1);
    } catch (const std::bad_alloc&) {
      return job.fail(name, out_of_host_memory(""), 1);
    } catch (const std::exception& e) {
      return job.fail(name, e.what(), 1);
    } catch (...) {
      return job.fail(name, "unknown failure", 1);
    }
  } catch (const std::exception& e) {  // MPI failed to start
    print_error(name, e.what());
    return 1;
  }
}

}  // namespace spgraph::apps
