// SPDX-License-Identifier: MIT
#pragma once
// A columnar cache of a loaded Kineto trace: the model written once, after the first parse, into
// the user's cache folder, and mapped on the next open of the same file instead of parsing it
// again. The file is keyed by the source's identity (size, mtime, a hash of its first and last
// MiB), versioned, and every block carries a checksum: a cache from another version, of another
// file or damaged (truncated, a killed writer, flipped bits) is refused and rebuilt, never
// trusted. It is written to a temporary file and renamed into place (not synced: a cache torn by
// a power loss fails its checksums), so a writer killed halfway leaves no cache behind. Every
// column (events, flows, instants, args text and offsets) stays mapped (model/column.h) and is
// checked from the file without touching the mapping, so a reopen costs the small model's memory
// and the pages a view reads.
//
// Format (native byte order, refused where the order or the model's layout differs):
//   header (64 bytes): magic "SUTRATC1", format version, the sizes of Event, Flow and Instant,
//                      the source's size, mtime in ns and head/tail hash, a byte-order mark
//   blocks, each at a 64-byte boundary, in any order (a streaming load's args text and events
//                      come first, from the second page): model (meta, names, categories, lanes,
//                      counters, problems, encoded field by field), events, flows, instants,
//                      args offsets (u64, count + 1), args text
//   directory: one entry a block {kind, offset, bytes, XXH3-64 of the bytes}, in kind order
//   footer (40 bytes): directory offset, block count, XXH3-64 of header + directory, the file's
//                      size, magic "SUTRAEND"
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/kineto_reader.h"
#include "model/trace.h"
#include "util/atomic_file.h"
#include "util/mapped_file.h"
#include "util/result.h"

namespace sutra {

inline constexpr std::uint32_t kTraceCacheFormatVersion = 1;

// What a cache was made from: a cache whose source differs in any of these is refused.
struct SourceIdentity {
  std::uint64_t size = 0;
  std::int64_t mtimeNs = 0;
  std::uint64_t headTailHash = 0;  // XXH3-64 of the first and last MiB
  bool operator==(const SourceIdentity&) const = default;
};
Result<SourceIdentity> sourceIdentity(const std::string& path);

struct TraceCacheOptions {
  bool enabled = true;
  // Files smaller than this are parsed every time (well under a second) and never cached.
  std::uint64_t minFileBytes = std::uint64_t{64} << 20;
  std::string folder;  // empty: defaultTraceCacheFolder()
  // The caches in the folder together stay under this: after a write, the least recently used
  // others are removed until they fit (a cache used is marked so by its mtime).
  std::uint64_t maxFolderBytes = std::uint64_t{32} << 30;
  // Files at least this big are read by the streaming load (kineto_reader.h's spillFolder)
  // straight into the cache (TraceCacheDraft), in bounded memory, and opened from it. By default
  // every file that is cached: on a 1 GB trace the streaming load is faster than the load into
  // memory with the cache written after it (docs/performance.md) at half its peak (0.35x the
  // file against 0.73x), and it opens files bigger than memory.
  std::uint64_t streamFromBytes = 0;
  // The defaults, changed by SUTRA_CACHE ("0"/"off": never; "always": any size),
  // SUTRA_CACHE_STREAM ("1"/"always": stream every cached file; "0"/"never": none),
  // SUTRA_CACHE_DIR (the folder) and SUTRA_CACHE_MAX_GB (maxFolderBytes).
  static TraceCacheOptions fromEnvironment();
};

// $SUTRA_CACHE_DIR, else $XDG_CACHE_HOME/sutra, else ~/.cache/sutra.
std::string defaultTraceCacheFolder();
// The cache file of `source` in `folder`: one per source path (a rebuilt cache replaces it).
std::string traceCachePath(const std::string& source, const std::string& folder);

// Writes `trace`, read from `source` (whose identity is `identity`, taken before the parse), to
// `cachePath` atomically. `afterBlock` (tests) is called after each block is written.
Status writeTraceCache(const Trace& trace, const SourceIdentity& identity,
                       const std::string& cachePath,
                       const std::function<void(int blocksWritten)>& afterBlock = {});
// A trace cache being written by a streaming load: the load lays its two largest columns, the
// args text and the events, straight into the cache's temporary file (columns() is the load's
// KinetoReadOptions::inPlace), and finish() writes the rest after them and renames the file into
// place, so that they are written once instead of spilled and then copied (the first open's
// largest cost on a 1 GB trace: docs/performance.md). Destroyed unfinished, it leaves nothing.
class TraceCacheDraft {
 public:
  static Result<std::unique_ptr<TraceCacheDraft>> create(const std::string& cachePath);
  ~TraceCacheDraft();
  KinetoReadOptions::InPlaceColumns* columns() { return &columns_; }
  // `trace` is what the load that was given columns() returned.
  Status finish(const Trace& trace, const SourceIdentity& identity,
                const std::function<void(int blocksWritten)>& afterBlock = {});
  // After a finish() that succeeded: the file written, for readTraceCache()'s `writtenHere`.
  std::optional<FileId> written() const { return written_; }

 private:
  explicit TraceCacheDraft(AtomicFile file);
  AtomicFile file_;
  KinetoReadOptions::InPlaceColumns columns_;
  std::optional<FileId> written_;
};

// The trace in the cache at `cachePath`, made from a source with `identity`; an Error saying why
// the cache is refused (missing, another version or source, truncated, a checksum that does not
// match, inconsistent indices). Where the file at `cachePath` is `writtenHere`, the file this
// process has just written (TraceCacheDraft::written()), its columns are not read and hashed
// again: their checksums were computed from these very bytes a moment ago. Everything else is
// checked as ever.
Result<Trace> readTraceCache(const std::string& cachePath, const SourceIdentity& identity,
                             const std::string& sourcePath,
                             std::optional<FileId> writtenHere = std::nullopt);

struct CachedTraceRead {
  Result<Trace> trace;
  bool fromCache = false;
  std::string note;  // why the cache was not written, where it could not be (read-only, full)
};
// readKinetoTrace() through the cache: the cached model where a valid cache exists, else the
// parse (always with every event's args, so that one cache serves every caller), after which
// the cache is written. A cache that cannot be written leaves the parsed trace as it is, with a
// note. A file of streamFromBytes or more is parsed by the streaming load into the cache and
// opened from it; where that fails for want of room, it is read into memory, with a note.
CachedTraceRead readKinetoTraceCached(const std::string& path, const KinetoReadOptions& options,
                                      const ProgressFn& progress, const TraceCacheOptions& cache);

}  // namespace sutra
