// SPDX-License-Identifier: MIT
#pragma once
// The in-memory model of a PyTorch execution trace (ExecutionTraceObserver JSON), any schema:
// the flat 1.0.1 layout and the attrs layout of 1.0.2-chakra.0.0.4 and later are read into the
// same EtNode. Nodes carry no times; the linker adds them from the Kineto trace.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/problems.h"

namespace sutra {

// A tensor as the ET writes it: [tensor_id, storage_id, offset, numel, itemsize, device].
struct EtTensor {
  std::int64_t tensorId = 0;
  std::int64_t storageId = 0;
  std::int64_t offset = 0;
  std::int64_t numel = 0;
  std::int64_t itemsize = 0;
  std::string device;
};

// One side (inputs or outputs) of a node.
struct EtArgs {
  std::string valuesJson;   // the raw JSON array of values, re-emitted as is by the ET+ writer
  std::string shapesJson;   // the raw JSON array of shapes
  std::string stridesJson;  // 1.1.1+: raw JSON array of strides, else empty
  std::vector<std::string> types;                 // "Tensor(float)", "Int", "GenericList[...]" ...
  std::vector<std::vector<std::int64_t>> shapes;  // per value: the shape of a tensor, else empty
  std::vector<EtTensor> tensors;                  // every tensor among the values, lists flattened
};

// Communication attributes (1.1.0+, on record_param_comms and c10d ops).
struct EtComm {
  std::string collectiveName;  // "all_reduce", "broadcast", "send" ...
  std::string dtype;
  std::int64_t inMsgNelems = 0;
  std::int64_t outMsgNelems = 0;
  std::string inSplitSize, outSplitSize;
  std::string pgName, pgDesc;
  std::int64_t pgSize = 0;
  std::int64_t globalRankStart = 0;
  std::int64_t globalRankStride = 1;
};

struct EtNode {
  std::int64_t id = 0;
  std::string name;
  std::int64_t parent = -1;  // "parent" (1.0.1) or "ctrl_deps" (1.0.2+)
  std::int64_t rfId = -1;
  std::int64_t fwParent = 0;
  std::int64_t seqId = -1;
  std::int64_t scope = 0;
  std::int64_t tid = 0;  // the ET's thread number (1, 2, ...), not an OS thread id
  std::int64_t fwTid = 0;
  std::string opSchema;
  std::string kernelBackend, kernelFile;  // 1.0.4+ (Triton kernels)
  EtArgs inputs, outputs;
  std::optional<EtComm> comm;
  // Attributes not named above, as raw JSON {"name","type","value"} objects (1.0.2+).
  std::vector<std::string> extraAttrsJson;
  std::string rawJson;  // the node exactly as read: the ET+ writer adds fields to it

  bool isRoot() const;        // "[pytorch|profiler|execution_(trace|graph)|process]"
  bool isThreadRoot() const;  // "[pytorch|profiler|execution_(trace|graph)|thread]"
  bool isOperator() const { return !isRoot() && !isThreadRoot(); }
};

struct EtTrace {
  std::string path;
  std::string schema;  // "1.0.1", "1.1.0-chakra.0.0.4" ...
  std::int64_t pid = 0;
  std::string time;          // wall-clock date of the recording
  std::int64_t startTs = 0;  // steady-clock ms
  std::int64_t finishTs = 0;
  std::string distributedInfoJson;  // some writers add it (rank, world size)
  std::vector<EtNode> nodes;        // in file order (children are written before their parents)
  std::unordered_map<std::int64_t, std::uint32_t> indexById;
  ProblemLog problems;

  const EtNode* find(std::int64_t id) const {
    auto it = indexById.find(id);
    return it == indexById.end() ? nullptr : &nodes[it->second];
  }
  // Children of each node in id order, built on demand.
  std::vector<std::vector<std::uint32_t>> childrenByIndex() const;
};

}  // namespace sutra
