// SPDX-License-Identifier: MIT
#pragma once
// Every file Sutra writes (Chakra .et, ET+ JSON, Chrome-trace timelines) goes through here: the
// bytes go to a temporary file beside the target, which is renamed into place only when all of it
// is written, so a reader never sees half a file and a failure leaves nothing behind. An output
// that is one of the inputs it was made from is refused before anything is written.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace sutra {

struct AtomicFileOptions {
  bool gzip = false;                        // compress the stream (a .json.gz, a gzipped .et)
  std::vector<std::string> protectedPaths;  // the inputs: never overwritten
  // commit() waits for the file to reach the disk (fsync) before renaming it into place, so that
  // a power loss leaves the old file or the new one. false for a file that proves itself when
  // read (the trace cache's checksums): a power loss may leave a torn one, which is refused and
  // rebuilt, and a first open does not wait for the disk.
  bool durable = true;
};

class AtomicFile {
 public:
  // Refuses a path that is the same file as one of options.protectedPaths, and any existing target
  // that is not a regular file: a directory, a device (/dev/null), a FIFO, a socket, a symbolic
  // link (never followed into a replace). A missing parent directory is created. While the file
  // is being written, SIGINT and SIGTERM (where nobody else handles them) remove the temporary.
  static Result<AtomicFile> create(const std::string& path, const AtomicFileOptions& options = {});

  AtomicFile(AtomicFile&&) noexcept;
  AtomicFile& operator=(AtomicFile&&) noexcept;
  ~AtomicFile();  // an uncommitted file is removed

  Status write(std::string_view bytes);
  // A file laid out by offset rather than written front to back (a trace cache, whose largest
  // columns a streaming load maps in place through descriptor()): `bytes` at `offset`, and the
  // file cut or grown to `bytes` long. Not for a gzipped file.
  Status writeAt(std::uint64_t offset, std::string_view bytes);
  Status resize(std::uint64_t bytes);
  // The temporary file's descriptor, until commit(); -1 for a gzipped file.
  int descriptor() const;
  // Flushes, syncs and renames the temporary file to the target. After a failure nothing is left.
  Status commit();

  const std::string& path() const;

 private:
  struct State;
  explicit AtomicFile(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The whole of `bytes` as the file `path`, atomically.
Status writeFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicFileOptions& options = {});

// "x.json.gz", "x.et.gz": the name asks for a gzipped file.
bool hasGzipSuffix(std::string_view path);

// True when `output` names the same existing file as one of `inputs`.
bool isOneOfInputs(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace sutra
