// SPDX-License-Identifier: MIT
#include "chakra/node_writer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <cstring>

namespace sutra::chakra {
namespace {

// The wire format is libprotobuf's: its varint and tag helpers, the generated field numbers.
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;
using Node = ChakraProtoMsg::Node;
using Attr = ChakraProtoMsg::AttributeProto;
using IO = ChakraProtoMsg::IOInfo;

constexpr std::uint32_t tagVarint(int field) {
  return WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_VARINT);
}
constexpr std::uint32_t tagLength(int field) {
  return WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
}
constexpr std::size_t kMaxVarint = 10;  // a 64-bit varint's bytes at most

std::size_t varintSize(std::uint64_t v) { return CodedOutputStream::VarintSize64(v); }

char* putVarint(char* p, std::uint64_t v) {
  return reinterpret_cast<char*>(
      CodedOutputStream::WriteVarint64ToArray(v, reinterpret_cast<std::uint8_t*>(p)));
}

char* putRaw(char* p, std::string_view bytes) {
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return p + bytes.size();
}

// A length-delimited field (at most 2 * kMaxVarint + bytes.size() bytes).
char* putBytes(char* p, int field, std::string_view bytes) {
  p = putVarint(p, tagLength(field));
  p = putVarint(p, bytes.size());
  return putRaw(p, bytes);
}

// A proto3 string field: left out when empty.
char* putString(char* p, int field, std::string_view s) {
  return s.empty() ? p : putBytes(p, field, s);
}

// A proto3 scalar varint field: left out when 0.
char* putScalar(char* p, int field, std::uint64_t v) {
  if (v == 0) return p;
  p = putVarint(p, tagVarint(field));
  return putVarint(p, v);
}

std::size_t packedSize(const std::vector<std::uint64_t>& values) {
  std::size_t n = 0;
  for (auto v : values) n += varintSize(v);
  return n;
}

char* putPacked(char* p, int field, const std::vector<std::uint64_t>& values, std::size_t size) {
  if (values.empty()) return p;
  p = putVarint(p, tagLength(field));
  p = putVarint(p, size);
  for (auto v : values) p = putVarint(p, v);
  return p;
}

// An attribute's bytes up to its value: the attribute's tag and length, then its name.
// `valueBytes`: the size of the value's field (tag included); room for it is kept after.
char* putAttrStart(WireBuffer& out, std::string_view name, std::size_t valueBytes) {
  std::size_t size = valueBytes;
  if (!name.empty()) size += 1 + varintSize(name.size()) + name.size();
  char* p = out.room(size + 1 + kMaxVarint);
  p = putVarint(p, tagLength(Node::kAttrFieldNumber));
  p = putVarint(p, size);
  return putString(p, Attr::kNameFieldNumber, name);
}

// One attribute whose value is a varint: its name, then the value's tag and the value.
void putVarintAttr(WireBuffer& out, std::string_view name, std::uint32_t valueTag,
                   std::uint64_t value) {
  char* p = putAttrStart(out, name, varintSize(valueTag) + varintSize(value));
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
  p = putString(p, IO::kValuesFieldNumber, values);
  p = putString(p, IO::kShapesFieldNumber, shapes);
  out.advance(putString(p, IO::kTypesFieldNumber, types));
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
  putVarintAttr(attrs_, name, tagVarint(Attr::kInt64ValFieldNumber), static_cast<std::uint64_t>(v));
  noteIntAttr(name, v);
}

void NodeWriter::attrInt32(std::string_view name, std::int32_t v) {
  putVarintAttr(attrs_, name, tagVarint(Attr::kInt32ValFieldNumber),
                static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  noteIntAttr(name, v);
}

void NodeWriter::attrUint64(std::string_view name, std::uint64_t v) {
  putVarintAttr(attrs_, name, tagVarint(Attr::kUint64ValFieldNumber), v);
  noteIntAttr(name, static_cast<std::int64_t>(v));
}

void NodeWriter::attrBool(std::string_view name, bool v) {
  putVarintAttr(attrs_, name, tagVarint(Attr::kBoolValFieldNumber), v ? 1 : 0);
  noteIntAttr(name, v ? 1 : 0);
}

void NodeWriter::attrString(std::string_view name, std::string_view v) {
  const std::uint32_t valueTag = tagLength(Attr::kStringValFieldNumber);
  char* p = putAttrStart(attrs_, name, varintSize(valueTag) + varintSize(v.size()) + v.size());
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
  p = putScalar(p, Node::kIdFieldNumber, id_);
  p = putString(p, Node::kNameFieldNumber, name_);
  p = putScalar(p, Node::kTypeFieldNumber, static_cast<std::uint64_t>(type_));
  p = putPacked(p, Node::kCtrlDepsFieldNumber, ctrl_, ctrlSize);
  p = putPacked(p, Node::kDataDepsFieldNumber, data_, dataSize);
  p = putScalar(p, Node::kStartTimeMicrosFieldNumber, start_);
  p = putScalar(p, Node::kDurationMicrosFieldNumber, duration_);
  if (hasInputs_) p = putBytes(p, Node::kInputsFieldNumber, inputs_.view());
  if (hasOutputs_) p = putBytes(p, Node::kOutputsFieldNumber, outputs_.view());
  putRaw(p, attrs_.view());
}

}  // namespace sutra::chakra
