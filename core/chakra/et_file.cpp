// SPDX-License-Identifier: MIT
#include "chakra/et_file.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/wire_format_lite.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "io/byte_source.h"
#include "io/discover.h"
#include "util/atomic_file.h"

namespace sutra::chakra {
namespace {

namespace fs = std::filesystem;
using ChakraProtoMsg::GlobalMetadata;
using ChakraProtoMsg::Node;

// libprotobuf reports invalid UTF-8 in string fields on stderr before failing the parse; core
// never prints, and the failure itself becomes an Error with the offset, so its log is dropped.
void silenceProtobufLogging() {
  static const bool once = [] {
    google::protobuf::SetLogHandler(
        [](google::protobuf::LogLevel, const char*, int, const std::string&) {});
    return true;
  }();
  (void)once;
}

// A GlobalMetadata has only length-delimited fields 1 and 2; a Node has a varint field 1 (id) or
// fields numbered 3 and up. Used to notice a file written without its GlobalMetadata.
bool looksLikeNode(std::string_view msg) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(msg.data()),
                                            static_cast<int>(msg.size()));
  while (true) {
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) return false;
    const std::uint32_t field = tag >> 3, wire = tag & 7;
    if ((field == 1 && wire == 0) || field >= 3) return true;
    if (!google::protobuf::internal::WireFormatLite::SkipField(&in, tag)) return true;
  }
}

void checkGraph(ChakraTrace& t) {
  std::unordered_set<std::uint64_t> ids;
  ids.reserve(t.nodes.size());
  bool sorted = true;
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const auto id = t.nodes[i].id();
    if (!ids.insert(id).second)
      t.problems.add(Severity::Error, "duplicate node id (a consumer keeps only one of them)",
                     "id " + std::to_string(id));
    if (i > 0 && id < t.nodes[i - 1].id()) sorted = false;
  }
  if (!sorted) t.problems.add(Severity::Info, "nodes not sorted by id in the file", t.path);
  for (const auto& n : t.nodes) {
    // proto3 keeps an enum value it does not know: a type outside et_def.proto's NodeType, which
    // no consumer knows how to run.
    if (!ChakraProtoMsg::NodeType_IsValid(n.type()))
      t.problems.add(
          Severity::Warning, "node type outside the Chakra schema (NodeType)",
          "node " + std::to_string(n.id()) + " type " + std::to_string(static_cast<int>(n.type())));
    bool selfDependent = false;
    auto check = [&](std::uint64_t dep, const char* kind) {
      if (dep == n.id())
        selfDependent = true;
      else if (!ids.count(dep))
        t.problems.add(Severity::Error, "dependency on a node id absent from the file",
                       "node " + std::to_string(n.id()) + " " + kind + " " + std::to_string(dep));
    };
    for (auto d : n.ctrl_deps()) check(d, "ctrl_dep");
    for (auto d : n.data_deps()) check(d, "data_dep");
    if (selfDependent)
      t.problems.add(Severity::Error, "node depends on itself", "node " + std::to_string(n.id()));
  }
}

}  // namespace

const Node* ChakraTrace::findNode(std::uint64_t id) const {
  for (const auto& n : nodes)
    if (n.id() == id) return &n;
  return nullptr;
}

namespace {

// The bytes of an .et file as the parser sees them: a window that can be extended from the file
// (read in chunks through ByteSource, gunzipped where gzip) or that is all of it (in memory).
class Input {
 public:
  explicit Input(std::string_view all) : view_(all) {}
  explicit Input(ByteSource& source) : source_(&source) {}

  // At least `n` bytes from the current position, unless the file ends first.
  Result<bool> ensure(std::size_t n) {
    if (!source_) return view_.size() - pos_ >= n;
    while (buffer_.size() - pos_ < n && !ended_) {
      if (pos_ > 0 && pos_ >= buffer_.size() / 2) {
        buffer_.erase(0, pos_);
        pos_ = 0;
      }
      const std::size_t want = std::max<std::size_t>(n - (buffer_.size() - pos_), kChunk);
      const std::size_t at = buffer_.size();
      buffer_.resize(at + want);
      auto got = source_->read(buffer_.data() + at, want);
      buffer_.resize(at + (got ? *got : 0));
      if (!got) return got.error();
      if (*got == 0) ended_ = true;
      view_ = buffer_;
    }
    return view_.size() - pos_ >= n;
  }
  std::size_t available() const { return view_.size() - pos_; }
  unsigned char at(std::size_t i) const { return static_cast<unsigned char>(view_[pos_ + i]); }
  std::string_view take(std::size_t n) {
    const auto out = view_.substr(pos_, n);
    pos_ += n;
    consumed_ += n;
    return out;
  }
  std::uint64_t offset() const { return consumed_; }

 private:
  static constexpr std::size_t kChunk = 1 << 20;
  std::string_view view_;
  ByteSource* source_ = nullptr;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::uint64_t consumed_ = 0;
  bool ended_ = false;
};

Result<ChakraTrace> parseMessages(Input& in, const std::string& name, bool gzip) {
  silenceProtobufLogging();
  ChakraTrace t;
  t.path = name;
  t.wasGzip = gzip;
  const std::string where = gzip ? " (uncompressed offset)" : "";
  {
    auto any = in.ensure(2);
    if (!any) return any.error();
  }
  if (in.available() == 0) return makeError(name, "empty file: no GlobalMetadata and no nodes");
  // A run of zero bytes reads as an empty GlobalMetadata and then as many empty nodes as there are
  // bytes: told at once, instead of after millions of nodes.
  if (in.available() >= 2 && in.at(0) == 0 && in.at(1) == 0)
    return makeError(name, "not a Chakra trace: found 0x00 at bytes 0 and 1" + where +
                               " (an empty GlobalMetadata and an empty node: zeros, not a trace)");
  std::size_t index = 0;
  for (;;) {
    if (auto more = in.ensure(1); !more) return more.error();
    if (in.available() == 0) break;
    const std::uint64_t start = in.offset();
    std::uint64_t len = 0;
    int shift = 0;
    std::size_t prefix = 0;
    for (;;) {
      auto more = in.ensure(prefix + 1);
      if (!more) return more.error();
      if (!*more)
        return makeError(name, "truncated file: the length prefix of message " +
                                   std::to_string(index) + " at byte " + std::to_string(start) +
                                   where + " is cut off");
      const auto b = in.at(prefix++);
      len |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
      shift += 7;
      if (shift >= 35)
        return makeError(name, "bad varint at byte " + std::to_string(start) + where +
                                   ": the length prefix of message " + std::to_string(index) +
                                   " runs past 5 bytes (not an .et file, or corrupt)");
    }
    if (len > 0x7fffffffu)
      return makeError(name, "bad length " + std::to_string(len) + " for message " +
                                 std::to_string(index) + " at byte " + std::to_string(start) +
                                 where + " (not an .et file, or corrupt)");
    auto whole = in.ensure(prefix + static_cast<std::size_t>(len));
    if (!whole) return whole.error();
    if (!*whole)
      return makeError(name, "truncated file: message " + std::to_string(index) + " at byte " +
                                 std::to_string(start) + where + " declares " +
                                 std::to_string(len) + " bytes but only " +
                                 std::to_string(in.available() - prefix) + " remain");
    in.take(prefix);
    const std::string_view msg = in.take(static_cast<std::size_t>(len));
    const int size = static_cast<int>(len);
    if (index == 0 && !looksLikeNode(msg)) {
      if (!t.meta.ParseFromArray(msg.data(), size))
        return makeError(name, "message 0 at byte 0" + where +
                                   " is not a valid Chakra GlobalMetadata (garbage or another "
                                   "format)");
    } else {
      // An empty message is a node with no id, name or type: nothing a trace holds, and what
      // zeros read as, one node per byte.
      if (msg.empty())
        return makeError(name, "message " + std::to_string(index) + " at byte " +
                                   std::to_string(start) + where +
                                   " is empty: found 0x00 where a Chakra Node's length should be "
                                   "(zeros or another format)");
      if (index == 0)
        t.problems.add(Severity::Warning,
                       "file starts with a Node, not GlobalMetadata (Chakra's feeder would drop "
                       "that node)",
                       name);
      Node& node = t.nodes.emplace_back();
      if (!node.ParseFromArray(msg.data(), size))
        return makeError(name, "message " + std::to_string(index) + " at byte " +
                                   std::to_string(start) + where +
                                   " is not a valid Chakra Node (garbage or another format)");
    }
    ++index;
  }
  checkGraph(t);
  return t;
}

}  // namespace

Result<ChakraTrace> parseChakraTrace(std::string_view bytes, const std::string& name) {
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    // Gzip in memory (the fuzz target, tests): inflated here, then parsed as plain bytes.
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
      return makeError(name, "zlib initialisation failed");
    std::string out;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(std::min<std::size_t>(bytes.size(), UINT32_MAX));
    std::array<char, 1 << 16> chunk{};
    for (;;) {
      zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
      zs.avail_out = static_cast<uInt>(chunk.size());
      const int rc = inflate(&zs, Z_NO_FLUSH);
      out.append(chunk.data(), chunk.size() - zs.avail_out);
      if (rc == Z_STREAM_END) {
        if (zs.avail_in == 0) break;
        inflateReset(&zs);  // concatenated gzip members
        continue;
      }
      if (rc == Z_OK) continue;
      const auto at = zs.total_in;
      const std::string why = zs.msg ? std::string(": ") + zs.msg : std::string();
      inflateEnd(&zs);
      if (rc == Z_BUF_ERROR)
        return makeError(name, "truncated gzip stream: the data ends at byte " +
                                   std::to_string(at) + " before the compressed data does");
      return makeError(name, "corrupt gzip data near compressed byte " + std::to_string(at) + why);
    }
    inflateEnd(&zs);
    Input in{std::string_view(out)};
    return parseMessages(in, name, true);
  }
  Input in{bytes};
  return parseMessages(in, name, false);
}

Result<ChakraTrace> readChakraTrace(const std::string& path) {
  // Streamed: the file is never held whole (nor inflated whole), only the nodes read from it.
  auto source = ByteSource::open(path);
  if (!source) {
    // An empty file gets the reader's own words.
    if (source.error().message == makeError(path, "empty file").message)
      return makeError(path, "empty file: no GlobalMetadata and no nodes");
    return source.error();
  }
  // Sniffed first, as discovery does, from the first kilobytes: zeros, blanks, JSON or another
  // format are refused before they are read as millions of nodes.
  auto sniffed = sniffTraceFile(path);
  if (!sniffed) return sniffed.error();
  if (sniffed->kind == FileKind::Unknown) {
    std::string why = sniffed->reason;
    if (why.rfind("not a trace: ", 0) == 0) why.erase(0, 13);
    return makeError(path, "not a Chakra trace: " + why);
  }
  if (sniffed->kind != FileKind::ChakraEt)
    return makeError(path,
                     "is a " + std::string(fileKindName(sniffed->kind)) + ", not a Chakra trace");
  Input in{**source};
  return parseMessages(in, path, (*source)->compressed());
}

namespace {

// Calls `sink` with the file's bytes, GlobalMetadata first then the nodes by id, about a megabyte
// at a time, so writing a million-node graph never holds a second copy of it as one string.
template <typename Sink>
bool serializeInChunks(const ChakraTrace& trace, Sink&& sink) {
  std::vector<std::size_t> order(trace.nodes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace.nodes[a].id() < trace.nodes[b].id();
  });
  constexpr std::size_t kChunk = 1 << 20;
  std::string out;
  out.reserve(kChunk + (64 << 10));
  appendDelimited(out, trace.meta);
  for (auto i : order) {
    appendDelimited(out, trace.nodes[i]);
    if (out.size() >= kChunk) {
      if (!sink(std::string_view(out))) return false;
      out.clear();
    }
  }
  return sink(std::string_view(out));
}

}  // namespace

std::string serializeChakraTrace(const ChakraTrace& trace) {
  std::string all;
  serializeInChunks(trace, [&all](std::string_view chunk) {
    all += chunk;
    return true;
  });
  return all;
}

AtomicFileOptions atomicFileOptions(const ChakraWriteOptions& options) {
  AtomicFileOptions fileOptions;
  fileOptions.gzip = options.gzip;
  fileOptions.protectedPaths = options.protectedPaths;
  return fileOptions;
}

void appendDelimited(std::string& out, const google::protobuf::MessageLite& message) {
  const std::size_t size = message.ByteSizeLong();  // also caches the sizes serialising reads
  for (auto v = static_cast<std::uint32_t>(size);; v >>= 7) {
    if (v < 0x80) {
      out.push_back(static_cast<char>(v));
      break;
    }
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  }
  const std::size_t at = out.size();
  out.resize(at + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data() + at));
}

Status writeChakraTrace(const ChakraTrace& trace, const std::string& path,
                        const ChakraWriteOptions& options) {
  auto file = AtomicFile::create(path, atomicFileOptions(options));
  if (!file) return file.error();
  Status written = Ok{};
  serializeInChunks(trace, [&](std::string_view chunk) {
    written = file->write(chunk);
    return written.ok();
  });
  if (!written) return written;
  return file->commit();
}

Status writeChakraFile(const GlobalMetadata& meta, std::string_view nodeBytes,
                       const std::string& path, const ChakraWriteOptions& options) {
  auto file = AtomicFile::create(path, atomicFileOptions(options));
  if (!file) return file.error();
  std::string head;
  appendDelimited(head, meta);
  if (auto st = file->write(head); !st) return st;
  constexpr std::size_t kChunk = 8 << 20;
  for (std::size_t at = 0; at < nodeBytes.size(); at += kChunk)
    if (auto st = file->write(nodeBytes.substr(at, kChunk)); !st) return st;
  return file->commit();
}

const ChakraProtoMsg::AttributeProto* findAttr(const Node& node, std::string_view name) {
  for (const auto& a : node.attr())
    if (a.name() == name) return &a;
  return nullptr;
}

std::optional<std::int64_t> attrIntValue(const ChakraProtoMsg::AttributeProto& a) {
  using A = ChakraProtoMsg::AttributeProto;
  switch (a.value_case()) {
    case A::kInt32Val:
      return a.int32_val();
    case A::kInt64Val:
      return a.int64_val();
    case A::kUint32Val:
      return a.uint32_val();
    case A::kUint64Val:
      return static_cast<std::int64_t>(a.uint64_val());
    case A::kSint32Val:
      return a.sint32_val();
    case A::kSint64Val:
      return a.sint64_val();
    case A::kFixed32Val:
      return a.fixed32_val();
    case A::kFixed64Val:
      return static_cast<std::int64_t>(a.fixed64_val());
    case A::kSfixed32Val:
      return a.sfixed32_val();
    case A::kSfixed64Val:
      return a.sfixed64_val();
    case A::kBoolVal:
      return a.bool_val() ? 1 : 0;
    default:
      return std::nullopt;
  }
}

std::int64_t attrInt(const Node& node, std::string_view name, std::int64_t fallback) {
  const auto* a = findAttr(node, name);
  if (!a) return fallback;
  return attrIntValue(*a).value_or(fallback);
}

bool hasIntAttr(const Node& node, std::string_view name) {
  const auto* a = findAttr(node, name);
  return a && attrIntValue(*a).has_value();
}

std::string attrString(const Node& node, std::string_view name) {
  const auto* a = findAttr(node, name);
  if (!a) return {};
  if (a->has_string_val()) return a->string_val();
  if (a->has_bytes_val()) return a->bytes_val();
  return {};
}

std::string_view nodeTypeName(ChakraProtoMsg::NodeType type) {
  if (ChakraProtoMsg::NodeType_IsValid(type)) {
    const auto& n = ChakraProtoMsg::NodeType_Name(type);
    return n;
  }
  return "UNKNOWN_NODE";
}

NodeFacts nodeFacts(const ChakraProtoMsg::Node& node) {
  NodeFacts f;
  f.type = node.type();
  f.durationMicros = node.duration_micros();
  f.startMicros = node.start_time_micros();
  auto value = [&node](std::string_view name) -> std::optional<std::int64_t> {
    const auto* a = findAttr(node, name);
    return a ? attrIntValue(*a) : std::nullopt;
  };
  f.cpuOp = value("is_cpu_op").value_or(0) != 0;
  f.commType = value("comm_type");
  f.commSize = value("comm_size");
  f.numOps = value("num_ops");
  f.tensorSize = value("tensor_size");
  return f;
}

}  // namespace sutra::chakra
