// SPDX-License-Identifier: MIT
#pragma once
// The Kineto reader's knobs, for tests, benchmarks and fuzzing; readers.h's readKinetoTrace() is
// the reader with its defaults.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/readers.h"
#include "util/file_region.h"

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
  // Non-empty: the load streams (kineto_batch_merger.h): the events, flow ends and args go to
  // unnamed temporary files in this folder as they are merged and the lanes are sorted there, so
  // that memory stays bounded whatever the file's size. The trace returned lies in those files,
  // for writing out as a trace cache (trace_cache.h), which is then what is opened. Throws
  // std::runtime_error where the folder takes no more (no room, not writable).
  std::string spillFolder;
  // Streaming, and given: the load lays its two largest columns in this file, where a trace cache
  // being written there keeps them (trace_cache.h), instead of copying them there afterwards: the
  // args text from byte `text.offset`, the events from the first page boundary after the text.
  // The load fills in where they ended.
  // Their checksums (io/block_checksum.h) come with them, taken as the bytes were written.
  struct InPlaceColumns {
    FileRegion text;
    std::uint64_t textBytes = 0;
    std::uint64_t textChecksum = 0;
    std::uint64_t eventsOffset = 0;
    std::uint64_t eventBytes = 0;
    std::uint64_t eventsChecksum = 0;
  };
  InPlaceColumns* inPlace = nullptr;
};

Result<Trace> readKinetoTrace(const std::string& path, const KinetoReadOptions& options,
                              const ProgressFn& progress = {});

}  // namespace sutra
