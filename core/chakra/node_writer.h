// SPDX-License-Identifier: MIT
#pragma once
// A Chakra Node written straight to its wire bytes (libprotobuf's varint and tag helpers, the
// generated field numbers), as libprotobuf serialises the message: fields in field-number order,
// proto3 defaults left out, packed dependencies, each attribute's oneof value written even when 0.
// No message is built: for a large graph a message per node, and the allocation per attribute
// behind it, were most of the converter's time.
//
// Calls may come in any order; attributes keep theirs. The name is kept as a view until the node
// is appended; attributes, inputs and outputs are written (copied) at once.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chakra/et_file.h"

namespace sutra::chakra {

// Bytes written through a pointer: appending is a bounds check and stores, and the buffer, kept
// from node to node, grows only when it must.
class WireBuffer {
 public:
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {buf_.data(), size_}; }
  // Room for up to `n` more bytes at the returned pointer; advance(end) keeps those written.
  char* room(std::size_t n) {
    if (size_ + n > buf_.size()) buf_.resize(std::max(2 * buf_.size(), size_ + n));
    return buf_.data() + size_;
  }
  void advance(const char* end) { size_ = static_cast<std::size_t>(end - buf_.data()); }

 private:
  std::vector<char> buf_;
  std::size_t size_ = 0;
};

class NodeWriter {
 public:
  // Starts a new node (the buffers are kept, so a node costs no allocation once they are grown).
  void clear();

  void setId(std::uint64_t id) { id_ = id; }
  void setName(std::string_view name) { name_ = name; }
  void setType(ChakraProtoMsg::NodeType type);
  void setStartTimeMicros(std::uint64_t v) { start_ = v; }
  void setDurationMicros(std::uint64_t v);
  void setInputs(std::string_view values, std::string_view shapes, std::string_view types);
  void setOutputs(std::string_view values, std::string_view shapes, std::string_view types);
  void addCtrlDep(std::uint64_t id) { ctrl_.push_back(id); }
  void addDataDep(std::uint64_t id) { data_.push_back(id); }

  void attrInt64(std::string_view name, std::int64_t v);
  void attrInt32(std::string_view name, std::int32_t v);
  void attrUint64(std::string_view name, std::uint64_t v);
  void attrBool(std::string_view name, bool v);
  void attrString(std::string_view name, std::string_view v);

  // Appends the node as an .et file holds it: its varint32 length, then its bytes.
  void appendDelimitedTo(std::string& out) const;
  // What the ASTRA-sim fit reads of the node, gathered as it was written.
  const NodeFacts& facts() const { return facts_; }

 private:
  void noteIntAttr(std::string_view name, std::int64_t v);
  static void ioInfo(WireBuffer& out, std::string_view values, std::string_view shapes,
                     std::string_view types);

  std::uint64_t id_ = 0, start_ = 0, duration_ = 0;
  std::string_view name_;
  int type_ = 0;
  std::vector<std::uint64_t> ctrl_, data_;
  WireBuffer inputs_, outputs_;  // the IOInfo's bytes, without tag and length
  bool hasInputs_ = false, hasOutputs_ = false;
  bool cpuOpSeen_ = false;
  WireBuffer attrs_;  // each attribute with its tag and length
  NodeFacts facts_;
};

}  // namespace sutra::chakra
