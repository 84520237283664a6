// SPDX-License-Identifier: MIT
#pragma once
// The general path for a batch of trace events: simdjson On Demand, for every batch the fast
// scanner (kineto_fast_scanner.h) gives up on. It accepts any JSON, repairs invalid UTF-8, skips
// elements that are not objects and reports malformed JSON with its byte offset.
#include <simdjson.h>

#include <string>

#include "io/json_stream.h"
#include "io/kineto_event_fields.h"
#include "model/problems.h"
#include "util/result.h"

namespace sutra {

// One per worker thread: simdjson's parser keeps its buffers from batch to batch.
class SimdjsonEventParser {
 public:
  explicit SimdjsonEventParser(const std::string& path) : path_(path) {}
  // Hands each event of `batch` to `sink` in file order, and what it repaired or skipped to
  // `problems`; an Error names the file and the byte where the JSON is malformed.
  Status parse(const JsonBatch& batch, RawEventSink& sink, ProblemLog& problems);

 private:
  Status parseEvent(simdjson::ondemand::object& object, std::uint64_t batchOffset,
                    RawEventSink& sink);

  const std::string& path_;
  simdjson::ondemand::parser parser_;
  std::string repaired_;  // a batch with its invalid UTF-8 replaced
};

}  // namespace sutra
