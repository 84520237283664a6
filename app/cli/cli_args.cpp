// SPDX-License-Identifier: MIT
#include "cli_args.h"

#include <cstdio>

namespace sutra::cli {

std::optional<Args> Args::parse(int argc, char** argv, const std::set<std::string>& valued,
                                const std::set<std::string>& flags, std::string& error) {
  Args args;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) args.positional_.emplace_back(argv[i]);
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      args.positional_.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool inlineValue = false;
    if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inlineValue = true;
    }
    if (valued.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= argc) {
          error = "option " + name + " needs a value";
          return std::nullopt;
        }
        value = argv[++i];
      }
      args.values_.emplace(name, value);
    } else if (flags.count(name) && !inlineValue) {
      args.flags_.insert(name);
    } else {
      error = "unknown option " + name;
      return std::nullopt;
    }
  }
  return args;
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto range = values_.equal_range(name);
  if (range.first == range.second) return std::nullopt;
  return std::prev(range.second)->second;  // the last one wins
}

std::vector<std::string> Args::values(const std::string& name) const {
  std::vector<std::string> out;
  for (auto [it, end] = values_.equal_range(name); it != end; ++it) out.push_back(it->second);
  return out;
}

namespace {
const char* gShownCommand = nullptr;
}  // namespace

ShownCommand::ShownCommand(const char* command) : previous_(gShownCommand) {
  gShownCommand = command;
}
ShownCommand::~ShownCommand() { gShownCommand = previous_; }

int fail(const char* command, const std::string& message) {
  std::fprintf(stderr, "sutra-cli %s: %s\n", gShownCommand ? gShownCommand : command,
               message.c_str());
  return kExitBadInput;
}

}  // namespace sutra::cli
