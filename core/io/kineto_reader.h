// SPDX-License-Identifier: MIT
#pragma once
// The Kineto reader's knobs, for tests, benchmarks and fuzzing; readers.h's readKinetoTrace() is
// the reader with its defaults.
#include <cstddef>
#include <string>

#include "io/readers.h"

namespace sutra {

struct KinetoReadOptions {
  // Bytes read at a time: small chunks make a small input take the paths of a large one (batches
  // cut by guessing, buffers handed over, elements across chunk ends).
  std::size_t chunkBytes = 512 << 10;
  // Off: every batch goes through simdjson (kineto_simdjson_parse.h) instead of the fast scanner
  // (kineto_fast_scanner.h) first, so a test can show that both give the same model.
  bool fastScanner = true;
  // Off: complete events keep no args text (Trace::eventArgsRead is false), for callers that read
  // none: the text is most of a trace's memory (about 60 % of the file) and a third of its load.
  // Instants keep theirs (the memory events' sizes are in them; they are few).
  bool eventArgs = true;
};

Result<Trace> readKinetoTrace(const std::string& path, const KinetoReadOptions& options,
                              const ProgressFn& progress = {});

}  // namespace sutra
