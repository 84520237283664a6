// SPDX-License-Identifier: MIT
#include "chakra/converter.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <span>
#include <unordered_map>

#include "chakra/collective.h"
#include "chakra/measured_gaps.h"
#include "chakra/node_writer.h"
#include "chakra/op_cost.h"

namespace sutra::chakra {
namespace {

using ChakraProtoMsg::Node;
constexpr std::int32_t kNoNode = -1;
constexpr int kMaxAncestry = 256;  // guards the parent walk against a malformed parent cycle

// NodeWriter's calls onto a Node message: convertToChakra keeps the nodes as messages, encode
// writes their bytes; both build each node with the same code (Converter::buildNode).
class MessageOut {
 public:
  explicit MessageOut(Node& node) : n_(node) {}
  void setId(std::uint64_t v) { n_.set_id(v); }
  void setName(std::string_view v) { n_.set_name(std::string(v)); }
  void setType(ChakraProtoMsg::NodeType v) { n_.set_type(v); }
  void setStartTimeMicros(std::uint64_t v) { n_.set_start_time_micros(v); }
  void setDurationMicros(std::uint64_t v) { n_.set_duration_micros(v); }
  void setInputs(std::string_view values, std::string_view shapes, std::string_view types) {
    io(*n_.mutable_inputs(), values, shapes, types);
  }
  void setOutputs(std::string_view values, std::string_view shapes, std::string_view types) {
    io(*n_.mutable_outputs(), values, shapes, types);
  }
  void addCtrlDep(std::uint64_t id) { n_.add_ctrl_deps(id); }
  void addDataDep(std::uint64_t id) { n_.add_data_deps(id); }
  void attrInt64(std::string_view name, std::int64_t v) { attr(name)->set_int64_val(v); }
  void attrInt32(std::string_view name, std::int32_t v) { attr(name)->set_int32_val(v); }
  void attrUint64(std::string_view name, std::uint64_t v) { attr(name)->set_uint64_val(v); }
  void attrBool(std::string_view name, bool v) { attr(name)->set_bool_val(v); }
  void attrString(std::string_view name, std::string_view v) {
    attr(name)->set_string_val(std::string(v));
  }

 private:
  ChakraProtoMsg::AttributeProto* attr(std::string_view name) {
    auto* a = n_.add_attr();
    a->set_name(std::string(name));
    return a;
  }
  static void io(ChakraProtoMsg::IOInfo& info, std::string_view values, std::string_view shapes,
                 std::string_view types) {
    info.set_values(std::string(values));
    info.set_shapes(std::string(shapes));
    info.set_types(std::string(types));
  }
  Node& n_;
};

template <typename Msg, typename V>
void metaAttr(Msg& m, const char* name, V v) {
  auto* a = m.add_attr();
  a->set_name(name);
  if constexpr (std::is_same_v<V, std::string>)
    a->set_string_val(v);
  else if constexpr (std::is_same_v<V, std::uint64_t>)
    a->set_uint64_val(v);
  else
    a->set_int64_val(v);
}

std::uint64_t roundMicros(TimeNs ns) {
  return ns <= 0 ? 0 : static_cast<std::uint64_t>((ns + 500) / 1000);
}

std::int64_t dtypeBytes(std::string_view dtype) {
  std::string d(dtype);
  std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return std::tolower(c); });
  if (d.find("double") != std::string::npos || d.find("long") != std::string::npos ||
      d.find("64") != std::string::npos || d == "complexfloat")
    return 8;
  if (d.find("half") != std::string::npos || d.find("bfloat16") != std::string::npos ||
      d.find("short") != std::string::npos || d.find("16") != std::string::npos)
    return 2;
  if (d.find("bool") != std::string::npos || d.find("byte") != std::string::npos ||
      d.find("char") != std::string::npos || d.find("8") != std::string::npos)
    return 1;
  return 4;
}

// The integer argument `param` of an op from its schema ("c10d::send(Tensor[] tensors, ...,
// int dst, int tag) -> ...") and its recorded input values; nullopt when absent.
std::optional<std::int64_t> intArgument(const EtNode& node, std::string_view param) {
  const auto open = node.opSchema.find('(');
  const auto close = node.opSchema.rfind(") ->");
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  const std::string_view args = std::string_view(node.opSchema).substr(open + 1, close - open - 1);
  std::size_t index = 0, start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    const char c = i < args.size() ? args[i] : ',';
    if (c == '(' || c == '[' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '>') --depth;
    if (c != ',' || depth > 0) continue;
    std::string_view arg = args.substr(start, i - start);
    if (auto eq = arg.find('='); eq != std::string_view::npos) arg = arg.substr(0, eq);
    while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
    const auto space = arg.rfind(' ');
    if (space != std::string_view::npos && arg.substr(space + 1) == param) {
      auto values = nlohmann::json::parse(node.inputs.valuesJson, nullptr, false);
      if (values.is_array() && index < values.size() && values[index].is_number_integer())
        return values[index].get<std::int64_t>();
      return std::nullopt;
    }
    ++index;
    start = i + 1;
  }
  return std::nullopt;
}

// The types as a JSON array of strings, written as nlohmann::json's dump() writes it (a JSON
// value per op was a fifth of the converter's time): no spaces, '"' '\\' and control characters
// escaped, short forms for \b \f \n \r \t, other UTF-8 as it is.
void typesJson(const EtArgs& args, std::string& out) {
  out = "[";
  for (std::size_t i = 0; i < args.types().size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (const char ch : args.types()[i]) {
      const auto c = static_cast<unsigned char>(ch);
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
          } else {
            out += ch;
          }
      }
    }
    out += '"';
  }
  out += ']';
}

bool isProcessGroupInit(std::string_view name) {
  return name.find("process_group:init") != std::string_view::npos;
}

class Converter {
 public:
  Converter(const LinkedTrace& linked, const ConvertOptions& options)
      : L_(linked), O_(options), nodeOf_(linked.ops.size(), kNoNode) {}

  // Everything but the nodes' messages: which nodes, their ids, edges, costs, the metadata and
  // the statistics. The problems are logged here, in the same order whichever output follows.
  Status plan() {
    if (auto st = checkMatch(); !st) return st.error();
    indexParents();
    // The gaps first, so that the plans are reserved at once (a vector grown by doubling touched
    // twice the memory, each fresh page zeroed by the kernel).
    if (O_.measuredGaps) gaps_ = measureGaps(L_, {.collectivesDoneAtResume = O_.astraSimTimelines});
    nodeOps_.reserve(L_.ops.size() + gaps_.host.size() + gaps_.device.size());
    classify();
    if (nodeOps_.empty())
      return makeError(pathName(), "nothing to convert: the linked trace has no ops");
    if (O_.measuredGaps) planGaps();
    prepareNodes();
    addEdges();
    listEdges();
    breakCycles();
    countEdges();
    if (O_.estimateCosts) addCosts();
    writeMetadata();
    for (const auto& plan : nodeOps_) ++out_.stats.nodesByType[plan.type];
    return Ok{};
  }

  Result<ChakraConversion> run() {
    if (auto st = plan(); !st) return st.error();
    auto& nodes = out_.trace.nodes;
    nodes.resize(nodeOps_.size());
    for (std::size_t n = 0; n < nodeOps_.size(); ++n) {
      MessageOut message(nodes[n]);
      buildNode(n, message);
    }
    return std::move(out_);
  }

  // Each node written as its bytes at once (NodeWriter): no message per node is built, kept,
  // nor freed, which was most of the converter's time on a large graph. With a sink, the file's
  // bytes go to it (GlobalMetadata first) a megabyte at a time as they are built, so not even
  // the file is held: fresh memory is dear (each page is zeroed first).
  Result<EncodedChakra> encode(const std::function<void(const NodeFacts&)>& eachNode,
                               const ChakraBytesSink& sink) {
    if (auto st = plan(); !st) return st.error();
    const std::size_t n = nodeOps_.size();
    EncodedChakra out;
    out.nodeCount = n;
    constexpr std::size_t kChunk = 1 << 20;
    std::string chunk;
    Status sunk = Ok{};
    // Hands the chunk to the sink once it is full (or `last`); false when the sink failed.
    auto flush = [&](bool last) {
      if (!sink || !sunk.ok() || (!last && chunk.size() < kChunk)) return sunk.ok();
      sunk = sink(chunk);
      chunk.clear();
      return sunk.ok();
    };
    std::string& target = sink ? chunk : out.nodes;
    if (sink) {
      chunk.reserve(kChunk + (64 << 10));
      appendDelimited(chunk, out_.trace.meta);
    }
    // The file holds the nodes sorted by id (stable, as serializeChakraTrace sorts them). Ops come
    // in id order in a linked trace and gap nodes take the ids after them, so the nodes are
    // usually built in file order already; otherwise each is placed after the build.
    const bool sorted = std::is_sorted(ids_.begin(), ids_.end());
    std::string built;
    std::vector<std::size_t> offsets;
    if (!sorted) offsets.reserve(n + 1);
    NodeWriter node;
    for (std::size_t i = 0; i < n; ++i) {
      node.clear();
      buildNode(i, node);
      if (eachNode) eachNode(node.facts());
      if (sorted) {
        node.appendDelimitedTo(target);
        if (!flush(false)) return sunk.error();
        continue;
      }
      offsets.push_back(built.size());
      node.appendDelimitedTo(built);
    }
    if (!sorted) {
      offsets.push_back(built.size());
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
      for (auto i : order) {
        target.append(built, offsets[i], offsets[i + 1] - offsets[i]);
        if (!flush(false)) return sunk.error();
      }
    }
    if (!flush(true)) return sunk.error();
    out.meta = std::move(out_.trace.meta);
    out.problems = std::move(out_.trace.problems);
    out.stats = std::move(out_.stats);
    return out;
  }

 private:
  struct Dep {
    std::int32_t node;  // index into nodeOps_
    EdgeKind kind;
  };

  Status checkMatch() const {
    const LinkReport& r = L_.report;
    const double ratio = matchedEtRatio(r);
    if (r.etOps == 0 || ratio >= O_.minMatchedEtRatio) return Ok{};
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f %%", 100.0 * ratio);
    const std::string kineto = L_.kineto ? " of the Kineto trace " + L_.kineto->path : "";
    return makeError(
        pathName(), "not converted: only " + std::to_string(r.matchedEtOps) + " of " +
                        std::to_string(r.etOps) + " execution-trace ops (" + percent +
                        ") matched an op" + kineto + " (linked by " + r.matching + "); the other " +
                        std::to_string(r.etOps - r.matchedEtOps) +
                        " would be nodes with no measured time. Check that both files are from "
                        "the same run (--force converts anyway)");
  }

  std::string pathName() const {
    if (L_.et) return L_.et->path;
    return L_.kineto ? L_.kineto->path : std::string();
  }
  ProblemLog& problems() { return out_.trace.problems; }

  std::int32_t opIndex(std::int64_t id) const { return static_cast<std::int32_t>(L_.indexOf(id)); }
  // The op's parent, or -1 (the process root is its own parent). Looked up once per op: the
  // walks up the call stack (callers, collectives, costs) take millions of steps on a large trace.
  std::int32_t parentOf(std::int32_t op) const { return parents_[static_cast<std::size_t>(op)]; }
  void indexParents() {
    parents_.resize(L_.ops.size());
    for (std::size_t i = 0; i < L_.ops.size(); ++i) {
      const auto& o = L_.ops[i];
      parents_[i] = o.parent < 0 || o.parent == o.id ? -1 : opIndex(o.parent);
    }
  }
  bool isAncestor(std::int32_t ancestor, std::int32_t op) const {
    int guard = 0;
    for (auto p = parentOf(op); p >= 0 && guard++ < kMaxAncestry; p = parentOf(p))
      if (p == ancestor) return true;
    return false;
  }
  // The nearest ancestor that is a node of the output, skipping ops not exported (a
  // process-group init kept in the metadata), stopping at the ET's roots.
  std::int32_t nearestNodeAncestor(std::int32_t op) const {
    int guard = 0;
    for (auto p = parentOf(op); p >= 0 && guard++ < kMaxAncestry; p = parentOf(p)) {
      if (nodeOf_[static_cast<std::size_t>(p)] != kNoNode)
        return nodeOf_[static_cast<std::size_t>(p)];
      const EtNode* et = L_.etNode(L_.ops[static_cast<std::size_t>(p)]);
      if (et && (et->isRoot() || et->isThreadRoot())) return kNoNode;
    }
    return kNoNode;
  }

  // The collective a communication kernel performs: from its own name, else from the host ops
  // that launched it (an NCCL SendRecv kernel is a send, a recv or part of an all-to-all).
  std::optional<Collective> collectiveOf(std::int32_t op, const EtNode** commOp) const {
    auto c = collectiveFromName(L_.ops[static_cast<std::size_t>(op)].name);
    int guard = 0;
    for (auto p = parentOf(op); p >= 0 && guard++ < kMaxAncestry; p = parentOf(p)) {
      const auto& o = L_.ops[static_cast<std::size_t>(p)];
      const EtNode* et = L_.etNode(o);
      if (!et || (!et->comm && !isCommHostOpName(o.name))) continue;
      if (!*commOp) *commOp = et;
      if (c && *c != Collective::SendRecv) return c;
      std::optional<Collective> host;
      if (et->comm && !et->comm->collectiveName.empty())
        host = collectiveFromName(et->comm->collectiveName);
      if (!host) host = collectiveFromName(o.name);
      if (host && *host != Collective::SendRecv) return host;
    }
    return c;
  }

  void classify() {
    for (std::size_t i = 0; i < L_.ops.size(); ++i) {
      const LinkedOp& op = L_.ops[i];
      const EtNode* et = L_.etNode(op);
      Planned plan;
      plan.op = static_cast<std::int32_t>(i);
      if (op.isCpu()) {
        if (et && (et->isRoot() || et->isThreadRoot())) continue;
        if (isProcessGroupInit(op.name)) {
          if (et) pgInits_.emplace_back(et->inputs.valuesJson);
          if (!O_.metadataNodes) {
            problems().add(Severity::Info,
                           "process-group init kept in GlobalMetadata pg_config, not as a node "
                           "(ASTRA-sim aborts on METADATA_NODE; see the metadata-nodes option)",
                           op.name);
            continue;
          }
          plan.type = ChakraProtoMsg::METADATA_NODE;
        } else if (O_.astraSimTimelines && isCollectiveWorkerOp(L_, op)) {
          classifyWorkerComm(plan);
        } else {
          plan.type = ChakraProtoMsg::COMP_NODE;
        }
      } else if (isCommKernelName(op.name) || !op.pgName.empty()) {
        classifyComm(plan);
      } else {
        plan.type = ChakraProtoMsg::COMP_NODE;
      }
      nodeOf_[i] = static_cast<std::int32_t>(nodeOps_.size());
      nodeOps_.push_back(plan);
    }
  }

  // A node's plan, kept small (one per node: fresh memory is dear); what only communication
  // kernels have is in comms_.
  struct Planned {
    std::int32_t op = -1;  // a gap node: the op it precedes
    ChakraProtoMsg::NodeType type = ChakraProtoMsg::COMP_NODE;
    std::int32_t hostGap = -1, deviceGap = -1;  // index into gaps_.host / gaps_.device
    std::int32_t comm = -1;                     // index into comms_
  };
  struct CommPlan {
    std::optional<Collective> collective;
    const EtNode* commOp = nullptr;  // the host op that carries the comm's arguments
    std::int64_t peer = -1, tag = 0;
    std::int64_t commSize = 0;  // comm_size of a communication node
  };

  void classifyComm(Planned& plan) {
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    plan.comm = static_cast<std::int32_t>(comms_.size());
    CommPlan& comm = comms_.emplace_back();
    comm.collective = collectiveOf(plan.op, &comm.commOp);
    plan.type = ChakraProtoMsg::COMP_NODE;
    if (!comm.collective || *comm.collective == Collective::SendRecv) {
      problems().add(Severity::Warning,
                     "communication kernel whose collective is unknown (exported as COMP_NODE)",
                     op.name);
      comm.collective.reset();
      return;
    }
    const Collective c = *comm.collective;
    if (c == Collective::Send || c == Collective::Recv) {
      const char* peerName = c == Collective::Send ? "dst" : "src";
      if (comm.commOp) {
        comm.peer = intArgument(*comm.commOp, peerName).value_or(-1);
        comm.tag = intArgument(*comm.commOp, "tag").value_or(0);
      }
      if (comm.peer < 0) {
        problems().add(Severity::Warning,
                       "point-to-point kernel with unknown peer rank (exported as COMP_NODE)",
                       op.name);
        return;
      }
      plan.type =
          c == Collective::Send ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE;
      return;
    }
    if (!astraSimSupports(c) && !O_.unsupportedCollectivesAsComm) {
      problems().add(Severity::Warning,
                     "collective ASTRA-sim does not simulate (exported as COMP_NODE with its "
                     "measured duration)",
                     std::string(collectiveName(c)) + ": " + std::string(op.name));
      return;
    }
    plan.type = ChakraProtoMsg::COMM_COLL_NODE;
  }

  // A CPU backend's collective (gloo's "gloo:all_reduce" on its worker thread) for ASTRA-sim: a
  // COMM_COLL_NODE that the network costs, where ASTRA-sim simulates the collective; else the
  // CPU work it was measured as.
  void classifyWorkerComm(Planned& plan) {
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    plan.type = ChakraProtoMsg::COMP_NODE;
    const auto c = collectiveFromName(op.name);
    if (!c || !chakraCommType(*c) || !astraSimSupports(*c)) {
      problems().add(Severity::Warning,
                     "collective ASTRA-sim does not simulate (exported as CPU work with its "
                     "measured duration)",
                     op.name);
      return;
    }
    plan.comm = static_cast<std::int32_t>(comms_.size());
    comms_.push_back({c, nullptr, -1, 0, 0});
    plan.type = ChakraProtoMsg::COMM_COLL_NODE;
  }

  // A worker's collective: the bytes of its input tensors, from the Kineto event's "Input Dims"
  // and "Input type" (gloo's all_reduce: [[65792]] and ["float"]).
  std::optional<std::int64_t> workerCommBytes(const Planned& plan) const {
    const Event* ev = L_.kinetoEventOf(L_.ops[static_cast<std::size_t>(plan.op)]);
    if (!ev || !L_.kineto) return std::nullopt;
    const auto args = nlohmann::json::parse(L_.kineto->argsJson(*ev), nullptr, false);
    if (!args.is_object()) return std::nullopt;
    const auto dims = args.find("Input Dims");
    const auto types = args.find("Input type");
    if (dims == args.end() || !dims->is_array()) return std::nullopt;
    std::int64_t bytes = 0;
    for (std::size_t t = 0; t < dims->size(); ++t) {
      const auto& shape = (*dims)[t];
      if (!shape.is_array() || shape.empty()) continue;
      std::int64_t elems = 1;
      for (const auto& d : shape) elems *= d.is_number_integer() ? d.get<std::int64_t>() : 0;
      std::string type = "float";
      if (types != args.end() && types->is_array() && t < types->size() && (*types)[t].is_string())
        type = (*types)[t].get<std::string>();
      bytes += elems * dtypeBytes(type);
    }
    if (bytes <= 0) return std::nullopt;
    return bytes;
  }

  // Without an ET (a Kineto trace alone): the message size record_param_comms, around the
  // kernel's launch, gives in its args ("In msg nelems", "Out msg nelems", "dtype").
  std::optional<std::int64_t> kinetoCommBytes(const Planned& plan, const CommPlan& comm) const {
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    if (!L_.kineto || op.launchEvent == kNoEvent) return std::nullopt;
    const Trace& k = *L_.kineto;
    for (EventId e = op.launchEvent; e != kNoEvent && e < k.events.size(); e = k.events[e].parent) {
      const std::string_view text = k.argsJson(k.events[e]);
      if (text.find("msg nelems") == std::string_view::npos) continue;
      const auto args = nlohmann::json::parse(text, nullptr, false);
      if (!args.is_object()) continue;
      auto count = [&](const char* key) -> std::int64_t {
        const auto it = args.find(key);
        return it != args.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
      };
      const std::int64_t in = count("In msg nelems"), out = count("Out msg nelems");
      const std::int64_t elems =
          comm.collective == Collective::AllGather && in > 0 ? in : std::max(in, out);
      const auto dtype = args.find("dtype");
      if (elems > 0 && dtype != args.end() && dtype->is_string())
        return elems * dtypeBytes(dtype->get<std::string>());
    }
    return std::nullopt;
  }

  // comm_size as ASTRA-sim reads it: what each rank puts in. The larger of the ET's in/out
  // message sizes (reduce-scatter's input is the whole buffer), except for an all-gather, whose
  // output is every rank's part: its input. Else the input tensors of the host comm op.
  std::int64_t commSize(const Planned& plan) {
    const CommPlan& comm = comms_[static_cast<std::size_t>(plan.comm)];
    if (L_.ops[static_cast<std::size_t>(plan.op)].isCpu()) {
      if (const auto bytes = workerCommBytes(plan)) return *bytes;
      problems().add(Severity::Warning, "collective of unknown size (comm_size 0)",
                     L_.ops[static_cast<std::size_t>(plan.op)].name);
      return 0;
    }
    if (comm.commOp && comm.commOp->comm) {
      const auto& c = *comm.commOp->comm;
      const std::int64_t elems = comm.collective == Collective::AllGather && c.inMsgNelems > 0
                                     ? c.inMsgNelems
                                     : std::max(c.inMsgNelems, c.outMsgNelems);
      if (elems > 0) return elems * dtypeBytes(c.dtype);
    }
    if (comm.commOp) {
      std::int64_t bytes = 0;
      for (const auto& t : comm.commOp->inputs.tensors) bytes += t.numel * t.itemsize;
      if (bytes > 0) return bytes;
    }
    if (const auto bytes = kinetoCommBytes(plan, comm)) return *bytes;
    problems().add(Severity::Warning, "collective of unknown size (comm_size 0)",
                   L_.ops[static_cast<std::size_t>(plan.op)].name);
    return 0;
  }

  bool isGap(std::size_t node) const {
    return nodeOps_[node].hostGap >= 0 || nodeOps_[node].deviceGap >= 0;
  }

  // Gap nodes go after the op nodes; each is placed before the op it precedes in its thread's or
  // stream's order. A host gap with no own time left keeps only its waits, given to that op.
  void planGaps() {
    gapBefore_.assign(nodeOps_.size(), kNoNode);
    out_.stats.blockedNs = gaps_.blockedNs;
    for (std::size_t g = 0; g < gaps_.host.size(); ++g) {
      const HostGap& gap = gaps_.host[g];
      const auto before = nodeOf_[gap.beforeOp];
      if (before == kNoNode) continue;
      if (gap.duration == 0) {
        for (auto w : gap.waitsOn) extraWaits_[before].push_back(w);
        continue;
      }
      Planned plan;
      plan.op = static_cast<std::int32_t>(gap.beforeOp);
      plan.hostGap = static_cast<std::int32_t>(g);
      gapBefore_[static_cast<std::size_t>(before)] = static_cast<std::int32_t>(nodeOps_.size());
      nodeOps_.push_back(plan);
      ++out_.stats.hostGapNodes;
    }
    for (std::size_t g = 0; g < gaps_.device.size(); ++g) {
      const auto before = nodeOf_[gaps_.device[g].beforeOp];
      if (before == kNoNode) continue;
      Planned plan;
      plan.op = static_cast<std::int32_t>(gaps_.device[g].beforeOp);
      plan.deviceGap = static_cast<std::int32_t>(g);
      gapBefore_[static_cast<std::size_t>(before)] = static_cast<std::int32_t>(nodeOps_.size());
      nodeOps_.push_back(plan);
      ++out_.stats.deviceGapNodes;
    }
  }

  // A gap node: "host gap" on the thread of the op after it, "device gap" on its stream.
  template <typename Out>
  void buildGapNode(std::size_t n, Out& node) {
    const Planned& plan = nodeOps_[n];
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    const bool host = plan.hostGap >= 0;
    const TimeNs start = host ? gaps_.host[static_cast<std::size_t>(plan.hostGap)].start
                              : gaps_.device[static_cast<std::size_t>(plan.deviceGap)].start;
    const TimeNs dur = host ? gaps_.host[static_cast<std::size_t>(plan.hostGap)].duration
                            : gaps_.device[static_cast<std::size_t>(plan.deviceGap)].duration;
    node.setId(ids_[n]);
    node.setName(host ? kHostGapName : kDeviceGapName);
    node.setType(ChakraProtoMsg::COMP_NODE);
    node.setStartTimeMicros(roundMicros(start - base_));
    node.setDurationMicros(roundMicros(dur));
    if (host) {
      const EtNode* et = L_.etNode(op);
      node.attrInt64("tid", et ? et->tid : op.tid);
      node.attrBool("is_cpu_op", true);
      return;
    }
    node.attrBool("is_cpu_op", false);
    node.attrInt64("stream", op.stream);
    if (op.device >= 0) node.attrInt64("device", op.device);
  }

  // The op's duration in the graph: its own time (measuredGaps), else exclusive (CPU) or
  // inclusive (device) time.
  TimeNs durationOf(std::size_t opIndex) const {
    const LinkedOp& op = L_.ops[opIndex];
    if (O_.measuredGaps) return gaps_.ownDur[opIndex];
    return op.isCpu() ? op.exclusiveDur : op.inclusiveDur;
  }

  // Ids (gap nodes take the ids after the last op's, in node order), the time base, the node
  // counts and each collective's size, in node order, before any edge is added.
  void prepareNodes() {
    TimeNs base = 0;
    for (const auto& op : L_.ops)
      if (op.ts > 0 && (base == 0 || op.ts < base)) base = op.ts;
    base_ = base;
    std::int64_t nextGapId = 0;
    for (const auto& op : L_.ops) nextGapId = std::max(nextGapId, op.id + 1);
    ids_.resize(nodeOps_.size());
    for (std::size_t n = 0; n < nodeOps_.size(); ++n) {
      Planned& plan = nodeOps_[n];
      if (isGap(n)) {
        ids_[n] = static_cast<std::uint64_t>(nextGapId++);
        continue;
      }
      const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
      ids_[n] = static_cast<std::uint64_t>(op.id);
      if (op.isCpu()) {
        ++out_.stats.cpuNodes;
        if (isComm(plan.type))
          comms_[static_cast<std::size_t>(plan.comm)].commSize = commSize(plan);
        continue;
      }
      ++out_.stats.deviceNodes;
      if (isComm(plan.type)) comms_[static_cast<std::size_t>(plan.comm)].commSize = commSize(plan);
    }
  }

  static bool isComm(ChakraProtoMsg::NodeType type) {
    return type == ChakraProtoMsg::COMM_COLL_NODE || type == ChakraProtoMsg::COMM_SEND_NODE ||
           type == ChakraProtoMsg::COMM_RECV_NODE;
  }
  std::string_view nodeName(std::size_t n) const {
    if (nodeOps_[n].hostGap >= 0) return kHostGapName;
    if (nodeOps_[n].deviceGap >= 0) return kDeviceGapName;
    return L_.ops[static_cast<std::size_t>(nodeOps_[n].op)].name;
  }

  // Node n whole: its fields and attributes, then its dependencies, then its costs (the order
  // of the attributes in the file).
  template <typename Out>
  void buildNode(std::size_t n, Out& node) {
    if (isGap(n))
      buildGapNode(n, node);
    else
      buildOpNode(n, node);
    for (const auto& d : ctrl_.of(n))
      if (d.node != kNoNode) node.addCtrlDep(ids_[static_cast<std::size_t>(d.node)]);
    for (const auto& d : data_.of(n))
      if (d.node != kNoNode) node.addDataDep(ids_[static_cast<std::size_t>(d.node)]);
    if (n < costOf_.size() && costOf_[n] >= 0) {
      const NodeCost& cost = costs_[static_cast<std::size_t>(costOf_[n])];
      if (cost.numOps) node.attrInt64("num_ops", *cost.numOps);
      if (cost.tensorSize) node.attrUint64("tensor_size", *cost.tensorSize);
    }
  }

  template <typename Out>
  void buildOpNode(std::size_t n, Out& node) {
    const Planned& plan = nodeOps_[n];
    const TimeNs base = base_;
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    const EtNode* et = L_.etNode(op);
    node.setId(static_cast<std::uint64_t>(op.id));
    node.setName(op.name);
    node.setType(plan.type);
    if (op.ts > 0) node.setStartTimeMicros(roundMicros(op.ts - base));
    node.setDurationMicros(roundMicros(durationOf(static_cast<std::size_t>(plan.op))));
    if (et) {
      // A METADATA node's inputs.values is its process group (ASTRA-sim's parser reads it).
      typesJson(et->inputs, types_);
      node.setInputs(et->inputs.valuesJson, et->inputs.shapesJson(), types_);
      typesJson(et->outputs, types_);
      node.setOutputs(et->outputs.valuesJson, et->outputs.shapesJson(), types_);
    }
    if (op.isCpu() && isComm(plan.type)) {  // a worker's collective: no is_cpu_op
      node.attrInt64("tid", et ? et->tid : op.tid);
      buildCommAttrs(plan, op, node);
      return;
    }
    if (op.isCpu()) {
      const Event* ev = L_.kinetoEventOf(op);
      node.attrInt64(
          "rf_id",
          et ? et->rfId : (ev && ev->recordFunctionId != kNoId ? ev->recordFunctionId : -1));
      if (et) {
        node.attrInt64("fw_parent", et->fwParent);
        node.attrInt64("seq_id", et->seqId);
        node.attrInt64("scope", et->scope);
      }
      node.attrInt64("tid", et ? et->tid : op.tid);
      if (et) {
        node.attrInt64("fw_tid", et->fwTid);
        node.attrString("op_schema", et->opSchema);
      }
      // ASTRA-sim refuses is_cpu_op on comm nodes; a METADATA node is no comm node.
      node.attrBool("is_cpu_op", true);
      return;
    }
    const bool comm = isComm(plan.type);
    if (!comm) node.attrBool("is_cpu_op", false);
    node.attrInt64("stream", op.stream);
    if (op.device >= 0) node.attrInt64("device", op.device);
    if (!comm) return;
    buildCommAttrs(plan, op, node);
  }

  template <typename Out>
  void buildCommAttrs(const Planned& plan, const LinkedOp& op, Out& node) {
    const CommPlan& c = comms_[static_cast<std::size_t>(plan.comm)];
    std::string_view pg = op.pgName;
    if (pg.empty() && c.commOp && c.commOp->comm) pg = c.commOp->comm->pgName;
    if (plan.type == ChakraProtoMsg::COMM_COLL_NODE)
      node.attrInt64("comm_type", *chakraCommType(*c.collective));
    node.attrInt64("comm_size", c.commSize);
    if (!pg.empty()) node.attrString("pg_name", pg);
    if (plan.type != ChakraProtoMsg::COMM_COLL_NODE) {
      const auto self = static_cast<std::int32_t>(L_.rank);
      const auto peer = static_cast<std::int32_t>(c.peer);
      node.attrInt32("comm_src", plan.type == ChakraProtoMsg::COMM_SEND_NODE ? self : peer);
      node.attrInt32("comm_dst", plan.type == ChakraProtoMsg::COMM_SEND_NODE ? peer : self);
      node.attrInt32("comm_tag", static_cast<std::int32_t>(c.tag));
    }
  }

  // Edges are gathered as they are found, then put in per-node lists (listEdges); a repeated
  // dependency (same node, same list) is dropped there, the first one kept.
  void addDep(std::int32_t node, std::int32_t dep, EdgeKind kind) {
    if (dep == kNoNode || dep == node) return;
    edges_.push_back({node, dep, kind});
  }

  // Each node's control and data dependencies, in the order they were added, without repeats.
  void listEdges() {
    const std::size_t n = nodeOps_.size();
    for (DepLists* lists : {&ctrl_, &data_}) {
      const bool ctrl = lists == &ctrl_;
      auto& start = lists->start;
      auto& deps = lists->deps;
      // Counting sort by node (stable): start[node + 1] counts, then ends, the node's deps.
      start.assign(n + 2, 0);
      for (const Edge& e : edges_)
        if ((e.kind == EdgeKind::Ctrl) == ctrl) ++start[static_cast<std::size_t>(e.node) + 2];
      for (std::size_t i = 2; i < start.size(); ++i) start[i] += start[i - 1];
      deps.resize(start.back());
      for (const Edge& e : edges_)
        if ((e.kind == EdgeKind::Ctrl) == ctrl)
          deps[start[static_cast<std::size_t>(e.node) + 1]++] = {e.dep, e.kind};
      start.pop_back();
      // Repeats out, in place.
      std::uint32_t write = 0, read = 0;
      for (std::size_t node = 0; node < n; ++node) {
        const std::uint32_t end = start[node + 1];
        start[node] = write;
        for (; read < end; ++read) {
          bool seen = false;
          for (std::uint32_t k = start[node]; k < write && !seen; ++k)
            seen = deps[k].node == deps[read].node;
          if (!seen) deps[write++] = deps[read];
        }
      }
      start[n] = write;
      deps.resize(write);
    }
    edges_ = {};
  }
  void addDepOnOp(std::int32_t node, std::int64_t depId, EdgeKind kind) {
    const auto op = opIndex(depId);
    const auto dep = op >= 0 ? nodeOf_[static_cast<std::size_t>(op)] : kNoNode;
    if (dep == kNoNode) {
      ++out_.stats.droppedDeps;
      problems().add(Severity::Info,
                     "dependency on an op that is not a node of the output (dropped)",
                     std::string(edgeKindName(kind)) + " of " +
                         std::string(nodeName(static_cast<std::size_t>(node))) + " on id " +
                         std::to_string(depId));
      return;
    }
    addDep(node, dep, kind);
  }

  void addEdges() {
    const std::size_t n = nodeOps_.size();
    edges_.reserve(4 * n);
    // Serial order per thread, and device order per stream.
    std::map<std::int64_t, std::vector<std::int32_t>> threads;
    std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::int32_t>> streams;
    // The last op's thread and stream, kept: ops come in runs of one thread or stream.
    std::vector<std::int32_t>*thread = nullptr, *stream = nullptr;
    std::int64_t threadTid = 0;
    std::pair<std::int32_t, std::int64_t> streamKey;
    for (std::size_t i = 0; i < n; ++i) {
      if (isGap(i)) continue;
      const LinkedOp& op = L_.ops[static_cast<std::size_t>(nodeOps_[i].op)];
      const auto gap = gapBefore(static_cast<std::int32_t>(i));
      if (op.isCpu()) {
        if (!thread || op.tid != threadTid) thread = &threads[threadTid = op.tid];
        if (gap != kNoNode) thread->push_back(gap);
        thread->push_back(static_cast<std::int32_t>(i));
      } else {
        const std::pair<std::int32_t, std::int64_t> key{op.device, op.stream};
        if (!stream || key != streamKey) stream = &streams[streamKey = key];
        stream->push_back(static_cast<std::int32_t>(i));
      }
    }
    threads_.clear();
    threadPos_.assign(n, {-1, -1});
    for (auto& [tid, chain] : threads) {
      const auto t = static_cast<std::int32_t>(threads_.size());
      for (std::size_t k = 0; k < chain.size(); ++k) {
        threadPos_[static_cast<std::size_t>(chain[k])] = {t, static_cast<std::int32_t>(k)};
        if (k > 0) addDep(chain[k], chain[k - 1], EdgeKind::Serial);
      }
      threads_.push_back(std::move(chain));
    }
    if (O_.streamOrder) {
      for (auto& [key, chain] : streams) {
        std::stable_sort(chain.begin(), chain.end(), [&](auto a, auto b) {
          return L_.ops[static_cast<std::size_t>(nodeOps_[static_cast<std::size_t>(a)].op)].ts <
                 L_.ops[static_cast<std::size_t>(nodeOps_[static_cast<std::size_t>(b)].op)].ts;
        });
        std::vector<std::int32_t> withGaps;
        for (const auto node : chain) {
          if (const auto gap = gapBefore(node); gap != kNoNode) withGaps.push_back(gap);
          withGaps.push_back(node);
        }
        for (std::size_t k = 1; k < withGaps.size(); ++k)
          addDep(withGaps[k], withGaps[k - 1], EdgeKind::Stream);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const auto node = static_cast<std::int32_t>(i);
      const std::int32_t opIdx = nodeOps_[i].op;
      const LinkedOp& op = L_.ops[static_cast<std::size_t>(opIdx)];
      if (isGap(i)) {
        addGapDeps(nodeOps_[i], node);
        continue;
      }
      const auto caller = nearestNodeAncestor(opIdx);
      addDep(node, caller, EdgeKind::Ctrl);
      if (op.isDevice()) addDep(node, caller, EdgeKind::Launch);
      for (auto id : op.interThreadDeps)
        if (startsAfterEndOf(op, id)) addDepOnOp(node, id, EdgeKind::InterThread);
      if (auto w = extraWaits_.find(node); w != extraWaits_.end())
        for (auto waited : w->second)
          addDep(node, nodeOf_[waited],
                 L_.ops[waited].isDevice() ? EdgeKind::Sync : EdgeKind::InterThread);
      for (auto id : op.syncDeps) addSync(node, opIdx, id);
    }
  }

  // An inter-thread dependency means "after the end of": one on an op that was still running
  // when the waiting op began is left out (a graph simulator would delay the op for it).
  bool startsAfterEndOf(const LinkedOp& op, std::int64_t depId) {
    const LinkedOp* dep = L_.find(depId);
    if (!dep || dep->ts <= 0 || op.ts <= 0 || dep->ts + dep->inclusiveDur <= op.ts) return true;
    ++out_.stats.interThreadDepsDropped;
    problems().add(Severity::Info,
                   "inter-thread dependency on an op still running when the op began (dropped)",
                   std::string(op.name) + " on " + std::string(dep->name));
    return false;
  }

  // A host gap waits for the ops of other threads its thread waited on; a device gap for what
  // the device op after it waited on: its launch and the other streams' ops.
  void addGapDeps(const Planned& plan, std::int32_t node) {
    if (plan.hostGap >= 0) {
      for (auto w : gaps_.host[static_cast<std::size_t>(plan.hostGap)].waitsOn)
        addDep(node, nodeOf_[w], L_.ops[w].isDevice() ? EdgeKind::Sync : EdgeKind::InterThread);
      return;
    }
    const LinkedOp& op = L_.ops[static_cast<std::size_t>(plan.op)];
    addDep(node, nearestNodeAncestor(plan.op), EdgeKind::Launch);
    for (auto id : op.syncDeps) {
      const auto waited = opIndex(id);
      if (waited >= 0 && L_.ops[static_cast<std::size_t>(waited)].isDevice())
        addDep(node, nodeOf_[static_cast<std::size_t>(waited)], EdgeKind::Sync);
    }
  }

  // A wait on a device op: the waiter depends on it, unless the waiter (or an op it called)
  // launched that op itself; then the first op after the waiter's subtree on its thread waits.
  void addSync(std::int32_t node, std::int32_t waiterOp, std::int64_t waitedId) {
    const auto waitedOp = opIndex(waitedId);
    const auto waited = waitedOp >= 0 ? nodeOf_[static_cast<std::size_t>(waitedOp)] : kNoNode;
    if (waited == kNoNode) {
      addDepOnOp(node, waitedId, EdgeKind::Sync);
      return;
    }
    const LinkedOp& w = L_.ops[static_cast<std::size_t>(waiterOp)];
    const LinkedOp& d = L_.ops[static_cast<std::size_t>(waitedOp)];
    if (w.ts > 0 && d.ts > 0 && d.ts >= w.ts + std::max<TimeNs>(w.inclusiveDur, 1)) {
      problems().add(
          Severity::Warning,
          "sync dependency on a device op that starts after the waiting op ends (dropped)",
          std::string(w.name) + " on " + std::string(d.name));
      ++out_.stats.syncDepsDropped;
      return;
    }
    if (w.isCpu() && (waitedOp == waiterOp || isAncestor(waiterOp, waitedOp))) {
      const auto& pos = threadPos_[static_cast<std::size_t>(node)];
      if (pos.second < 0) return;
      const auto& chain = threads_[static_cast<std::size_t>(pos.first)];
      auto k = static_cast<std::size_t>(pos.second) + 1;
      while (k < chain.size() &&
             isAncestor(waiterOp, nodeOps_[static_cast<std::size_t>(chain[k])].op))
        ++k;
      if (k >= chain.size()) {
        problems().add(Severity::Info, "sync on own work with no later op on the thread (dropped)",
                       w.name);
        ++out_.stats.syncDepsDropped;
        return;
      }
      ++out_.stats.syncDepsRedirected;
      addDep(chain[k], waited, EdgeKind::Sync);
      return;
    }
    addDep(node, waited, EdgeKind::Sync);
  }

  // Removes back edges found by a depth-first walk over the dependencies, so every node can be
  // issued; each removal is a counted problem naming the edge.
  void breakCycles() {
    const std::size_t n = nodeOps_.size();
    enum : std::uint8_t { White, Grey, Black };
    std::vector<std::uint8_t> colour(n, White);
    struct Frame {
      std::int32_t node;
      std::size_t next;
    };
    auto depAt = [&](std::int32_t node, std::size_t k) -> Dep* {
      const auto c = ctrl_.of(static_cast<std::size_t>(node));
      const auto d = data_.of(static_cast<std::size_t>(node));
      if (k < c.size()) return &c[k];
      k -= c.size();
      return k < d.size() ? &d[k] : nullptr;
    };
    // Which edge of a cycle is flagged depends on the walk: starting from the latest node and
    // following structural edges (caller, serial, launch, stream) before inter-thread and sync
    // ones makes the flagged edge, where there is a choice, the inferred one.
    for (std::size_t i = 0; i < n; ++i) {  // a stable insertion sort: the lists are short
      const auto list = data_.of(i);
      for (std::size_t k = 1; k < list.size(); ++k)
        for (std::size_t j = k; j > 0 && list[j].kind < list[j - 1].kind; --j)
          std::swap(list[j], list[j - 1]);
    }
    std::vector<Frame> stack;
    for (std::size_t r = n; r-- > 0;) {
      const std::size_t root = r;
      if (colour[root] != White) continue;
      stack.push_back({static_cast<std::int32_t>(root), 0});
      colour[root] = Grey;
      while (!stack.empty()) {
        Frame& f = stack.back();
        Dep* dep = depAt(f.node, f.next++);
        if (!dep) {
          colour[static_cast<std::size_t>(f.node)] = Black;
          stack.pop_back();
          continue;
        }
        if (dep->node == kNoNode) continue;
        const auto target = static_cast<std::size_t>(dep->node);
        if (colour[target] == Grey) {
          ++out_.stats.cyclesBroken;
          problems().add(Severity::Warning, "dependency cycle broken by removing an edge",
                         std::string(edgeKindName(dep->kind)) + " dependency of node " +
                             std::to_string(ids_[static_cast<std::size_t>(f.node)]) + " (" +
                             std::string(nodeName(static_cast<std::size_t>(f.node))) +
                             ") on node " + std::to_string(ids_[target]) + " (" +
                             std::string(nodeName(target)) + ")");
          dep->node = kNoNode;
        } else if (colour[target] == White) {
          colour[target] = Grey;
          stack.push_back({dep->node, 0});
        }
      }
    }
  }

  // The edges kept (buildNode writes them), by kind.
  void countEdges() {
    for (std::size_t i = 0; i < nodeOps_.size(); ++i) {
      for (const auto& d : ctrl_.of(i))
        if (d.node != kNoNode) ++out_.stats.edges[static_cast<std::size_t>(EdgeKind::Ctrl)];
      for (const auto& d : data_.of(i))
        if (d.node != kNoNode) ++out_.stats.edges[static_cast<std::size_t>(d.kind)];
    }
  }

  // num_ops and tensor_size: on the innermost recognised compute op (linear over addmm would
  // count twice), moved onto the device ops it launched where there are any (the GPU does the
  // work), split evenly among them. Copies and sets with no compute op above them get the bytes
  // of their innermost ET op. Kept in costs_ for buildNode; each node gets one entry at most.
  void addCosts() {
    const std::size_t nOps = L_.ops.size();
    costOf_.assign(nodeOps_.size(), -1);
    std::vector<char> compute(nOps, 0), leaf(nOps, 0);
    for (std::size_t i = 0; i < nOps; ++i)
      if (const EtNode* et = L_.etNode(L_.ops[i]); et && L_.ops[i].isCpu())
        leaf[i] = compute[i] = isComputeOp(*et);
    for (std::size_t i = 0; i < nOps; ++i) {
      if (!compute[i]) continue;
      int guard = 0;
      for (auto p = parentOf(static_cast<std::int32_t>(i)); p >= 0 && guard++ < kMaxAncestry;
           p = parentOf(p))
        leaf[static_cast<std::size_t>(p)] = 0;
    }
    std::vector<std::pair<std::int32_t, std::int32_t>> devicesOf;  // (leaf op, device node)
    std::vector<std::pair<std::int32_t, std::int32_t>> bytesOnly;  // device node, ET op
    for (std::size_t n = 0; n < nodeOps_.size(); ++n) {
      const auto op = nodeOps_[n].op;
      if (isGap(n) || !L_.ops[static_cast<std::size_t>(op)].isDevice() ||
          nodeOps_[n].type != ChakraProtoMsg::COMP_NODE)
        continue;
      std::int32_t firstEt = -1;
      int guard = 0;
      bool found = false;
      for (auto p = parentOf(op); p >= 0 && guard++ < kMaxAncestry; p = parentOf(p)) {
        if (firstEt < 0 && L_.etNode(L_.ops[static_cast<std::size_t>(p)])) firstEt = p;
        if (leaf[static_cast<std::size_t>(p)]) {
          devicesOf.emplace_back(p, static_cast<std::int32_t>(n));
          found = true;
          break;
        }
      }
      if (!found && firstEt >= 0) bytesOnly.emplace_back(static_cast<std::int32_t>(n), firstEt);
    }
    // One entry per node at most: a leaf's own node or its device nodes, or a copy's bytes.
    costs_.reserve(static_cast<std::size_t>(std::count(leaf.begin(), leaf.end(), 1)) +
                   devicesOf.size() + bytesOnly.size());
    // Each leaf's device nodes together, in node order.
    std::stable_sort(devicesOf.begin(), devicesOf.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    auto next = devicesOf.begin();
    for (std::size_t i = 0; i < nOps; ++i) {
      if (!leaf[i]) continue;
      while (next != devicesOf.end() && next->first < static_cast<std::int32_t>(i)) ++next;
      auto end = next;
      while (end != devicesOf.end() && end->first == static_cast<std::int32_t>(i)) ++end;
      const OpCost cost = estimateOpCost(*L_.etNode(L_.ops[i]));
      if (next == end) {
        if (nodeOf_[i] == kNoNode) continue;
        NodeCost& node = costFor(nodeOf_[i]);
        node.numOps = cost.flops;
        node.tensorSize = cost.tensorBytes;
        continue;
      }
      const auto parts = static_cast<std::int64_t>(end - next);
      for (auto d = next; d != end; ++d) {
        NodeCost& node = costFor(d->second);
        const bool first = d == next;
        const std::int64_t extraOps = first ? cost.flops % parts : 0;
        const std::uint64_t extraBytes =
            first ? cost.tensorBytes % static_cast<std::uint64_t>(parts) : 0;
        node.numOps = cost.flops / parts + extraOps;
        node.tensorSize = cost.tensorBytes / static_cast<std::uint64_t>(parts) + extraBytes;
      }
      next = end;
    }
    for (const auto& [node, etOp] : bytesOnly) {
      const EtNode* et = L_.etNode(L_.ops[static_cast<std::size_t>(etOp)]);
      costFor(node).tensorSize = estimateOpCost(*et).tensorBytes;
    }
  }

  void writeMetadata() {
    auto& meta = out_.trace.meta;
    meta.set_version("0.0.4");
    if (L_.et) {
      metaAttr(meta, "schema", L_.et->schema);
      metaAttr(meta, "pid", static_cast<std::uint64_t>(L_.et->pid));
      metaAttr(meta, "time", L_.et->time);
      metaAttr(meta, "start_ts", static_cast<std::uint64_t>(L_.et->startTs));
      metaAttr(meta, "finish_ts", static_cast<std::uint64_t>(L_.et->finishTs));
    }
    metaAttr(meta, "converter", std::string("sutra"));
    metaAttr(meta, "rank", static_cast<std::int64_t>(L_.rank));
    if (L_.kineto && L_.kineto->meta.worldSize)
      metaAttr(meta, "world_size", static_cast<std::int64_t>(*L_.kineto->meta.worldSize));
    metaAttr(meta, "start_time_base_ns", static_cast<std::int64_t>(base_));
    if (L_.kineto && !L_.kineto->meta.distributedInfoJson.empty())
      metaAttr(meta, "distributed_info", L_.kineto->meta.distributedInfoJson);
    if (!pgInits_.empty()) {
      std::string all = "[";
      for (std::size_t i = 0; i < pgInits_.size(); ++i) all += (i ? "," : "") + pgInits_[i];
      metaAttr(meta, "pg_config", all + "]");
    }
  }

  const LinkedTrace& L_;
  const ConvertOptions& O_;
  ChakraConversion out_;
  std::vector<std::int32_t> nodeOf_;  // op index -> node index
  std::vector<Planned> nodeOps_;      // node index -> plan (op index, type ...)
  std::vector<CommPlan> comms_;       // Planned::comm -> what a communication node carries
  struct Edge {
    std::int32_t node, dep;
    EdgeKind kind;
  };
  std::vector<Edge> edges_;  // as addEdges finds them, until listEdges
  // Each node's dependencies of one list (control or data) in one array: a vector per node was
  // an allocation per node, and as many fresh pages.
  struct DepLists {
    std::vector<std::uint32_t> start;  // node -> its first dep; start[node count] = the total
    std::vector<Dep> deps;
    std::span<Dep> of(std::size_t node) {
      return {deps.data() + start[node], deps.data() + start[node + 1]};
    }
  };
  DepLists ctrl_, data_;
  std::vector<std::vector<std::int32_t>> threads_;  // each thread's CPU nodes in id order
  // CPU node -> (its thread in threads_, its position there), (-1, -1) for the other nodes.
  std::vector<std::pair<std::int32_t, std::int32_t>> threadPos_;
  std::vector<std::string> pgInits_;
  TimeNs base_ = 0;
  MeasuredGaps gaps_;
  std::vector<std::int32_t> gapBefore_;  // op node -> the gap node before it, or kNoNode
  std::int32_t gapBefore(std::int32_t node) const {
    return static_cast<std::size_t>(node) < gapBefore_.size()
               ? gapBefore_[static_cast<std::size_t>(node)]
               : kNoNode;
  }
  std::vector<std::int32_t> parents_;  // op index -> its parent's op index, or -1
  // Nodes whose host gap had no own time left: the other threads' ops they waited for.
  std::unordered_map<std::int32_t, std::vector<std::uint32_t>> extraWaits_;
  std::vector<std::uint64_t> ids_;  // node index -> node id
  // num_ops and tensor_size of a node (addCosts), written after its other attributes.
  struct NodeCost {
    std::optional<std::int64_t> numOps;
    std::optional<std::uint64_t> tensorSize;
  };
  std::vector<NodeCost> costs_;       // the nodes that have costs (few: not every CPU op)
  std::vector<std::int32_t> costOf_;  // node index -> index into costs_, or -1
  NodeCost& costFor(std::int32_t node) {
    auto& k = costOf_[static_cast<std::size_t>(node)];
    if (k < 0) {
      k = static_cast<std::int32_t>(costs_.size());
      costs_.emplace_back();
    }
    return costs_[static_cast<std::size_t>(k)];
  }
  std::string types_;  // buildOpNode's inputs' or outputs' types as JSON, reused
};

}  // namespace

std::string_view edgeKindName(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::Ctrl:
      return "ctrl";
    case EdgeKind::Serial:
      return "serial";
    case EdgeKind::Launch:
      return "launch";
    case EdgeKind::Stream:
      return "stream";
    case EdgeKind::InterThread:
      return "inter_thread";
    case EdgeKind::Sync:
      return "sync";
    case EdgeKind::Count:
      break;
  }
  return "unknown";
}

double matchedEtRatio(const LinkReport& report) {
  return report.etOps == 0
             ? 1.0
             : static_cast<double>(report.matchedEtOps) / static_cast<double>(report.etOps);
}

std::size_t ConvertStats::totalEdges() const {
  return std::accumulate(edges.begin(), edges.end(), std::size_t{0});
}

Result<ChakraConversion> convertToChakra(const LinkedTrace& linked, const ConvertOptions& options) {
  Converter c(linked, options);
  return c.run();
}

Result<EncodedChakra> encodeToChakra(const LinkedTrace& linked, const ConvertOptions& options,
                                     const std::function<void(const NodeFacts&)>& eachNode,
                                     const ChakraBytesSink& sink) {
  Converter c(linked, options);
  return c.encode(eachNode, sink);
}

}  // namespace sutra::chakra
