// SPDX-License-Identifier: MIT
#include "chakra/node_writer.h"

namespace sutra::chakra {
namespace {

// Wire types and the tags of the fields written (field number << 3 | wire type).
constexpr std::uint32_t kVarint = 0, kLength = 2;
constexpr std::uint32_t tag(std::uint32_t field, std::uint32_t wire) { return field << 3 | wire; }

std::size_t varintSize(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

void putVarint(std::string& out, std::uint64_t v) {
  char buf[10];
  std::size_t n = 0;
  for (; v >= 0x80; v >>= 7) buf[n++] = static_cast<char>((v & 0x7f) | 0x80);
  buf[n++] = static_cast<char>(v);
  out.append(buf, n);
}

void putBytes(std::string& out, std::uint32_t field, std::string_view bytes) {
  putVarint(out, tag(field, kLength));
  putVarint(out, bytes.size());
  out.append(bytes);
}

// A proto3 string field: left out when empty.
void putString(std::string& out, std::uint32_t field, std::string_view s) {
  if (!s.empty()) putBytes(out, field, s);
}

// A proto3 scalar varint field: left out when 0.
void putScalar(std::string& out, std::uint32_t field, std::uint64_t v) {
  if (v == 0) return;
  putVarint(out, tag(field, kVarint));
  putVarint(out, v);
}

std::size_t packedSize(const std::vector<std::uint64_t>& values) {
  std::size_t n = 0;
  for (auto v : values) n += varintSize(v);
  return n;
}

void putPacked(std::string& out, std::uint32_t field, const std::vector<std::uint64_t>& values) {
  if (values.empty()) return;
  putVarint(out, tag(field, kLength));
  putVarint(out, packedSize(values));
  for (auto v : values) putVarint(out, v);
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

// One attribute: its name, then a value of `valueBytes` bytes written by `put` after the tag.
template <typename Put>
void putAttr(std::string& out, std::string_view name, std::uint32_t valueTag,
             std::size_t valueBytes, Put put) {
  std::size_t size = varintSize(valueTag) + valueBytes;
  if (!name.empty()) size += 1 + varintSize(name.size()) + name.size();
  putVarint(out, tag(kAttr, kLength));
  putVarint(out, size);
  putString(out, kAttrName, name);
  putVarint(out, valueTag);
  put();
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

void NodeWriter::ioInfo(std::string& out, std::string_view values, std::string_view shapes,
                        std::string_view types) {
  out.clear();
  putString(out, 1, values);
  putString(out, 2, shapes);
  putString(out, 3, types);
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
  const auto u = static_cast<std::uint64_t>(v);
  putAttr(attrs_, name, tag(kInt64Val, kVarint), varintSize(u), [&] { putVarint(attrs_, u); });
  noteIntAttr(name, v);
}

void NodeWriter::attrInt32(std::string_view name, std::int32_t v) {
  const auto u = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  putAttr(attrs_, name, tag(kInt32Val, kVarint), varintSize(u), [&] { putVarint(attrs_, u); });
  noteIntAttr(name, v);
}

void NodeWriter::attrUint64(std::string_view name, std::uint64_t v) {
  putAttr(attrs_, name, tag(kUint64Val, kVarint), varintSize(v), [&] { putVarint(attrs_, v); });
  noteIntAttr(name, static_cast<std::int64_t>(v));
}

void NodeWriter::attrBool(std::string_view name, bool v) {
  putAttr(attrs_, name, tag(kBoolVal, kVarint), 1, [&] { attrs_.push_back(v ? 1 : 0); });
  noteIntAttr(name, v ? 1 : 0);
}

void NodeWriter::attrString(std::string_view name, std::string_view v) {
  putAttr(attrs_, name, tag(kStringVal, kLength), varintSize(v.size()) + v.size(), [&] {
    putVarint(attrs_, v.size());
    attrs_.append(v);
  });
}

void NodeWriter::appendDelimitedTo(std::string& out) const {
  auto fieldSize = [](std::size_t payload) { return 1 + varintSize(payload) + payload; };
  std::size_t size = attrs_.size();
  if (id_) size += 1 + varintSize(id_);
  if (!name_.empty()) size += fieldSize(name_.size());
  if (type_) size += 1 + varintSize(static_cast<std::uint64_t>(type_));
  if (!ctrl_.empty()) size += fieldSize(packedSize(ctrl_));
  if (!data_.empty()) size += fieldSize(packedSize(data_));
  if (start_) size += 1 + varintSize(start_);
  if (duration_) size += 1 + varintSize(duration_);
  if (hasInputs_) size += fieldSize(inputs_.size());
  if (hasOutputs_) size += fieldSize(outputs_.size());

  putVarint(out, size);
  putScalar(out, kId, id_);
  putString(out, kName, name_);
  putScalar(out, kType, static_cast<std::uint64_t>(type_));
  putPacked(out, kCtrlDeps, ctrl_);
  putPacked(out, kDataDeps, data_);
  putScalar(out, kStart, start_);
  putScalar(out, kDuration, duration_);
  if (hasInputs_) putBytes(out, kInputs, inputs_);
  if (hasOutputs_) putBytes(out, kOutputs, outputs_);
  out.append(attrs_);
}

}  // namespace sutra::chakra
