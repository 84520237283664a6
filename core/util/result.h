// SPDX-License-Identifier: MIT
#pragma once
// A value or the reason there is none. Core never prints and never throws across its API: every
// fallible call returns Result<T>, and the message names the file and what is wrong with it.
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace sutra {

struct Error {
  std::string message;  // "PATH: what is wrong (at byte N)" -- shown as is by the CLI and the GUI
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// For calls that return nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

// A path as a message shows it: control characters (an ANSI escape, a newline in a file name) as
// \xNN, so that a name can neither restyle the terminal nor split the message in two.
inline std::string displayPath(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

inline Error makeError(const std::string& path, const std::string& what) {
  return Error{path.empty() ? what : displayPath(path) + ": " + what};
}

}  // namespace sutra
