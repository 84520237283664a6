// SPDX-License-Identifier: MIT
#pragma once
// The in-memory model of a PyTorch execution trace (ExecutionTraceObserver JSON), any schema:
// the flat 1.0.1 layout and the attrs layout of 1.0.2-chakra.0.0.4 and later are read into the
// same EtNode. Nodes carry no times; the linker adds them from the Kineto trace.
// Compact (issue 21): strings are interned views and lists are spans into arenas the trace
// owns, so a trace takes less memory than its file and reading it allocates little.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/id_index.h"
#include "model/problems.h"

namespace sutra {

// The nodes' strings and lists live in arenas (EtStorage) that the trace owns and its copies
// share: a node holds views into them, and repeated strings ("aten::add", "Tensor(float)",
// "cuda:0") are stored once per arena. A node is a few hundred bytes whatever its arguments.
class EtStorage {
 public:
  // `chunkBytes`: the size of each block taken from the heap (a larger item gets its own).
  explicit EtStorage(std::size_t chunkBytes = 64 * 1024) : chunkBytes_(chunkBytes) {}
  EtStorage(const EtStorage&) = delete;
  EtStorage& operator=(const EtStorage&) = delete;

  // A copy of text, one per distinct text of this arena (names, types, devices repeat).
  std::string_view intern(std::string_view text);
  // A copy of text (unique texts: a node's argument values).
  std::string_view copy(std::string_view text);
  template <class T>
  std::span<const T> copy(std::span<const T> items) {
    static_assert(std::is_trivially_destructible_v<T>, "blocks are freed without destructors");
    if (items.empty()) return {};
    T* out = static_cast<T*>(allocate(items.size_bytes(), alignof(T)));
    std::uninitialized_copy(items.begin(), items.end(), out);
    return {out, items.size()};
  }
  template <class T>
  std::span<const T> copy(std::initializer_list<T> items) {
    return copy(std::span<const T>(items.begin(), items.size()));
  }
  // A copy of items shared with every equal list copied so into this arena since the last
  // forgetShared() (a side's types and shapes repeat from op to op). Items compare by their
  // bytes: views into this arena's interned texts and shared lists are equal when their texts are.
  template <class T>
  std::span<const T> copyShared(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>,
                  "lists are compared by their bytes");
    if (items.empty()) return {};
    const std::string_view bytes(reinterpret_cast<const char*>(items.data()), items.size_bytes());
    if (auto it = sharedLists_.find(bytes);
        it != sharedLists_.end() && reinterpret_cast<std::uintptr_t>(it->data()) % alignof(T) == 0)
      return {reinterpret_cast<const T*>(it->data()), items.size()};
    const std::span<const T> kept = copy(items);
    sharedLists_.insert(
        std::string_view(reinterpret_cast<const char*>(kept.data()), kept.size_bytes()));
    return kept;
  }
  // A copy of text or items shared with an equal one copied a short while before (a table of
  // kRecentSlots by hash, one copy a slot, the newest kept). Argument values and tensor lists
  // repeat from op to op (a tensor handed down to the ops an op calls) and from training step to
  // step, but a table of every one would take more memory than it saves where they do not. 8 Ki
  // slots (128 KB) stay in the CPU's cache: 32 Ki found a few more, for ~5% more read time.
  std::string_view copyRecent(std::string_view text) {
    return {static_cast<const char*>(copyRecentBytes(text, 1)), text.size()};
  }
  template <class T>
  std::span<const T> copyRecent(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>,
                  "items are compared by their bytes");
    const std::string_view bytes(reinterpret_cast<const char*>(items.data()), items.size_bytes());
    return {static_cast<const T*>(copyRecentBytes(bytes, alignof(T))), items.size()};
  }
  static constexpr std::size_t kRecentSlots = std::size_t{1} << 13;
  // Frees the tables intern(), copyShared() and copyRecent() look texts and lists up in (the reader
  // is done with the arena: it is only read from now on). Later calls still work, sharing from then
  // on.
  void forgetShared() {
    interned_ = {};
    sharedLists_ = {};
    recent_ = {};
  }
  template <class T>
  const T* make(T value) {
    static_assert(std::is_trivially_destructible_v<T>, "blocks are freed without destructors");
    return new (allocate(sizeof(T), alignof(T))) T(std::move(value));
  }
  // Bytes handed out, and bytes taken from the heap for them.
  std::size_t usedBytes() const { return used_; }
  std::size_t heapBytes() const { return heap_; }

 private:
  void* allocate(std::size_t bytes, std::size_t align);
  const void* copyRecentBytes(std::string_view bytes, std::size_t align);

  std::size_t chunkBytes_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* next_ = nullptr;
  std::size_t left_ = 0;
  std::size_t used_ = 0, heap_ = 0;
  std::unordered_set<std::string_view> interned_;
  std::unordered_set<std::string_view> sharedLists_;  // the bytes of lists kept by copyShared
  std::vector<std::string_view> recent_;              // copyRecent's table, kRecentSlots once used
};

// A tensor as the ET writes it: [tensor_id, storage_id, offset, numel, itemsize, device].
struct EtTensor {
  std::int64_t tensorId = 0;
  std::int64_t storageId = 0;
  std::int64_t offset = 0;
  std::int64_t numel = 0;
  std::int64_t itemsize = 0;
  std::string_view device;
};

using EtShape = std::span<const std::int64_t>;

// The signature of one side's arguments: their types, shapes and shapes text. These repeat from op
// to op (every aten::linear of a layer has the same), so ops share one in the trace's storage
// (EtStorage::copyShared): a side is 40 bytes smaller than with the three kept in each node.
struct EtArgsSignature {
  std::string_view shapesJson;              // the JSON array of shapes
  std::span<const std::string_view> types;  // "Tensor(float)", "Int", "GenericList[...]" ...
  std::span<const EtShape> shapes;          // per value: the shape of a tensor, else empty
};
inline constexpr EtArgsSignature kNoEtArgsSignature{};

// One side (inputs or outputs) of a node; the views point into the trace's storage.
struct EtArgs {
  using Shapes = std::span<const EtShape>;
  std::string_view valuesJson;        // the JSON array of values (minified where the ET nests it)
  std::span<const EtTensor> tensors;  // every tensor among the values, lists flattened
  const EtArgsSignature* signature = &kNoEtArgsSignature;  // in the storage (shared), never null

  std::string_view shapesJson() const { return signature->shapesJson; }
  std::span<const std::string_view> types() const { return signature->types; }
  Shapes shapes() const { return signature->shapes; }
};

// Communication attributes (1.1.0+, on record_param_comms and c10d ops).
struct EtComm {
  std::string_view collectiveName{};  // "all_reduce", "broadcast", "send" ...
  std::string_view dtype{};
  std::int64_t inMsgNelems = 0;
  std::int64_t outMsgNelems = 0;
  std::string_view inSplitSize{}, outSplitSize{};
  std::string_view pgName{}, pgDesc{};
  std::int64_t pgSize = 0;
  std::int64_t globalRankStart = 0;
  std::int64_t globalRankStride = 1;
};

// What a node rarely holds, kept out of it (most nodes share one of these, or the empty one):
// each node is 88 bytes smaller.
struct EtNodeDetails {
  std::string_view category;                   // an ET+ node's "cat" (device nodes), else empty
  std::string_view kernelBackend, kernelFile;  // 1.0.4+ (Triton kernels)
  // 1.1.1+: the JSON arrays of the inputs' and outputs' strides, else empty.
  std::string_view inputStridesJson, outputStridesJson;
  // Attributes not named in EtNode, as minified JSON {"name","type","value"} objects (1.0.2+).
  std::span<const std::string_view> extraAttrsJson;
};
inline constexpr EtNodeDetails kNoEtNodeDetails{};

struct EtNode {
  std::int64_t id = 0;
  std::int64_t parent = -1;  // "parent" (1.0.1) or "ctrl_deps" (1.0.2+)
  std::int64_t rfId = -1;
  std::int64_t fwParent = 0;
  std::int64_t seqId = -1;
  std::int64_t scope = 0;
  std::int64_t tid = 0;  // the ET's thread number (1, 2, ...), not an OS thread id
  std::int64_t fwTid = 0;
  std::string_view name;
  std::string_view opSchema;
  EtArgs inputs, outputs;
  const EtComm* comm = nullptr;                      // in the storage; null where the node has none
  const EtNodeDetails* details = &kNoEtNodeDetails;  // in the storage (shared), never null

  std::string_view category() const { return details->category; }
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
  IdIndex indexById;                // node id -> position in nodes
  ProblemLog problems;
  // What the nodes' views point into: shared by copies of the trace. Where the file was when it
  // was read, so the ET+ writer can read each node's own JSON again (the model keeps none).
  std::vector<std::shared_ptr<EtStorage>> storage;
  std::uint64_t fileSize = 0;
  std::int64_t fileModifiedNs = 0;

  // The storage a trace built in code (not read) keeps its nodes' strings and lists in.
  EtStorage& ownStorage();

  const EtNode* find(std::int64_t id) const {
    const std::uint32_t at = indexById.find(id);
    return at == IdIndex::kNone ? nullptr : &nodes[at];
  }
  // Children of each node in id order, built on demand.
  std::vector<std::vector<std::uint32_t>> childrenByIndex() const;
};

}  // namespace sutra
