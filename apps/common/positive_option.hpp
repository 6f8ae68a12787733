#pragma once
// A check for flags that must be above zero. CLI::PositiveNumber reports a bad value against
// the range it checks, whose upper end for a double is written out in full (309 digits); this
// says only what is wrong: "--tol: must be greater than 0, got 0".
#include <CLI/CLI.hpp>

#include <string>

namespace spgraph::apps {

inline CLI::Validator greater_than_zero() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "not a number: " + text;
        return value > 0 ? std::string() : "must be greater than 0, got " + text;
      },
      "POSITIVE");
}

}  // namespace spgraph::apps
