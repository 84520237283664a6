// SPDX-License-Identifier: MIT
#pragma once
// Streams one large array out of a JSON document without building a DOM: the "traceEvents" of a
// Kineto trace, the "nodes" of a PyTorch ET. The document is read in chunks; a byte scanner finds
// the array's complete elements in each chunk and hands them over as one batch, rewritten in place
// into a JSON array "[e1,e2,...]" with simdjson padding after it, so the caller parses a whole
// chunk with one simdjson call. Every other top-level member is handed over as raw JSON text. (Like
// Perfetto's chunked JSON tokenizer: memory is one chunk plus the caller's model.)
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_source.h"
#include "util/result.h"

namespace sutra {

struct JsonBatch {
  const char* data = nullptr;  // "[e1,...,en]" followed by at least kJsonPadding readable bytes
  std::size_t size = 0;
  std::size_t capacity = 0;      // readable bytes from data
  std::uint64_t fileOffset = 0;  // content offset of data[0], for error messages
  std::size_t elements = 0;      // 0 in a speculative batch: not counted
  // Cut at a likely element boundary found without scanning (JsonStreamHandlers::
  // speculativeSplit): valid only if it parses as whole elements, and with it every later batch.
  bool speculative = false;
};

inline constexpr std::size_t kJsonPadding = 64;  // >= SIMDJSON_PADDING

struct JsonStreamHandlers {
  // The streamed array's elements, a batch at a time. Return an Error to stop.
  std::function<Status(const JsonBatch&)> onBatch;
  // Optional, to save a copy of each batch: the scanner's buffer that holds the batch is handed
  // over with it (the callee keeps it for as long as it needs the batch) and the scanner reads on
  // into spareBuffer() (a buffer handed over earlier and no longer needed, or an empty vector).
  // The batch that ends where the array closes still comes through onBatch.
  std::function<Status(const JsonBatch&, std::vector<char>&& buffer)> onBatchBuffer;
  std::function<std::vector<char>()> spareBuffer;
  // Each other top-level member ("schemaVersion", "deviceProperties", ...) as raw JSON.
  std::function<void(std::string_view key, std::string_view rawValue)> onMember;
  // Progress in content bytes; return false to cancel.
  std::function<bool(std::uint64_t done)> onProgress;
  // Inside the array, cut batches where the bytes look like an element boundary ("}, {", the
  // last in each chunk) instead of scanning every byte for it: the scan was a fifth of the
  // reader's instructions, and the parser walks every byte anyway. A wrong guess (the pattern
  // inside a string or a nested object) leaves the batch before it ending inside an element, so
  // a parser that accepts a speculative batch only when it is exactly "[element, ...]" detects
  // it; the caller then loads again without speculation. Bytes the scan would check or repair
  // (raw control characters, malformed JSON) are left to that parser too.
  bool speculativeSplit = false;
};

struct JsonStreamSummary {
  bool foundArray = false;     // the named array (or a top-level array) was present
  bool topLevelArray = false;  // the document itself was the array
  std::uint64_t elements = 0;  // counted by the exact scan: a speculative batch's are not
  std::uint64_t contentBytes = 0;
  std::uint64_t controlCharactersReplaced = 0;    // raw control bytes in strings, made spaces
  std::uint64_t firstControlCharacterOffset = 0;  // content offset of the first one
  // The index of the element holding it (not known after speculative batches).
  std::uint64_t firstControlCharacterElement = kNotInArray;
  std::uint64_t speculativeBatches = 0;  // batches handed over with `speculative` set
  static constexpr std::uint64_t kNotInArray = UINT64_MAX;
};

// "byte N, in traceEvents[K]": where the first replaced control character was, for the problem's
// example.
std::string controlCharacterExample(const JsonStreamSummary& summary, std::string_view arrayKey);

// What a raw JSON value is, by its first byte: "an object", "a string", "a number", ... (for
// messages such as "traceEvents is not an array (found a number)").
std::string_view jsonValueKind(std::string_view raw);

// Streams `arrayKey` (or the document itself when it is an array) from `source`.
// Errors name the file and the byte offset: not JSON, truncated, malformed, cancelled.
Result<JsonStreamSummary> streamJsonArray(ByteSource& source, std::string_view arrayKey,
                                          const JsonStreamHandlers& handlers,
                                          std::size_t chunkBytes = 8 << 20);

}  // namespace sutra
