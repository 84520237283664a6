// SPDX-License-Identifier: MIT
#include "io/discover.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "io/byte_source.h"
#include "io/file_head.h"
#include "io/json_prefix_scanner.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;
using Container = JsonPrefixScanner::Container;

constexpr std::size_t kFirstRead = 64 * 1024;  // enough for every header in ../shared/traces
constexpr std::size_t kMoreRead = 256 * 1024;
constexpr std::size_t kSniffBudget = 8 * 1024 * 1024;  // never read more than this from the start
constexpr std::size_t kTailBytes = 64 * 1024;
// A gzip file is inflated through for its tail only up to this size on disk (~0.1 s of zlib).
constexpr std::uint64_t kTailGzipLimit = 8 * 1024 * 1024;
// An ET whose first this many nodes carry no link fields is not taken for an ET+ from its head.
constexpr std::uint64_t kEtNodesToInspect = 2000;
constexpr std::uint64_t kMaxMessage = 64 * 1024 * 1024;
constexpr int kMaxRank = 1000000;

std::optional<int> parseRank(std::string_view token) {
  int value = -1;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || value < 0 || value > kMaxRank)
    return std::nullopt;
  return value;
}

bool isLinkKey(std::string_view key) {
  return key == "inclusive_dur" || key == "exclusive_dur" || key == "ts" ||
         key == "inter_thread_dep";
}

bool isEtNodeKey(std::string_view key) {
  return key == "ctrl_deps" || key == "fw_parent" || key == "rf_id" || key == "op_schema";
}

// Watches the scanner's keys and values for what tells a Kineto trace from an ET from an ET+.
class TraceSniffVisitor final : public JsonPrefixScanner::Visitor {
 public:
  enum class Root { None, Object, Array, Scalar };
  Root root = Root::None;
  bool kineto = false;
  bool nodes = false;
  bool nodesClosed = false;
  bool etNodeShape = false;
  bool linked = false;
  bool schemaSeen = false;
  bool simulated = false;
  bool firstElementClosed = false;
  std::uint64_t nodesSeen = 0;
  std::string schemaVersion;  // Kineto
  std::string etSchema;
  std::optional<int> rank;

  bool onOpen(JsonPrefixScanner::Path path) override {
    if (path.size() == 1) root = path[0].type == Container::Object ? Root::Object : Root::Array;
    return true;
  }

  bool onKey(JsonPrefixScanner::Path path, std::string_view key) override {
    if (root == Root::Object && path.size() == 1) {
      if (key == "traceEvents") {
        kineto = true;
        return false;  // a rank after the events is looked for in the tail
      }
      if (key == "nodes") nodes = true;
    }
    if (root == Root::Array && path.size() == 2 && path[0].index == 0 && key == "ph") {
      kineto = true;
      return false;
    }
    if (inNode(path)) {
      if (isEtNodeKey(key)) etNodeShape = true;
      if (isLinkKey(key)) {
        linked = true;
        if (schemaSeen) return false;
      }
    }
    return true;
  }

  bool onValue(JsonPrefixScanner::Path path, std::string_view token, bool isString) override {
    if (path.empty()) {
      root = Root::Scalar;
      return false;
    }
    if (root == Root::Object && path.size() == 1) {
      if (path[0].key == "schemaVersion") schemaVersion.assign(token);
      if (path[0].key == "traceName" && isString && token == kSimulatedTimelineName)
        simulated = true;
      if (path[0].key == "schema" && isString) {
        etSchema.assign(token);
        schemaSeen = true;
        if (nodesClosed) return false;
      }
    }
    if (root == Root::Object && path.size() == 2 && path[0].key == "distributedInfo" &&
        path[1].type == Container::Object && path[1].key == "rank" && !isString)
      rank = parseRank(token);
    return true;
  }

  bool onClose(JsonPrefixScanner::Path path, Container closed) override {
    if (root == Root::Array && path.size() == 1 && path[0].index == 0) {
      firstElementClosed = true;  // the first event has no "ph": not a trace
      return false;
    }
    if (root == Root::Object && path.size() == 2 && path[0].key == "nodes" &&
        closed == Container::Object) {
      if (++nodesSeen >= kEtNodesToInspect && schemaSeen) return false;
    }
    if (root == Root::Object && path.size() == 1 && path[0].key == "nodes" &&
        closed == Container::Array) {
      nodesClosed = true;
      if (schemaSeen) return false;
    }
    return true;
  }

 private:
  bool inNode(JsonPrefixScanner::Path path) const {
    return root == Root::Object && path.size() == 3 && path[0].key == "nodes" &&
           path[1].type == Container::Array && path[2].type == Container::Object;
  }
};

// Reads the value of the "rank" key of the first object in `text`.
class RankVisitor final : public JsonPrefixScanner::Visitor {
 public:
  std::optional<int> rank;
  bool onOpen(JsonPrefixScanner::Path) override { return true; }
  bool onKey(JsonPrefixScanner::Path, std::string_view) override { return true; }
  bool onValue(JsonPrefixScanner::Path path, std::string_view token, bool isString) override {
    if (path.size() == 1 && path[0].key == "rank" && !isString) {
      rank = parseRank(token);
      return false;
    }
    return true;
  }
  bool onClose(JsonPrefixScanner::Path, Container) override { return true; }
};

// distributedInfo.rank in the last kilobytes of a file (where torch.profiler writes it after the
// events).
std::optional<int> rankInTail(std::string_view tail) {
  const auto at = tail.rfind("\"distributedInfo\"");
  if (at == std::string_view::npos) return std::nullopt;
  const auto open = tail.find('{', at);
  if (open == std::string_view::npos) return std::nullopt;
  RankVisitor visitor;
  JsonPrefixScanner scanner(visitor);
  scanner.feed(tail.substr(open), true);
  return visitor.rank;
}

// --- Chakra protobuf -----------------------------------------------------------------------------

bool readVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= bytes.size()) return false;
    const auto b = static_cast<unsigned char>(bytes[pos++]);
    value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

struct WireField {
  std::uint64_t number = 0;
  int wireType = 0;
  std::string_view payload;  // wire type 2
};

// Walks a protobuf message's fields; false unless it is well formed to its last byte and `visit`
// accepts every field.
template <typename Visit>
bool walkMessage(std::string_view message, Visit&& visit) {
  std::size_t pos = 0;
  while (pos < message.size()) {
    std::uint64_t tag = 0, value = 0;
    if (!readVarint(message, pos, tag)) return false;
    WireField field;
    field.number = tag >> 3;
    field.wireType = static_cast<int>(tag & 7);
    if (field.number == 0) return false;
    switch (field.wireType) {
      case 0:
        if (!readVarint(message, pos, value)) return false;
        break;
      case 1:
        if (message.size() - pos < 8) return false;
        pos += 8;
        break;
      case 2:
        if (!readVarint(message, pos, value) || value > message.size() - pos) return false;
        field.payload = message.substr(pos, static_cast<std::size_t>(value));
        pos += static_cast<std::size_t>(value);
        break;
      case 5:
        if (message.size() - pos < 4) return false;
        pos += 4;
        break;
      default:
        return false;  // groups (3, 4) and 6, 7 do not occur in et_def.proto
    }
    if (!visit(field)) return false;
  }
  return true;
}

bool printable(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 || c == '\t' || c == '\n' || c == '\r';
  });
}

// GlobalMetadata: version = 1 (string), attr = 2 (AttributeProto); nothing else.
bool checkMetadata(std::string_view message, std::string& version, std::string& schemaAttr) {
  return walkMessage(message, [&](const WireField& f) {
    if (f.wireType != 2) return false;
    if (f.number == 1) {
      if (!printable(f.payload) || f.payload.size() > 256) return false;
      version.assign(f.payload);
      return true;
    }
    if (f.number != 2) return false;
    std::string_view name, stringValue;
    const bool ok = walkMessage(f.payload, [&](const WireField& a) {
      if (a.number == 1) {
        if (a.wireType != 2 || !printable(a.payload)) return false;
        name = a.payload;
      } else if (a.number == 29 && a.wireType == 2) {
        stringValue = a.payload;
      }
      return a.number <= 32;
    });
    if (ok && name == "schema" && printable(stringValue)) schemaAttr.assign(stringValue);
    return ok;
  });
}

// Node: id 1, name 2, type 3, ctrl_deps 4, data_deps 5, start 6, duration 7, inputs 8, outputs 9,
// attr 10, each with its wire type (repeated ids packed or not); later fields are tolerated.
bool checkNode(std::string_view message) {
  return walkMessage(message, [](const WireField& f) {
    switch (f.number) {
      case 1:
      case 3:
      case 6:
      case 7:
        return f.wireType == 0;
      case 2:
      case 8:
      case 9:
      case 10:
        return f.wireType == 2;
      case 4:
      case 5:
        return f.wireType == 0 || f.wireType == 2;
      default:
        return f.number > 10;
    }
  });
}

enum class Verdict { Yes, No, NeedMore };

// A Node that says what it is, as every node a converter writes does: a printable name (field 2)
// and a type (field 3), where a GlobalMetadata has only fields 1 and 2 and a run of blanks reads
// as field 4 over and over.
bool nodeShaped(std::string_view message) {
  bool named = false, typed = false;
  const bool ok = walkMessage(message, [&](const WireField& f) {
    if (f.number == 2 && f.wireType == 2 && !f.payload.empty() && printable(f.payload))
      named = true;
    if (f.number == 3 && f.wireType == 0) typed = true;
    return true;
  });
  return ok && named && typed && checkNode(message);
}

Verdict checkChakra(std::string_view bytes, bool complete, std::string& schema) {
  std::size_t pos = 0;
  std::uint64_t length = 0;
  auto short_ = [&] { return complete ? Verdict::No : Verdict::NeedMore; };
  if (!readVarint(bytes, pos, length)) return short_();
  if (length > kMaxMessage) return Verdict::No;
  if (length > bytes.size() - pos) return short_();
  std::string version, schemaAttr;
  const std::string_view first = bytes.substr(pos, length);
  // Chakra files of 2023 have no GlobalMetadata: they start with a node.
  const bool startsWithNode = length > 0 && nodeShaped(first);
  if (!startsWithNode && !checkMetadata(first, version, schemaAttr)) return Verdict::No;
  const bool emptyMetadata = length == 0;
  pos += length;
  schema = !version.empty() ? version : schemaAttr;
  if (pos == bytes.size())
    return complete ? (emptyMetadata ? Verdict::No : Verdict::Yes) : Verdict::NeedMore;
  if (!readVarint(bytes, pos, length)) return short_();
  if (length > kMaxMessage) return Verdict::No;
  if (length > bytes.size() - pos) return short_();
  // An empty node (a zero length) is what a run of zeros reads as: no trace has one.
  if (length == 0) return Verdict::No;
  return checkNode(bytes.substr(pos, length)) ? Verdict::Yes : Verdict::No;
}

// "found 0x00 at byte 0 (all 65536 bytes read are zeros)": a file of zeros (a preallocated or
// never-written file) said as such.
std::string zerosProblem(const std::string& text, std::size_t start) {
  std::size_t zeros = start;
  while (zeros < text.size() && text[zeros] == '\0') ++zeros;
  std::string what = "found 0x00 at byte " + std::to_string(start);
  if (zeros == text.size())
    what += " (all " + std::to_string(text.size()) + " bytes read are zeros)";
  return what;
}

// --- Sniffing ------------------------------------------------------------------------------------

std::size_t firstSignificant(const std::string& text) {
  std::size_t i = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // UTF-8 byte-order mark
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    ++i;
  return i;
}

std::string budgetText() { return std::to_string(kSniffBudget / (1024 * 1024)) + " MB"; }

}  // namespace

std::string fileKindWithArticle(FileKind kind) {
  const std::string_view name = fileKindName(kind);
  // "ET" and "unknown" are said with a vowel first; the other names are not.
  const bool vowel = name.starts_with("ET") || name.starts_with("unknown");
  return (vowel ? "an " : "a ") + std::string(name);
}

std::string_view fileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::KinetoTrace:
      return "Kineto trace";
    case FileKind::PytorchEt:
      return "PyTorch ET";
    case FileKind::LinkedEt:
      return "ET+ (linked)";
    case FileKind::ChakraEt:
      return "Chakra ET";
    case FileKind::Unknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view fileKindId(FileKind kind) {
  switch (kind) {
    case FileKind::KinetoTrace:
      return "kineto";
    case FileKind::PytorchEt:
      return "pytorch_et";
    case FileKind::LinkedEt:
      return "linked_et";
    case FileKind::ChakraEt:
      return "chakra_et";
    case FileKind::Unknown:
      return "unknown";
  }
  return "unknown";
}

std::optional<int> rankFromFileName(const std::string& path) {
  static const std::regex rankWord("rank[-_]?([0-9]{1,6})", std::regex::icase);
  static const std::regex etSuffix("[._]([0-9]{1,6})\\.et(\\.gz)?$", std::regex::icase);
  static const std::regex jsonSuffix("_([0-9]{1,6})\\.json(\\.gz)?$", std::regex::icase);
  // ET+ files of a linker, one per rank: "dlrm_eg_3_plus.json".
  static const std::regex plusSuffix("_([0-9]{1,6})_plus\\.json(\\.gz)?$", std::regex::icase);
  const fs::path p(path);
  const std::string name = p.filename().string();
  std::smatch m;
  if (std::regex_search(name, m, rankWord) || std::regex_search(name, m, etSuffix) ||
      std::regex_search(name, m, jsonSuffix) || std::regex_search(name, m, plusSuffix))
    return parseRank(m[1].str());
  const std::string dir = p.parent_path().filename().string();
  if (std::regex_search(dir, m, rankWord)) return parseRank(m[1].str());
  return std::nullopt;
}

Result<DiscoveredFile> sniffTraceFile(const std::string& path) {
  auto opened = FileHead::open(path);
  if (!opened) return opened.error();
  FileHead& head = *opened;
  DiscoveredFile out;
  out.path = path;

  std::optional<Error> readError;  // a gzip error after some text: decide from that text if we can
  auto readMore = [&](std::size_t bytes) {
    if (readError || head.atEnd()) return false;
    if (auto ok = head.readMore(bytes); !ok) {
      readError = ok.error();
      return false;
    }
    return true;
  };
  readMore(kFirstRead);
  if (head.text().empty()) {
    if (readError) return *readError;
    return makeError(path, std::string(kEmptyGzipMessage));
  }
  const auto ended = [&] { return head.atEnd() || readError.has_value(); };

  const std::size_t start = firstSignificant(head.text());
  const char first = start < head.text().size() ? head.text()[start] : '\0';
  bool decided = false;
  std::string jsonProblem;
  if (first == '{' || first == '[') {
    TraceSniffVisitor visitor;
    JsonPrefixScanner scanner(visitor);
    std::size_t fed = start;
    JsonPrefixScanner::Status status;
    for (;;) {
      status = scanner.feed(std::string_view(head.text()).substr(fed), ended());
      fed = head.text().size();
      if (status != JsonPrefixScanner::Status::NeedMore || ended() || fed >= kSniffBudget) break;
      readMore(kMoreRead);
    }
    const std::uint64_t at = scanner.errorOffset() + start;
    if (visitor.kineto) {
      out.kind = FileKind::KinetoTrace;
      out.schema = visitor.schemaVersion;
      out.rank = visitor.rank;
      out.simulated = visitor.simulated;
      if (visitor.simulated) out.reason = "Sutra's simulated timeline";
      decided = true;
    } else if (visitor.nodes && (visitor.schemaSeen || visitor.etNodeShape)) {
      out.kind = visitor.linked ? FileKind::LinkedEt : FileKind::PytorchEt;
      out.schema = visitor.etSchema;
      out.rank = visitor.rank;
      if (!visitor.schemaSeen) out.reason = "no \"schema\" before the nodes";
      decided = true;
    } else if (status == JsonPrefixScanner::Status::Invalid) {
      if (scanner.error().rfind("the text ends", 0) == 0 && readError) return *readError;
      jsonProblem = "invalid JSON at byte " + std::to_string(at) + ": " + scanner.error();
    } else if (visitor.root == TraceSniffVisitor::Root::Array) {
      jsonProblem = visitor.firstElementClosed ? "a JSON array whose first element has no \"ph\""
                                               : "an empty JSON array";
    } else if (visitor.root == TraceSniffVisitor::Root::Object) {
      if (status == JsonPrefixScanner::Status::Done)
        jsonProblem = visitor.nodes ? "a JSON object with \"nodes\" but no \"schema\""
                                    : "a JSON object without \"traceEvents\" or \"nodes\"";
      else
        jsonProblem = "no \"traceEvents\" or \"nodes\" in the first " + budgetText();
    } else {
      jsonProblem = "JSON that is neither an object nor an array";
    }
  }

  if (!decided) {
    // Chakra's protobuf (its first byte is a length, which may even be '{').
    for (;;) {
      const auto verdict = checkChakra(head.text(), ended(), out.schema);
      if (verdict == Verdict::Yes) {
        out.kind = FileKind::ChakraEt;
        decided = true;
        break;
      }
      if (verdict == Verdict::No || ended() || head.text().size() >= kSniffBudget) break;
      readMore(kMoreRead);
    }
    if (!decided) {
      out.schema.clear();
      if (readError) return *readError;
      out.kind = FileKind::Unknown;
      if (jsonProblem.empty() && first == '\0' && start < head.text().size())
        jsonProblem = zerosProblem(head.text(), start);
      out.reason = "not a trace: " + (jsonProblem.empty()
                                          ? std::string("neither JSON nor a Chakra protobuf trace")
                                          : jsonProblem);
      return out;
    }
  }

  // What the head did not say may be at the end: torch.profiler writes distributedInfo after the
  // events, and a linker appends its device nodes (with inclusive_dur) after the CPU nodes.
  const bool needRank = out.kind == FileKind::KinetoTrace && !out.rank;
  const bool needLink = out.kind == FileKind::PytorchEt;
  if ((needRank || needLink) && !readError) {
    std::string tail;
    if (head.atEnd()) {
      tail = head.text().size() > kTailBytes ? head.text().substr(head.text().size() - kTailBytes)
                                             : head.text();
    } else if (auto t = readFileTail(path, kTailBytes, kTailGzipLimit)) {
      tail = std::move(*t);
    }
    if (needRank) out.rank = rankInTail(tail);
    if (needLink && (tail.find("\"inclusive_dur\"") != std::string::npos ||
                     tail.find("\"exclusive_dur\"") != std::string::npos))
      out.kind = FileKind::LinkedEt;
  }
  if (!out.rank) {
    out.rank = rankFromFileName(path);
    if (out.rank) out.reason = out.reason.empty() ? "rank from the file name" : out.reason;
  }
  return out;
}

Result<FileKind> sniffTraceKind(const std::string& path, std::string* schema) {
  auto file = sniffTraceFile(path);
  if (!file) return file.error();
  if (schema) *schema = file->schema;
  return file->kind;
}

// --- Discovery -----------------------------------------------------------------------------------

namespace {

std::string stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (const char* ext : {".gz", ".json", ".et", ".trace", ".pt"}) {
    const std::string e(ext);
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      name.resize(name.size() - e.size());
  }
  return name;
}

// How well an ET and a Kineto trace of one rank belong together: the same directory first, then
// the longest common name prefix ("linear_et" with "linear_kineto").
std::size_t pairScore(const std::string& a, const std::string& b) {
  const std::string sa = stem(a), sb = stem(b);
  std::size_t common = 0;
  while (common < sa.size() && common < sb.size() && sa[common] == sb[common]) ++common;
  const bool sameDir = fs::path(a).parent_path() == fs::path(b).parent_path();
  return (sameDir ? 100000 : 0) + common;
}

std::string describeSpecial(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a FIFO (named pipe)";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "a special file";
  }
}

std::string reasonFor(const std::error_code& ec) {
  if (ec == std::errc::permission_denied) return "permission denied";
  return ec.message();
}

// The files under `dir`, recursively (symbolic links to directories are not followed, as
// recursive_directory_iterator does not). What cannot be read (a folder without permission) or is
// no regular file is named in `skipped`, and the rest is still read.
void walkDirectory(const fs::path& dir, std::vector<std::string>& out,
                   std::vector<std::string>& skipped, int depth) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    skipped.push_back(displayPath(dir.string()) + ": not read: " + reasonFor(ec));
    return;
  }
  std::vector<fs::directory_entry> entries;
  for (; it != end; it.increment(ec)) {
    if (ec) {
      skipped.push_back(displayPath(dir.string()) + ": not read to the end: " + reasonFor(ec));
      break;
    }
    entries.push_back(*it);
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& entry : entries) {
    std::error_code fe;
    const auto linkStatus = entry.symlink_status(fe);
    if (fs::is_directory(linkStatus)) {
      // Sutra's own cache beside a run (rank summaries) holds no trace.
      if (entry.path().filename() == ".sutra-cache") continue;
      if (depth < 64) walkDirectory(entry.path(), out, skipped, depth + 1);
      continue;
    }
    const auto status = entry.status(fe);
    if (fs::is_regular_file(status)) {
      out.push_back(entry.path().string());
    } else if (fs::is_symlink(linkStatus) && fe) {
      skipped.push_back(displayPath(entry.path().string()) + ": skipped: " + reasonFor(fe) +
                        " (a symbolic link that leads nowhere)");
    } else if (!fs::is_directory(status) && fs::exists(status)) {
      skipped.push_back(displayPath(entry.path().string()) +
                        ": skipped: " + describeSpecial(status.type()) + ", not a regular file");
    }
  }
}

Status collect(const std::string& given, std::vector<std::string>& out,
               std::vector<std::string>& skipped) {
  std::error_code ec;
  const fs::file_status st = fs::status(given, ec);
  if (ec || !fs::exists(st)) {
    // The reason stat() gives: a loop of links, a permission, or no such file.
    if (auto ok = FileHead::open(given); !ok) return ok.error();
    return openError(given, ENOENT);
  }
  if (!fs::is_directory(st)) {
    if (auto ok = FileHead::open(given); !ok) return ok.error();
    out.push_back(given);
    return Ok{};
  }
  const std::size_t before = out.size(), skippedBefore = skipped.size();
  fs::directory_iterator probe(given, ec);
  if (ec) return makeError(given, reasonFor(ec));
  walkDirectory(given, out, skipped, 0);
  if (out.size() == before) {
    if (skipped.size() == skippedBefore)
      return makeError(given, "empty directory: no files in it or below");
    std::string why = skipped[skippedBefore];
    if (skipped.size() > skippedBefore + 1)
      why += " (and " + std::to_string(skipped.size() - skippedBefore - 1) + " more)";
    return makeError(given, "no readable files in it or below; " + why);
  }
  return Ok{};
}

}  // namespace

Result<Discovery> discoverTraces(const std::vector<std::string>& paths) {
  if (paths.empty()) return Error{"no trace files or directories given"};
  std::vector<std::string> files, skipped;
  for (const auto& p : paths)
    if (auto ok = collect(p, files, skipped); !ok) return ok.error();

  // One entry per file, even when it is named twice (directly and through its directory).
  std::set<std::string> seen;
  Discovery d;
  for (const auto& f : files) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(f, ec);
    if (!seen.insert(ec ? f : canonical.string()).second) continue;
    auto sniffed = sniffTraceFile(f);
    if (sniffed) {
      d.files.push_back(std::move(*sniffed));
    } else {
      DiscoveredFile bad;
      bad.path = f;
      bad.reason = sniffed.error().message;
      const std::string shown = displayPath(f) + ": ";
      if (bad.reason.rfind(shown, 0) == 0) bad.reason.erase(0, shown.size());
      d.files.push_back(std::move(bad));
    }
  }
  std::sort(d.files.begin(), d.files.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });

  // Files without a rank are rank 0 when the traces are of one rank; else they stay ungrouped.
  std::set<int> known;
  for (const auto& f : d.files)
    if (f.kind != FileKind::Unknown && f.rank) known.insert(*f.rank);
  const bool singleRank = known.empty() || (known.size() == 1 && *known.begin() == 0);
  for (auto& f : d.files) {
    if (f.kind == FileKind::Unknown || f.rank) continue;
    if (singleRank) {
      f.rank = 0;
      if (f.reason.empty()) f.reason = "rank 0 assumed: no rank in the content or the name";
    } else {
      d.notes.push_back(f.path + ": " + std::string(fileKindName(f.kind)) +
                        " with no rank in its content or name among traces of several ranks: "
                        "not grouped");
    }
  }

  struct Candidates {
    std::vector<std::string> kineto, et, linked, chakra;
    std::vector<std::string> simulated;  // Sutra's simulated timelines: a rank's trace if alone
  };
  std::map<int, Candidates> byRank;
  for (const auto& f : d.files) {
    if (f.kind == FileKind::Unknown || !f.rank) continue;
    auto& c = byRank[*f.rank];
    switch (f.kind) {
      case FileKind::KinetoTrace:
        (f.simulated ? c.simulated : c.kineto).push_back(f.path);
        break;
      case FileKind::PytorchEt:
        c.et.push_back(f.path);
        break;
      case FileKind::LinkedEt:
        c.linked.push_back(f.path);
        break;
      case FileKind::ChakraEt:
        c.chakra.push_back(f.path);
        break;
      case FileKind::Unknown:
        break;
    }
  }

  for (auto& [rank, c] : byRank) {
    RankGroup g;
    g.rank = rank;
    const std::string rankText = "rank " + std::to_string(rank);
    // A simulated timeline saved beside the recorded traces is no recording of the rank: it
    // stands for the rank only where nothing else of it was recorded.
    const bool recorded =
        !c.kineto.empty() || !c.et.empty() || !c.linked.empty() || !c.chakra.empty();
    for (const auto& s : c.simulated) {
      if (recorded)
        d.notes.push_back(s + ": left out: Sutra's simulated timeline of " + rankText +
                          ", not a recorded trace (open it on its own to see it)");
      else
        c.kineto.push_back(s);
    }
    // The best-matching ET and Kineto trace of this rank form its pair.
    if (!c.et.empty() && !c.kineto.empty()) {
      std::size_t best = 0, bi = 0, bk = 0;
      for (std::size_t i = 0; i < c.et.size(); ++i)
        for (std::size_t k = 0; k < c.kineto.size(); ++k)
          if (auto s = pairScore(c.et[i], c.kineto[k]); s > best) {
            best = s;
            bi = i;
            bk = k;
          }
      g.et = c.et[bi];
      g.kineto = c.kineto[bk];
    } else if (!c.et.empty()) {
      g.et = c.et.front();
    } else if (!c.kineto.empty()) {
      g.kineto = c.kineto.front();
    }
    if (!c.linked.empty()) g.linked = c.linked.front();
    g.chakra = c.chakra;

    for (const auto& k : c.kineto)
      if (k != g.kineto)
        d.notes.push_back(k + ": unpaired: another Kineto trace of " + rankText + " (" + *g.kineto +
                          ") is paired" + (g.et ? " with " + *g.et : ""));
    for (const auto& e : c.et)
      if (e != g.et)
        d.notes.push_back(e + ": unpaired: another execution trace of " + rankText + " (" + *g.et +
                          ") is paired" + (g.kineto ? " with " + *g.kineto : ""));
    for (const auto& l : c.linked)
      if (l != g.linked)
        d.notes.push_back(l + ": not used: another ET+ of " + rankText + " (" + *g.linked + ")");
    if (g.et && !g.kineto)
      d.notes.push_back(*g.et + ": unpaired: no Kineto trace of " + rankText +
                        " to link this execution trace with");
    if (g.kineto && !g.et && !g.linked)
      d.notes.push_back(*g.kineto + ": unpaired: no execution trace of " + rankText +
                        " (the timeline can be shown, not linked)");
    d.ranks.push_back(std::move(g));
  }
  for (const auto& f : d.files)
    if (f.kind == FileKind::Unknown)
      d.notes.push_back(displayPath(f.path) + ": skipped: " + f.reason);
  d.notes.insert(d.notes.end(), skipped.begin(), skipped.end());
  d.unreadable = std::move(skipped);
  return d;
}

Result<std::string> findKinetoTrace(const std::vector<std::string>& paths,
                                    std::optional<int> rank) {
  if (paths.empty()) return Error{"no input"};
  auto found = discoverTraces(paths);
  if (!found) return found.error();
  std::vector<const RankGroup*> withKineto;
  for (const auto& g : found->ranks)
    if (g.kineto) withKineto.push_back(&g);
  if (withKineto.empty()) {
    if (found->files.size() == 1) {
      const auto& f = found->files.front();
      const std::string what =
          f.kind == FileKind::Unknown ? f.reason : "it is " + fileKindWithArticle(f.kind);
      return makeError(f.path, "no Kineto trace (" + what + ")");
    }
    return makeError(paths.front(), "no Kineto trace");
  }
  if (rank) {
    for (const auto* g : withKineto)
      if (g->rank == *rank) return *g->kineto;
    return makeError(paths.front(), "no Kineto trace of rank " + std::to_string(*rank));
  }
  if (withKineto.size() > 1)
    return makeError(
        paths.front(),
        "holds " + std::to_string(withKineto.size()) +
            " ranks; choose one: a rank's own file, or --rank R where the command has it");
  return *withKineto.front()->kineto;
}

Result<std::string> kinetoTraceAt(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return findKinetoTrace({path});
  // A trace of another kind is named as such, rather than left to the Kineto reader ("not
  // JSON" for a Chakra file).
  if (auto kind = sniffTraceKind(path);
      kind && *kind != FileKind::KinetoTrace && *kind != FileKind::Unknown)
    return makeError(path,
                     fileKindWithArticle(*kind) + ", not a Kineto trace (torch.profiler JSON)");
  return path;
}

}  // namespace sutra
