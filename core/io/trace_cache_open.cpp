// SPDX-License-Identifier: MIT
// Opening a Kineto trace through its cache (trace_cache.h): where the cache lives, when it is
// used, the streaming load that writes it for a file not yet cached, and the folder kept under
// its limit. The cache file itself (format, writer, reader) is trace_cache.cpp.
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "io/trace_cache.h"
#include "util/scratch_array.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

// Removes the least recently used caches of `folder` other than `kept` until all of them fit in
// `maxBytes`; false, with `kept` removed and the others left alone, where `kept` alone does not.
bool keepFolderUnder(const std::string& folder, const std::string& kept, std::uint64_t maxBytes) {
  std::error_code ec;
  const std::uint64_t keptBytes = fs::file_size(kept, ec);
  if (ec || keptBytes > maxBytes) {
    fs::remove(kept, ec);
    return false;
  }
  struct Cache {
    fs::file_time_type used;
    std::uint64_t bytes;
    fs::path path;
  };
  std::vector<Cache> others;
  std::uint64_t total = keptBytes;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    std::error_code entryError;
    if (entry.path().extension() != ".sutracache" || !entry.is_regular_file(entryError) ||
        fs::equivalent(entry.path(), kept, entryError))
      continue;
    const std::uint64_t bytes = entry.file_size(entryError);
    const auto used = entry.last_write_time(entryError);
    if (entryError) continue;
    total += bytes;
    others.push_back({used, bytes, entry.path()});
  }
  std::sort(others.begin(), others.end(),
            [](const Cache& a, const Cache& b) { return a.used < b.used; });
  for (const Cache& c : others) {
    if (total <= maxBytes) break;
    if (fs::remove(c.path, ec)) total -= c.bytes;
  }
  return true;
}

// A writer killed halfway on a file system without unnamed files (O_TMPFILE), or in the moment
// between naming its file and renaming it, leaves its temporary file (AtomicFile's
// ".NAME.tmp-XXXXXX"), never trusted but as big as a cache: removed before the next write of the
// same cache, once it is old enough that no live writer can still be filling it.
void removeStaleTemporaries(const std::string& cachePath) {
  const fs::path target(cachePath);
  const std::string prefix = "." + target.filename().string() + ".tmp-";
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    if (entry.path().filename().string().rfind(prefix, 0) != 0) continue;
    std::error_code timeError;
    const auto written = entry.last_write_time(timeError);
    if (!timeError && now - written > std::chrono::minutes(10)) fs::remove(entry.path(), ec);
  }
}

}  // namespace

TraceCacheOptions TraceCacheOptions::fromEnvironment() {
  TraceCacheOptions options;
  if (const char* mode = std::getenv("SUTRA_CACHE")) {
    const std::string m = mode;
    if (m == "0" || m == "off" || m == "no") options.enabled = false;
    if (m == "always") options.minFileBytes = 0;
  }
  if (const char* stream = std::getenv("SUTRA_CACHE_STREAM"); stream && *stream) {
    const std::string m = stream;
    if (m == "1" || m == "always") options.streamFromBytes = 0;
    if (m == "0" || m == "never") options.streamFromBytes = UINT64_MAX;
  }
  if (const char* max = std::getenv("SUTRA_CACHE_MAX_GB"); max && *max)
    options.maxFolderBytes = static_cast<std::uint64_t>(std::max(0.0, std::atof(max)) * (1 << 30));
  return options;
}

std::string defaultTraceCacheFolder() { return sutraCacheFolder(); }

std::string traceCachePath(const std::string& source, const std::string& folder) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(source, ec), ec);
  if (ec) absolute = source;
  const std::string key = absolute.string();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(key.data(), key.size())));
  return (fs::path(folder) / (absolute.filename().string() + "." + hex + ".sutracache")).string();
}

namespace {

// The streaming load of `path` into the cache at `cachePath`, then the cache opened. The trace,
// or the file's own error (note empty), or an error with a note saying why the streaming load
// could not be done (no room for its files or the cache: the caller reads into memory instead).
std::string noted(const std::string& first, const std::string& then) {
  return first.empty() ? then : first + "; " + then;
}

CachedTraceRead streamIntoCache(const std::string& path, const SourceIdentity& identity,
                                KinetoReadOptions options, const ProgressFn& progress,
                                const std::string& folder, const std::string& cachePath,
                                std::uint64_t maxFolderBytes) {
  CachedTraceRead read{makeError(path, "not read"), false, {}};
  std::error_code ec;
  fs::create_directories(folder, ec);
  // The spilled columns and the cache together take about twice the file.
  if (const auto space = fs::space(folder, ec); ec || space.available < 2 * identity.size) {
    read.note = "no room in " + folder + " for the streaming load (" +
                std::to_string(2 * identity.size >> 20) + " MB needed)";
    return read;
  }
  options.spillFolder = folder;
  auto draft = TraceCacheDraft::create(cachePath);
  if (!draft) {
    read.note = "trace cache not written (" + draft.error().message + ")";
    return read;
  }
  options.inPlace = (*draft)->columns();
  try {
    Result<Trace> spilled = readKinetoTrace(path, options, progress);
    if (!spilled) {
      read.trace = std::move(spilled);
      return read;  // the file's own error, or a cancel
    }
    auto after = sourceIdentity(path);
    if (!after || !(*after == identity)) {
      read.trace = makeError(path, "the file changed while it was read");
      read.note = "the file changed while it was read: no cache written";
      return read;
    }
    if (auto written = (*draft)->finish(*spilled, identity); !written) {
      read.trace = written.error();
      read.note = "trace cache not written (" + written.error().message + ")";
      return read;
    }
  } catch (const std::exception& e) {  // a spill file that could not grow: no room
    read.trace = makeError(path, e.what());
    read.note = std::string("the streaming load stopped (") + e.what() + ")";
    return read;
  }
  if (!keepFolderUnder(folder, cachePath, maxFolderBytes)) {
    read.trace = makeError(cachePath, "larger than the cache folder's limit");
    read.note = "trace cache not kept: larger than the cache folder's limit (SUTRA_CACHE_MAX_GB)";
    return read;
  }
  read.trace = readTraceCache(cachePath, identity, path, (*draft)->written());
  if (!read.trace) read.note = "the trace cache just written was refused";
  return read;
}

}  // namespace

CachedTraceRead readKinetoTraceCached(const std::string& path, const KinetoReadOptions& options,
                                      const ProgressFn& progress, const TraceCacheOptions& cache) {
  const auto parse = [&](const KinetoReadOptions& o) {
    return CachedTraceRead{readKinetoTrace(path, o, progress), false, {}};
  };
  if (!cache.enabled) return parse(options);
  auto identity = sourceIdentity(path);
  if (!identity || identity->size < cache.minFileBytes) return parse(options);
  const std::string folder = cache.folder.empty() ? defaultTraceCacheFolder() : cache.folder;
  const std::string cachePath = traceCachePath(path, folder);
  std::error_code ec;
  if (fs::exists(cachePath, ec)) {
    auto cached = readTraceCache(cachePath, *identity, path);
    if (cached) {
      fs::last_write_time(cachePath, fs::file_time_type::clock::now(), ec);  // recently used
      if (progress) progress(identity->size, identity->size);
      CachedTraceRead read{std::move(cached), true, {}};
      return read;
    }
    fs::remove(cachePath, ec);  // refused: rebuilt below
  }
  KinetoReadOptions withArgs = options;
  withArgs.eventArgs = true;
  removeStaleTemporaries(cachePath);
  std::string streamNote;
  if (identity->size >= cache.streamFromBytes) {
    auto streamed = streamIntoCache(path, *identity, withArgs, progress, folder, cachePath,
                                    cache.maxFolderBytes);
    if (streamed.trace || streamed.note.empty()) return streamed;  // opened, or the file's error
    streamNote = streamed.note + "; read into memory instead";
  }
  CachedTraceRead read = parse(withArgs);
  read.note = streamNote;
  if (!read.trace) return read;
  // The source may have changed while it was parsed: then its cache would lie.
  auto after = sourceIdentity(path);
  if (!after || !(*after == *identity)) {
    read.note = noted(streamNote, "the file changed while it was read: no cache written");
    return read;
  }
  if (auto written = writeTraceCache(*read.trace, *identity, cachePath); !written)
    read.note = noted(streamNote, "trace cache not written (" + written.error().message +
                                      "): kept in memory only");
  else if (!keepFolderUnder(folder, cachePath, cache.maxFolderBytes))
    read.note = noted(streamNote,
                      "trace cache not kept: larger than the cache folder's limit "
                      "(SUTRA_CACHE_MAX_GB)");
  return read;
}

}  // namespace sutra
