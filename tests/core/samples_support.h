// SPDX-License-Identifier: MIT
#pragma once
// The synthetic samples (tests/data/synthetic_samples/<case>) and what their generator says they
// hold
// (<case>/expected.json, written by tools/samplegen from its own records).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sutra::test {

struct SampleCase {
  std::string name;
  std::string dir;
  nlohmann::json expected;
};

inline std::string samplesRoot() {
  return std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples";
}

// Every case folder with an expected.json, sorted by name.
inline std::vector<SampleCase> bundledSamples() {
  std::vector<SampleCase> out;
  for (const auto& entry : std::filesystem::directory_iterator(samplesRoot())) {
    const auto expected = entry.path() / "expected.json";
    if (!entry.is_directory() || !std::filesystem::exists(expected)) continue;
    std::ifstream in(expected);
    out.push_back(
        {entry.path().filename().string(), entry.path().string(), nlohmann::json::parse(in)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace sutra::test
