// SPDX-License-Identifier: MIT
#pragma once
// Paths to test data: the project's own fixtures (tests/data) and the real traces in ../shared.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace sutra::test {

inline std::string fixture(const std::string& relative) {
  return std::string(SUTRA_TEST_DATA) + "/" + relative;
}

inline bool sharedTracesPresent() { return std::filesystem::is_directory(SUTRA_SHARED_TRACES); }

inline std::string sharedTrace(const std::string& relative) {
  return std::string(SUTRA_SHARED_TRACES) + "/" + relative;
}

// What `command` (a shell command line) writes to its standard output.
inline std::string commandOutput(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
      out.append(buffer.data(), n);
    pclose(pipe);
  }
  return out;
}

}  // namespace sutra::test

// Skips the current test when ../shared/traces is not beside the project (a user's fresh clone).
#define SUTRA_REQUIRE_SHARED_TRACES()                                        \
  do {                                                                       \
    if (!::sutra::test::sharedTracesPresent())                               \
      GTEST_SKIP() << "../shared/traces is absent: real-trace test skipped"; \
  } while (0)
