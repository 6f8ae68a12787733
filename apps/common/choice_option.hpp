#pragma once
// A flag that takes one of a few names ("--backend auto|gpu|cpu"), case-insensitive, shown in
// --help by its names rather than CLI11's enum numbers.
#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

namespace spgraph::apps {

template <class T>
using Choices = std::vector<std::pair<std::string, T>>;

// Adds `name` to cli; the chosen name's value is written to target. The help shows the names
// and, as the default, the name of target's value at the time of the call.
template <class T>
CLI::Option* add_choice(CLI::App& cli, const std::string& name, T& target, const Choices<T>& choices,
                        const std::string& description) {
  std::vector<std::string> names;
  std::string type, initial;
  for (const auto& [n, value] : choices) {
    names.push_back(n);
    type += (type.empty() ? "" : "|") + n;
    if (value == target) initial = n;
  }
  return cli
      .add_option_function<std::string>(
          name,
          [&target, choices](const std::string& chosen) {
            for (const auto& [n, value] : choices)
              if (CLI::detail::to_lower(n) == CLI::detail::to_lower(chosen)) target = value;
          },
          description)
      ->check(CLI::IsMember(names, CLI::ignore_case).description(""))  // the type name lists them
      ->type_name(type)
      ->default_str(initial);
}

}  // namespace spgraph::apps
