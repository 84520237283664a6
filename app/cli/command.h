// SPDX-License-Identifier: MIT
#pragma once
// Each subcommand lives in its own cmd_<name>.cpp and registers itself here, so adding a command
// touches no shared table. `run` gets the arguments after the subcommand's name.
#include <functional>
#include <string>
#include <vector>

namespace sutra::cli {

struct Command {
  std::string name;
  std::string summary;  // one line for `sutra-cli --help`
  int order;            // position in the help listing
  std::function<int(int argc, char** argv)> run;
};

std::vector<Command>& commands();

struct RegisterCommand {
  explicit RegisterCommand(Command command) { commands().push_back(std::move(command)); }
};

}  // namespace sutra::cli
