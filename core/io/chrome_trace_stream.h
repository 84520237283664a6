// SPDX-License-Identifier: MIT
#pragma once
// Writes a Chrome-trace JSON document ({...,"traceEvents":[...]}, which chrome://tracing, Perfetto
// and Sutra read) event by event into an AtomicFile, a megabyte at a time, so a timeline of
// millions of events never sits in memory as one string. Used for the measured timeline
// (kineto_writer) and the simulated one (simulate/timeline_export).
#include <string>
#include <string_view>

#include "model/time.h"
#include "util/atomic_file.h"
#include "util/result.h"

namespace sutra {

class ChromeTraceStream {
 public:
  // `topLevel` is raw JSON members written before "traceEvents" (`"k":v,"k2":v2`), may be empty.
  static Result<ChromeTraceStream> open(const std::string& path, std::string_view topLevel,
                                        const AtomicFileOptions& options = {});

  // Starts the next element of traceEvents and returns the buffer to append its JSON object to.
  std::string& event();
  // Closes the document and renames it into place; a write failure anywhere is reported here.
  Status finish();

 private:
  explicit ChromeTraceStream(AtomicFile file);
  void flushIfFull();

  AtomicFile file_;
  std::string buffer_;
  bool first_ = true;
  Status written_ = Ok{};
};

// Microseconds with three decimals from integer ns, exactly (no double on epoch-sized values).
void appendMicros(std::string& out, TimeNs ns);
// `text` as a JSON string literal, invalid UTF-8 replaced.
std::string jsonQuoted(std::string_view text);
// A Kineto pid or tid as written: a number where the text is one, else a string.
std::string jsonPidOrTid(std::string_view text);

}  // namespace sutra
