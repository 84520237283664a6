// SPDX-License-Identifier: MIT
#pragma once
// A small argument parser shared by the subcommands: options (--name VALUE, --name=VALUE, -o
// VALUE), flags, repeatable options and positional arguments, with clear errors for unknown
// options.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sutra::cli {

class Args {
 public:
  // `valued` names the options that take a value (e.g. {"--et", "-o", "--scale"}); every other
  // argument starting with '-' is a flag and must be in `flags`.
  static std::optional<Args> parse(int argc, char** argv, const std::set<std::string>& valued,
                                   const std::set<std::string>& flags, std::string& error);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;  // a repeatable option
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::set<std::string> flags_;
  std::multimap<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// Exit codes: 0 success, 1 a failed check (e.g. compare found a regression), 2 bad input or usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;

// Prints "sutra-cli COMMAND: MESSAGE" on stderr and returns kExitBadInput: every command's bad
// input.
int fail(const char* command, const std::string& message);

// While one lives, fail() names `command` instead of the one it is called for: `export --to
// chakra` runs convert, whose messages then say "sutra-cli export:".
class ShownCommand {
 public:
  explicit ShownCommand(const char* command);
  ~ShownCommand();
  ShownCommand(const ShownCommand&) = delete;
  ShownCommand& operator=(const ShownCommand&) = delete;

 private:
  const char* previous_;
};

// A JSON document as text for --json output. File names (and names read from traces) need not be
// UTF-8, which JSON text must be: invalid bytes are replaced by U+FFFD instead of failing the
// whole output. `indent` as nlohmann's dump (-1: one line).
template <typename Json>
std::string jsonText(const Json& doc, int indent = -1) {
  return doc.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace sutra::cli
