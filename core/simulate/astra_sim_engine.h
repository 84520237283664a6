// SPDX-License-Identifier: MIT
#pragma once
// ASTRA-sim as Sutra's engine beyond one machine: find its analytical (congestion-unaware)
// binary, run it on a Chakra export and the configurations `convert` wrote beside it, and read
// each rank's finish time from its log. ASTRA-sim is a separate program (never linked in): it is
// started directly, with no shell between, under a time limit, its output captured.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace sutra {

// The name of the binary ASTRA-sim's build/astra_analytical/build.sh makes.
inline constexpr const char* kAstraSimBinaryName = "AstraSim_Analytical_Congestion_Unaware";
// The environment variable that names the binary, before PATH is searched.
inline constexpr const char* kAstraSimEnvironment = "ASTRA_SIM";

// $ASTRA_SIM (which must be an executable file), else the binary on PATH. The error says how to
// point Sutra at it.
Result<std::string> findAstraSimBinary();

// What ASTRA-sim reads: the workload prefix (it opens <workload>.<npu>.et) and three configs.
struct AstraSimInputs {
  std::string workload;
  std::string system;
  std::string network;
  std::string memory;
  int npus = 0;  // the ranks, <workload>.0.et .. <workload>.<npus-1>.et
};

// A convert export given as its prefix (PREFIX.0.et beside PREFIX.network.yml ...) or as a folder
// holding one: the rank files counted from 0, the three configurations checked to exist.
Result<AstraSimInputs> astraSimInputsForExport(const std::string& prefixOrFolder);

struct AstraSimRankFinish {
  int rank = 0;
  std::int64_t cycles = 0;                  // the analytical backend's cycles are nanoseconds
  std::optional<std::int64_t> exposedComm;  // "exposed communication N cycles", where printed
};

// Every "sys[N] finished, X cycles, exposed communication Y cycles." line of a log, in rank
// order (a rank reported twice keeps its last line). ANSI colour codes are ignored.
std::vector<AstraSimRankFinish> parseAstraSimLog(std::string_view log);

struct AstraSimRunOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  std::size_t maxOutputBytes = 64u << 20;  // beyond this the output is cut (the run goes on)
  // Asked about once a second while ASTRA-sim runs; false stops it (the window's Cancel).
  std::function<bool()> keepGoing;
};

struct AstraSimRun {
  std::vector<AstraSimRankFinish> ranks;  // one for each of 0 .. npus-1
  std::string output;                     // stdout and stderr, interleaved
  std::string commandLine;                // for messages: what was run
};

// Runs `binary` on the inputs (its log folder a temporary directory, removed afterwards). An
// error when it cannot start, runs past the timeout (it is killed), is cancelled (keepGoing said
// false: it is killed), exits non-zero, or exits 0 with a rank that never finished (the message
// names the ranks and quotes the log's reason).
Result<AstraSimRun> runAstraSim(const std::string& binary, const AstraSimInputs& inputs,
                                const AstraSimRunOptions& options = {});

}  // namespace sutra
