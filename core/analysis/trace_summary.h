// SPDX-License-Identifier: MIT
#pragma once
// What `sutra-cli info` (and the GUI's file overview) says about one trace file: its kind, schema
// and rank, how many events of which category on how many lanes, the devices, the time span and
// the recoverable problems the reader counted. Works for every kind discovery tells apart: Kineto
// traces, PyTorch ETs and ET+ (one event per node), and Chakra .et files (through their timeline).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/discover.h"
#include "model/et_trace.h"
#include "model/problems.h"
#include "model/time.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra {

struct DeviceSummary {
  std::string id;    // as PyTorch names it: "cuda:0", "mtia:17", "cpu"
  std::string name;  // from deviceProperties where the trace has it, else ""
};

struct TraceSummary {
  std::string path;
  FileKind kind = FileKind::Unknown;
  std::string schema;
  std::optional<int> rank;
  std::uint64_t events = 0;  // Kineto/Chakra: timeline events; ET: nodes
  // Events per category, most frequent first (ties by name). ET nodes: "operator", "thread root",
  // "process root"; an ET+'s device nodes by their "cat" (kernel, gpu_memcpy ...).
  std::vector<std::pair<std::string, std::uint64_t>> byCategory;
  std::uint64_t lanes = 0;  // timeline lanes; ET: distinct thread numbers (tid)
  std::uint64_t flows = 0;
  std::vector<DeviceSummary> devices;
  TimeNs spanNs = 0;  // last end - first start; ET: finish_ts - start_ts (steady-clock ms)
  std::vector<Problem> problems;
};

TraceSummary summarizeTrace(const Trace& trace);
TraceSummary summarizeEt(const EtTrace& et);

// Reads the file with the reader for its kind (as discovery classified it) and summarizes it;
// the reader's error otherwise. An Unknown file is an error: "PATH: REASON".
Result<TraceSummary> summarizeTraceFile(const DiscoveredFile& file);

}  // namespace sutra
