// SPDX-License-Identifier: MIT
// NodeWriter against libprotobuf: the same node built as a message and serialised, and written by
// NodeWriter, must give the same bytes, including the cases proto3 treats apart (0 and empty
// fields left out, a oneof value of 0 kept, negative integers as 10-byte varints, lengths of two
// bytes and more), and NodeWriter's facts must be those nodeFacts reads from the message.
#include <gtest/gtest.h>

#include <limits>

#include "chakra/node_writer.h"

namespace sutra::chakra {
namespace {

using ChakraProtoMsg::Node;

// The message's bytes as an .et file holds them.
std::string delimited(const Node& node) {
  std::string out;
  appendDelimited(out, node);
  return out;
}

std::string written(const NodeWriter& w) {
  std::string out;
  w.appendDelimitedTo(out);
  return out;
}

void expectSameFacts(const NodeFacts& a, const NodeFacts& b) {
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.durationMicros, b.durationMicros);
  EXPECT_EQ(a.cpuOp, b.cpuOp);
  EXPECT_EQ(a.commType, b.commType);
  EXPECT_EQ(a.commSize, b.commSize);
  EXPECT_EQ(a.numOps, b.numOps);
  EXPECT_EQ(a.tensorSize, b.tensorSize);
}

TEST(ChakraNodeWriter, EmptyNodeIsZeroBytes) {
  NodeWriter w;
  w.clear();
  EXPECT_EQ(written(w), delimited(Node{}));
  EXPECT_EQ(written(w), std::string(1, '\0'));
}

TEST(ChakraNodeWriter, FullNodeMatchesLibprotobuf) {
  const std::string longText(300, 'x');  // a length of two varint bytes
  Node m;
  m.set_id(1ull << 40);
  m.set_name("aten::linear");
  m.set_type(ChakraProtoMsg::COMM_SEND_NODE);
  m.add_ctrl_deps(7);
  m.add_data_deps(0);
  m.add_data_deps(300);
  m.add_data_deps(std::numeric_limits<std::uint64_t>::max());
  m.set_start_time_micros(0);
  m.set_duration_micros(129);
  m.mutable_inputs()->set_values("[1,2]");
  m.mutable_inputs()->set_types(longText);  // shapes left empty
  m.mutable_outputs();                      // present but empty
  auto attr = [&m](const char* name) {
    auto* a = m.add_attr();
    a->set_name(name);
    return a;
  };
  attr("rf_id")->set_int64_val(-1);
  attr("zero")->set_int64_val(0);
  attr("comm_src")->set_int32_val(-5);
  attr("tensor_size")->set_uint64_val(std::numeric_limits<std::uint64_t>::max());
  attr("is_cpu_op")->set_bool_val(false);
  attr("on")->set_bool_val(true);
  attr("op_schema")->set_string_val(longText);
  attr("empty")->set_string_val("");
  attr("")->set_int64_val(3);  // no name
  attr("comm_size")->set_int64_val(1 << 20);
  attr("num_ops")->set_int64_val(42);
  attr("num_ops")->set_int64_val(43);  // the first counts
  attr("comm_type")->set_int64_val(0);

  NodeWriter w;
  w.clear();
  // Attributes first and fields in another order than the message's: the bytes follow the
  // field numbers, the attributes their own order.
  w.attrInt64("rf_id", -1);
  w.attrInt64("zero", 0);
  w.attrInt32("comm_src", -5);
  w.attrUint64("tensor_size", std::numeric_limits<std::uint64_t>::max());
  w.attrBool("is_cpu_op", false);
  w.attrBool("on", true);
  w.setOutputs("", "", "");
  w.setInputs("[1,2]", "", longText);
  w.attrString("op_schema", longText);
  w.attrString("empty", "");
  w.attrInt64("", 3);
  w.addDataDep(0);
  w.addDataDep(300);
  w.addDataDep(std::numeric_limits<std::uint64_t>::max());
  w.addCtrlDep(7);
  w.setDurationMicros(129);
  w.setStartTimeMicros(0);
  w.setType(ChakraProtoMsg::COMM_SEND_NODE);
  w.setName("aten::linear");
  w.setId(1ull << 40);
  w.attrInt64("comm_size", 1 << 20);
  w.attrInt64("num_ops", 42);
  w.attrInt64("num_ops", 43);
  w.attrInt64("comm_type", 0);
  EXPECT_EQ(written(w), delimited(m));
  expectSameFacts(w.facts(), nodeFacts(m));
  EXPECT_EQ(w.facts().numOps, 42);
  EXPECT_EQ(w.facts().tensorSize, -1);  // uint64 max read as int64, as attrIntValue reads it

  // Reused: the next node carries nothing of the last one.
  w.clear();
  w.setId(5);
  w.attrBool("is_cpu_op", true);
  Node small;
  small.set_id(5);
  auto* a = small.add_attr();
  a->set_name("is_cpu_op");
  a->set_bool_val(true);
  EXPECT_EQ(written(w), delimited(small));
  expectSameFacts(w.facts(), nodeFacts(small));
  EXPECT_TRUE(w.facts().cpuOp);
}

TEST(ChakraNodeWriter, LargeNodeHasMultiByteLength) {
  const std::string big(70000, 'v');  // a node over 16 KiB: a three-byte length
  Node m;
  m.set_id(9);
  m.mutable_inputs()->set_values(big);
  NodeWriter w;
  w.clear();
  w.setId(9);
  w.setInputs(big, "", "");
  const std::string bytes = written(w);
  EXPECT_EQ(bytes, delimited(m));
  EXPECT_EQ(static_cast<unsigned char>(bytes[2]) & 0x80, 0);  // the length's last byte
}

}  // namespace
}  // namespace sutra::chakra
