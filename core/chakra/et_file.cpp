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
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "io/byte_source.h"
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

Result<std::string> readWholeFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return openError(path, EISDIR);
  std::ifstream in(path, std::ios::binary);
  if (!in) return openError(path, errno);
  std::string bytes;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(bytes.data(), size);
  }
  if (!in) return makeError(path, "read failed");
  return bytes;
}

bool isGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> gunzip(std::string_view in, const std::string& name) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return makeError(name, "zlib initialisation failed");
  std::string out;
  out.resize(std::max<std::size_t>(in.size() * 4, 1 << 16));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::size_t produced = 0;
  int rc = Z_OK;
  for (;;) {
    if (produced == out.size()) out.resize(out.size() * 2);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - produced, 1u << 30));
    const uInt before = zs.avail_out;
    rc = inflate(&zs, Z_NO_FLUSH);
    produced += before - zs.avail_out;
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);  // concatenated gzip members
      continue;
    }
    if (rc == Z_OK || (rc == Z_BUF_ERROR && zs.avail_out == 0)) continue;
    const auto at = zs.total_in;
    inflateEnd(&zs);
    if (rc == Z_BUF_ERROR)
      return makeError(
          name, "truncated gzip stream (compressed data ends at byte " + std::to_string(at) + ")");
    return makeError(name, "corrupt gzip data near compressed byte " + std::to_string(at) +
                               (zs.msg ? std::string(": ") + zs.msg : std::string()));
  }
  inflateEnd(&zs);
  out.resize(produced);
  return out;
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

void appendVarint32(std::string& out, std::uint32_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
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

Result<ChakraTrace> parseChakraTrace(std::string_view bytes, const std::string& name) {
  silenceProtobufLogging();
  ChakraTrace t;
  t.path = name;
  std::string inflated;
  if (isGzip(bytes)) {
    auto un = gunzip(bytes, name);
    if (!un) return un.error();
    inflated = std::move(un.value());
    bytes = inflated;
    t.wasGzip = true;
  }
  const std::string where = t.wasGzip ? " (uncompressed offset)" : "";
  if (bytes.empty()) return makeError(name, "empty file: no GlobalMetadata and no nodes");
  std::size_t pos = 0;
  std::size_t index = 0;
  while (pos < bytes.size()) {
    const std::size_t start = pos;
    std::uint64_t len = 0;
    int shift = 0;
    for (;;) {
      if (pos >= bytes.size())
        return makeError(name, "truncated file: the length prefix of message " +
                                   std::to_string(index) + " at byte " + std::to_string(start) +
                                   where + " is cut off");
      const auto b = static_cast<unsigned char>(bytes[pos++]);
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
    if (pos + len > bytes.size())
      return makeError(name, "truncated file: message " + std::to_string(index) + " at byte " +
                                 std::to_string(start) + where + " declares " +
                                 std::to_string(len) + " bytes but only " +
                                 std::to_string(bytes.size() - pos) + " remain");
    const std::string_view msg = bytes.substr(pos, len);
    const int size = static_cast<int>(len);
    if (index == 0 && !looksLikeNode(msg)) {
      if (!t.meta.ParseFromArray(msg.data(), size))
        return makeError(name, "message 0 at byte 0" + where +
                                   " is not a valid Chakra GlobalMetadata (garbage or another "
                                   "format)");
    } else {
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
    pos += len;
    ++index;
  }
  checkGraph(t);
  return t;
}

Result<ChakraTrace> readChakraTrace(const std::string& path) {
  auto bytes = readWholeFile(path);
  if (!bytes) return bytes.error();
  return parseChakraTrace(bytes.value(), path);
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
  auto append = [&out](const google::protobuf::MessageLite& m) {
    appendVarint32(out, static_cast<std::uint32_t>(m.ByteSizeLong()));
    m.AppendToString(&out);
  };
  append(trace.meta);
  for (auto i : order) {
    append(trace.nodes[i]);
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

Status writeChakraTrace(const ChakraTrace& trace, const std::string& path,
                        const ChakraWriteOptions& options) {
  AtomicFileOptions fileOptions;
  fileOptions.gzip = options.gzip;
  fileOptions.protectedPaths = options.protectedPaths;
  auto file = AtomicFile::create(path, fileOptions);
  if (!file) return file.error();
  Status written = Ok{};
  serializeInChunks(trace, [&](std::string_view chunk) {
    written = file->write(chunk);
    return written.ok();
  });
  if (!written) return written;
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

}  // namespace sutra::chakra
