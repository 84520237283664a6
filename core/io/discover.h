// SPDX-License-Identifier: MIT
#pragma once
// Trace discovery: classify files by their content (never their name), find each file's rank and
// pair each rank's PyTorch execution trace with its Kineto trace, saying what stays unpaired and
// why. A file is sniffed from its first kilobytes (gunzipped when gzip); only an ET that may be an
// ET+ and a Kineto trace whose distributedInfo sits after its events are read further.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace sutra {

enum class FileKind {
  KinetoTrace,  // Chrome-trace JSON from torch.profiler: {"traceEvents": [...]} or a bare array
  PytorchEt,    // ExecutionTraceObserver JSON: {"schema", "nodes": [...]}
  LinkedEt,     // ET+ from a linker: an ET whose nodes carry ts / inclusive_dur / exclusive_dur
  ChakraEt,     // Chakra protobuf: varint-length-delimited GlobalMetadata then Nodes (maybe gzip)
  Unknown,
};

// "Kineto trace", "PyTorch ET", "ET+ (linked)", "Chakra ET", "unknown"
std::string_view fileKindName(FileKind kind);
// The name with its article, for messages: "a PyTorch ET", "an ET+ (linked)".
std::string fileKindWithArticle(FileKind kind);
// Stable identifiers for --json: "kineto", "pytorch_et", "linked_et", "chakra_et", "unknown"
std::string_view fileKindId(FileKind kind);

// The traceName of Sutra's simulated timeline (sutra-cli simulate -o, File > Export): discovery
// knows it from a recorded trace, so a timeline saved beside the traces never stands for a rank.
inline constexpr std::string_view kSimulatedTimelineName = "Sutra simulated timeline";

struct DiscoveredFile {
  std::string path;
  FileKind kind = FileKind::Unknown;
  bool simulated = false;   // a Kineto-format file that is Sutra's simulated timeline
  std::string schema;       // Kineto schemaVersion, ET schema, Chakra version ("" if none)
  std::optional<int> rank;  // from distributedInfo.rank, else the name, else 0 for one rank
  std::string reason;       // why Unknown, or notes ("rank from name", "rank 0 assumed")
};

struct RankGroup {
  int rank = 0;
  std::optional<std::string> kineto, et, linked;
  std::vector<std::string> chakra;  // one per rank normally; all are listed
};

struct Discovery {
  std::vector<DiscoveredFile> files;  // sorted by path
  std::vector<RankGroup> ranks;       // sorted by rank
  std::vector<std::string> notes;     // unpaired files and why, and what was not read
  // "PATH: not read: permission denied", "PATH: skipped: a FIFO (named pipe), not a regular
  // file": what a directory held that could not be read (also among the notes).
  std::vector<std::string> unreadable;
};

// Classifies one file. Errors only when the file cannot be read at all ("PATH: no such file or
// directory", "PATH: is a directory, not a trace file", "PATH: permission denied", "PATH: empty
// file", an empty, corrupt or truncated gzip before the kind could be told); a readable file that
// is no trace is FileKind::Unknown.
Result<FileKind> sniffTraceKind(const std::string& path, std::string* schema = nullptr);

// The same, with the rank found in the content or the name and the reason for an Unknown.
Result<DiscoveredFile> sniffTraceFile(const std::string& path);

// Files and/or directories (searched recursively). Errors: a path that does not exist, cannot be
// read, or a directory with no readable files. Files that cannot be classified are kept as Unknown
// with the reason; a subfolder that cannot be read, or a FIFO or device in a folder, is named in
// `unreadable` and the rest is read.
Result<Discovery> discoverTraces(const std::vector<std::string>& paths);

// The one Kineto trace that `paths` (files and/or directories) hold: the trace of `rank` where
// given, else the only one. Errors say why: a single file that is no Kineto trace says what it is
// or why it is no trace; several ranks without `rank` ask the user to choose one.
Result<std::string> findKinetoTrace(const std::vector<std::string>& paths,
                                    std::optional<int> rank = std::nullopt);

// A path for a Kineto reader: a directory becomes its one Kineto trace (findKinetoTrace); a file
// that is a trace of another kind is an error ("PATH: a Chakra ET, not a Kineto trace
// (torch.profiler JSON)", the GUI's words); any other path is returned as it is, so the reader
// reports its own problems.
Result<std::string> kinetoTraceAt(const std::string& path);

// The rank a file name states: "rank-3", "rank_3", "rank3" (also in the parent directory's name),
// "<prefix>.3.et", "<prefix>_3.json", "<prefix>_3_plus.json" (.gz too); nullopt if none.
std::optional<int> rankFromFileName(const std::string& path);

}  // namespace sutra
