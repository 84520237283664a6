// SPDX-License-Identifier: MIT
// Kineto / Chrome-trace JSON -> Trace, the load itself. The traceEvents array is streamed in chunks
// (json_stream.h) and cut into batches; worker threads parse each batch (the fast scanner where it
// can, simdjson otherwise) into a self-contained KinetoBatch (kineto_batch.h); the calling thread
// merges batches in file order (kineto_batch_merger.h). Batches are first cut at guessed element
// boundaries, which only the fast scanner can check: where a guess or the file's oddities defeat
// that, the file is read a second time with every boundary found by the exact scan.
#include "io/kineto_reader.h"

#include <string>
#include <vector>

#include "io/batch_pipeline.h"
#include "io/byte_source.h"
#include "io/json_stream.h"
#include "io/kineto_batch.h"
#include "io/kineto_batch_merger.h"
#include "io/kineto_fast_scanner.h"
#include "io/kineto_simdjson_parse.h"

namespace sutra {
namespace {

// Per worker: parses a batch into a KinetoBatch, with the fast scanner first where allowed.
class BatchParser {
 public:
  BatchParser(const std::string& path, const KinetoReadOptions& options)
      : path_(path),
        fastScanner_(options.fastScanner),
        eventArgs_(options.eventArgs),
        simdjson_(path) {}

  Result<KinetoBatch> parse(const JsonBatch& batch) {
    // A speculative batch's elements are not counted: about 190 bytes an event.
    const std::size_t expected = batch.speculative ? batch.size / 160 : batch.elements;
    if (fastScanner_) {
      KinetoBatchBuilder builder(batch.fileOffset, expected, eventArgs_);
      if (scanPlainKinetoEvents(batch, builder)) return builder.take();
    }
    // The fast scanner accepts exactly "[object, ...]": a speculative batch it refuses may be cut
    // in the wrong place, and the whole file is read again without guessing (readKinetoTrace).
    if (batch.speculative)
      return makeError(path_, "a guessed batch boundary near byte " +
                                  std::to_string(batch.fileOffset) + " did not hold");
    // The batch has something the fast scanner leaves to simdjson: start it again from scratch.
    KinetoBatchBuilder builder(batch.fileOffset, expected, eventArgs_);
    if (auto s = simdjson_.parse(batch, builder, builder.problems()); !s) return s.error();
    return builder.take();
  }

 private:
  const std::string& path_;
  bool fastScanner_;
  bool eventArgs_;
  SimdjsonEventParser simdjson_;
};

// One pass over the file: the trace or the error, and whether batches were cut by guessing
// (json_stream.h's speculativeSplit) or the user cancelled.
struct LoadPass {
  Result<Trace> trace;
  bool guessed = false;
  bool cancelled = false;
};

LoadPass loadPass(const std::string& path, const ProgressFn& progress, bool guessBoundaries,
                  const KinetoReadOptions& options) {
  LoadPass pass{makeError(path, "not loaded")};
  auto opened = ByteSource::open(path);
  if (!opened) {
    pass.trace = opened.error();
    return pass;
  }
  ByteSource& source = **opened;

  KinetoBatchMerger merger(path, options.spillFolder, options.inPlace);
  const unsigned workers = parseWorkerCount();
  std::vector<BatchParser> parsers;
  for (unsigned w = 0; w < BatchPipeline<KinetoBatch>::parserCount(workers); ++w)
    parsers.emplace_back(path, options);
  BatchPipeline<KinetoBatch> pipeline(
      workers, [&](unsigned w, const JsonBatch& batch) { return parsers[w].parse(batch); },
      [&](KinetoBatch&& batch) { merger.merge(std::move(batch)); });

  JsonStreamHandlers handlers;
  handlers.speculativeSplit = guessBoundaries;
  handlers.onBatch = [&](const JsonBatch& batch) {
    pass.guessed |= batch.speculative;
    return pipeline.submit(batch);
  };
  handlers.onBatchBuffer = [&](const JsonBatch& batch, std::vector<char>&& buffer) {
    pass.guessed |= batch.speculative;
    return pipeline.submitBuffer(batch, std::move(buffer));
  };
  handlers.spareBuffer = [&] { return pipeline.spareBuffer(); };
  handlers.onMember = [&](std::string_view key, std::string_view raw) { merger.member(key, raw); };
  if (progress)
    handlers.onProgress = [&](std::uint64_t) {
      pass.cancelled = !progress(source.fileBytesRead(), source.fileSize());
      return !pass.cancelled;
    };
  auto summary = streamJsonArray(source, "traceEvents", handlers, options.chunkBytes);
  auto finished = pipeline.finish();
  // A batch that failed lies before wherever the scanner stopped: its error comes first in the
  // file, and taking it first makes the message the same whichever thread noticed its error first.
  if (!finished) {
    pass.trace = finished.error();
    return pass;
  }
  if (!summary) {
    pass.trace = summary.error();
    return pass;
  }
  if (summary->speculativeBatches > 0 && summary->controlCharactersReplaced > 0) {
    // The exact scan at the end repaired them, but guessed batches are not counted, so the
    // example's element index would be wrong: the pass without guessing gives the right one.
    pass.trace = makeError(path, "control characters after guessed batches");
    return pass;
  }
  if (summary->controlCharactersReplaced > 0)
    merger.problem(Severity::Warning, "raw control characters in strings (replaced with spaces)",
                   summary->controlCharactersReplaced,
                   controlCharacterExample(*summary, "traceEvents"));
  if (!summary->foundArray) {
    for (const auto& [k, v] : merger.members()) {
      if (k != "traceEvents") continue;
      pass.trace = makeError(path, "not a Kineto trace: traceEvents is not an array (found " +
                                       std::string(jsonValueKind(v)) + ")");
      return pass;
    }
    std::string keys;
    for (const auto& [k, v] : merger.members()) keys += (keys.empty() ? "" : ", ") + k;
    pass.trace =
        makeError(path, "not a Kineto trace: no \"traceEvents\" array (top-level members: " +
                            (keys.empty() ? std::string("none") : keys) + ")");
    return pass;
  }
  pass.trace = merger.finish();
  if (pass.trace) pass.trace->eventArgsRead = options.eventArgs;
  return pass;
}

}  // namespace

Result<Trace> readKinetoTrace(const std::string& path, const KinetoReadOptions& options,
                              const ProgressFn& progress) {
  // Without the fast scanner a guessed boundary could not be checked (simdjson might accept a
  // wrong cut): every batch is cut where the exact scan finds an element's end.
  LoadPass pass = loadPass(path, progress, options.fastScanner, options);
  if (pass.trace || !pass.guessed || pass.cancelled) return std::move(pass.trace);
  // A guessed boundary did not hold, or the file has something only the exact scan checks or
  // repairs (malformed JSON, raw control characters): read it again without guessing. Its result,
  // errors included, is the exact scan's.
  return std::move(loadPass(path, progress, false, options).trace);
}

Result<Trace> readKinetoTraceInChunks(const std::string& path, std::size_t chunkBytes) {
  KinetoReadOptions options;
  options.chunkBytes = chunkBytes;
  return readKinetoTrace(path, options);
}

Result<Trace> readKinetoTrace(const std::string& path, const ProgressFn& progress) {
  // Small chunks keep both cores busy and memory low: a batch every 512 KB (a batch costs
  // simdjson about five times its size in index and string buffers).
  return readKinetoTrace(path, KinetoReadOptions{}, progress);
}

}  // namespace sutra
