// SPDX-License-Identifier: MIT
#pragma once
// Chakra execution-trace files (.et): a varint32 length before each protobuf message, the
// GlobalMetadata first, then the Nodes (sorted by id when Sutra writes them). This is the format
// MLCommons Chakra's tools and ASTRA-sim read; plain or gzip-compressed files are accepted on read.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "et_def.pb.h"
#include "model/problems.h"
#include "util/atomic_file.h"
#include "util/result.h"

namespace sutra::chakra {

struct ChakraTrace {
  std::string path;  // where it was read from (empty when built in memory)
  ChakraProtoMsg::GlobalMetadata meta;
  std::vector<ChakraProtoMsg::Node> nodes;  // in file order
  ProblemLog problems;
  bool wasGzip = false;

  // The node with this id, or nullptr: a linear scan, for tests and one-off look-ups.
  const ChakraProtoMsg::Node* findNode(std::uint64_t id) const;
};

// Reads an .et file (plain or gzip). Errors name the file and the byte offset of the fault
// (offsets count uncompressed bytes for a gzip file). Recoverable oddities (duplicate ids, nodes
// not sorted by id, dependencies on absent ids) are counted in `problems`.
Result<ChakraTrace> readChakraTrace(const std::string& path);
// The same from bytes already in memory; `name` is used in messages.
Result<ChakraTrace> parseChakraTrace(std::string_view bytes, const std::string& name);

struct ChakraWriteOptions {
  bool gzip = false;
  // Paths the output must never replace (the inputs of a conversion): writing refuses when the
  // target is one of them (compared by file identity, so links and relative paths are caught).
  std::vector<std::string> protectedPaths;
};

// How a Chakra file is opened for writing under `options`: gzip, and the paths it must not replace.
AtomicFileOptions atomicFileOptions(const ChakraWriteOptions& options);
// Appends a message as an .et file holds each one: its varint32 length, then its bytes.
void appendDelimited(std::string& out, const google::protobuf::MessageLite& message);

// The bytes of a file: GlobalMetadata, then the nodes sorted by id (stable for equal ids).
std::string serializeChakraTrace(const ChakraTrace& trace);
// Writes to a temporary file in the target's directory and renames it over the target, so a
// reader never sees a half-written file and a failure leaves no partial file behind.
Status writeChakraTrace(const ChakraTrace& trace, const std::string& path,
                        const ChakraWriteOptions& options = {});
// The same from a GlobalMetadata and nodes serialised already (encodeToChakra's bytes: each node
// after its varint32 length, sorted by id).
Status writeChakraFile(const ChakraProtoMsg::GlobalMetadata& meta, std::string_view nodeBytes,
                       const std::string& path, const ChakraWriteOptions& options = {});

// Attribute helpers shared by the converter, the timeline and the jsonizer.
const ChakraProtoMsg::AttributeProto* findAttr(const ChakraProtoMsg::Node& node,
                                               std::string_view name);
// The value when the attribute holds any integer or bool kind (what ASTRA-sim's feeder accepts).
std::optional<std::int64_t> attrIntValue(const ChakraProtoMsg::AttributeProto& attr);
// The attribute as an integer when it holds any integer or bool kind, else `fallback`.
std::int64_t attrInt(const ChakraProtoMsg::Node& node, std::string_view name,
                     std::int64_t fallback);
bool hasIntAttr(const ChakraProtoMsg::Node& node, std::string_view name);
std::string attrString(const ChakraProtoMsg::Node& node, std::string_view name);

std::string_view nodeTypeName(ChakraProtoMsg::NodeType type);

// What the ASTRA-sim fit reads of a node (astra_sim_config.h): its type and duration and the
// integer attributes it needs, where the node has them. The converter gives these without the
// node's message (encodeToChakra); nodeFacts reads them from a message.
struct NodeFacts {
  ChakraProtoMsg::NodeType type = ChakraProtoMsg::INVALID_NODE;
  std::uint64_t durationMicros = 0;
  bool cpuOp = false;  // is_cpu_op present and not 0
  std::optional<std::int64_t> commType, commSize, numOps, tensorSize;
  std::optional<std::uint64_t> startMicros;  // from a message (the encoder gives none)
};
NodeFacts nodeFacts(const ChakraProtoMsg::Node& node);

}  // namespace sutra::chakra
