// SPDX-License-Identifier: MIT
#include "chakra/node_writer.h"

#include <cstring>

namespace sutra::chakra {
namespace {

// Wire types and the tags of the fields written (field number << 3 | wire type).
constexpr std::uint32_t kVarint = 0, kLength = 2;
constexpr std::uint32_t tag(std::uint32_t field, std::uint32_t wire) { return field << 3 | wire; }
constexpr std::size_t kMaxVarint = 10;

std::size_t varintSize(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

char* putVarint(char* p, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) *p++ = static_cast<char>((v & 0x7f) | 0x80);
  *p++ = static_cast<char>(v);
  return p;
}

char* putRaw(char* p, std::string_view bytes) {
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return p + bytes.size();
}

// A length-delimited field (at most 2 * kMaxVarint + bytes.size() bytes).
char* putBytes(char* p, std::uint32_t field, std::string_view bytes) {
  p = putVarint(p, tag(field, kLength));
  p = putVarint(p, bytes.size());
  return putRaw(p, bytes);
}

// A proto3 string field: left out when empty.
char* putString(char* p, std::uint32_t field, std::string_view s) {
  return s.empty() ? p : putBytes(p, field, s);
}

// A proto3 scalar varint field: left out when 0.
char* putScalar(char* p, std::uint32_t field, std::uint64_t v) {
  if (v == 0) return p;
  p = putVarint(p, tag(field, kVarint));
  return putVarint(p, v);
}

std::size_t packedSize(const std::vector<std::uint64_t>& values) {
  std::size_t n = 0;
  for (auto v : values) n += varintSize(v);
  return n;
}

char* putPacked(char* p, std::uint32_t field, const std::vector<std::uint64_t>& values,
                std::size_t size) {
  if (values.empty()) return p;
  p = putVarint(p, tag(field, kLength));
  p = putVarint(p, size);
  for (auto v : values) p = putVarint(p, v);
  return p;
}

// Node's fields, and AttributeProto's (name, then the oneof value).
enum NodeField : std::uint32_t {
  kId = 1,
  kName,
  kType,
  kCtrlDeps,
  kDataDeps,
  kStart,
  kDuration,
  kInputs,
  kOutputs,
  kAttr
};
enum AttrField : std::uint32_t {
  kAttrName = 1,
  kInt32Val = 7,
  kInt64Val = 9,
  kUint64Val = 13,
  kBoolVal = 27,
  kStringVal = 29
};

// One attribute whose value is a varint: its name, then the value's tag and the value.
void putVarintAttr(WireBuffer& out, std::string_view name, std::uint32_t valueTag,
                   std::uint64_t value) {
  std::size_t size = varintSize(valueTag) + varintSize(value);
  if (!name.empty()) size += 1 + varintSize(name.size()) + name.size();
  char* p = out.room(size + 1 + kMaxVarint);
  p = putVarint(p, tag(kAttr, kLength));
  p = putVarint(p, size);
  p = putString(p, kAttrName, name);
  p = putVarint(p, valueTag);
  out.advance(putVarint(p, value));
}

}  // namespace

void NodeWriter::clear() {
  id_ = start_ = duration_ = 0;
  name_ = {};
  type_ = 0;
  ctrl_.clear();
  data_.clear();
  inputs_.clear();
  outputs_.clear();
  hasInputs_ = hasOutputs_ = false;
  cpuOpSeen_ = false;
  attrs_.clear();
  facts_ = {};
}

void NodeWriter::setType(ChakraProtoMsg::NodeType type) {
  type_ = type;
  facts_.type = type;
}

void NodeWriter::setDurationMicros(std::uint64_t v) {
  duration_ = v;
  facts_.durationMicros = v;
}

void NodeWriter::ioInfo(WireBuffer& out, std::string_view values, std::string_view shapes,
                        std::string_view types) {
  out.clear();
  char* p = out.room(6 * kMaxVarint + values.size() + shapes.size() + types.size());
  p = putString(p, 1, values);
  p = putString(p, 2, shapes);
  out.advance(putString(p, 3, types));
}

void NodeWriter::setInputs(std::string_view values, std::string_view shapes,
                           std::string_view types) {
  ioInfo(inputs_, values, shapes, types);
  hasInputs_ = true;
}

void NodeWriter::setOutputs(std::string_view values, std::string_view shapes,
                            std::string_view types) {
  ioInfo(outputs_, values, shapes, types);
  hasOutputs_ = true;
}

// The first attribute of a name counts, as findAttr finds it.
void NodeWriter::noteIntAttr(std::string_view name, std::int64_t v) {
  auto note = [v](std::optional<std::int64_t>& slot) {
    if (!slot) slot = v;
  };
  if (name == "comm_type")
    note(facts_.commType);
  else if (name == "comm_size")
    note(facts_.commSize);
  else if (name == "num_ops")
    note(facts_.numOps);
  else if (name == "tensor_size")
    note(facts_.tensorSize);
  else if (name == "is_cpu_op" && !cpuOpSeen_) {
    cpuOpSeen_ = true;
    facts_.cpuOp = v != 0;
  }
}

// Signed integers are written as their 64-bit two's complement (a negative int32 too: 10 bytes).
void NodeWriter::attrInt64(std::string_view name, std::int64_t v) {
  putVarintAttr(attrs_, name, tag(kInt64Val, kVarint), static_cast<std::uint64_t>(v));
  noteIntAttr(name, v);
}

void NodeWriter::attrInt32(std::string_view name, std::int32_t v) {
  putVarintAttr(attrs_, name, tag(kInt32Val, kVarint),
                static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  noteIntAttr(name, v);
}

void NodeWriter::attrUint64(std::string_view name, std::uint64_t v) {
  putVarintAttr(attrs_, name, tag(kUint64Val, kVarint), v);
  noteIntAttr(name, static_cast<std::int64_t>(v));
}

void NodeWriter::attrBool(std::string_view name, bool v) {
  putVarintAttr(attrs_, name, tag(kBoolVal, kVarint), v ? 1 : 0);
  noteIntAttr(name, v ? 1 : 0);
}

void NodeWriter::attrString(std::string_view name, std::string_view v) {
  const std::uint32_t valueTag = tag(kStringVal, kLength);
  std::size_t size = varintSize(valueTag) + varintSize(v.size()) + v.size();
  if (!name.empty()) size += 1 + varintSize(name.size()) + name.size();
  char* p = attrs_.room(size + 1 + kMaxVarint);
  p = putVarint(p, tag(kAttr, kLength));
  p = putVarint(p, size);
  p = putString(p, kAttrName, name);
  p = putVarint(p, valueTag);
  p = putVarint(p, v.size());
  attrs_.advance(putRaw(p, v));
}

void NodeWriter::appendDelimitedTo(std::string& out) const {
  auto fieldSize = [](std::size_t payload) { return 1 + varintSize(payload) + payload; };
  const std::size_t ctrlSize = packedSize(ctrl_), dataSize = packedSize(data_);
  std::size_t size = attrs_.size();
  if (id_) size += 1 + varintSize(id_);
  if (!name_.empty()) size += fieldSize(name_.size());
  if (type_) size += 1 + varintSize(static_cast<std::uint64_t>(type_));
  if (!ctrl_.empty()) size += fieldSize(ctrlSize);
  if (!data_.empty()) size += fieldSize(dataSize);
  if (start_) size += 1 + varintSize(start_);
  if (duration_) size += 1 + varintSize(duration_);
  if (hasInputs_) size += fieldSize(inputs_.size());
  if (hasOutputs_) size += fieldSize(outputs_.size());

  const std::size_t at = out.size();
  out.resize(at + varintSize(size) + size);
  char* p = putVarint(out.data() + at, size);
  p = putScalar(p, kId, id_);
  p = putString(p, kName, name_);
  p = putScalar(p, kType, static_cast<std::uint64_t>(type_));
  p = putPacked(p, kCtrlDeps, ctrl_, ctrlSize);
  p = putPacked(p, kDataDeps, data_, dataSize);
  p = putScalar(p, kStart, start_);
  p = putScalar(p, kDuration, duration_);
  if (hasInputs_) p = putBytes(p, kInputs, inputs_.view());
  if (hasOutputs_) p = putBytes(p, kOutputs, outputs_.view());
  putRaw(p, attrs_.view());
}

}  // namespace sutra::chakra
