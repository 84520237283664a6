// SPDX-License-Identifier: MIT
#include "chakra/chakra_timeline.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "chakra/node_dependencies.h"
#include "model/trace_builder.h"

namespace sutra::chakra {
namespace {

using ChakraProtoMsg::AttributeProto;
using ChakraProtoMsg::Node;

template <typename List>
nlohmann::json listJson(const List& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : list.values()) out.push_back(v);
  return out;
}

nlohmann::json attrValueJson(const AttributeProto& a) {
  using A = AttributeProto;
  if (auto i = attrIntValue(a); i && a.value_case() != A::kBoolVal) return *i;
  switch (a.value_case()) {
    case A::kBoolVal:
      return a.bool_val();
    case A::kDoubleVal:
      return a.double_val();
    case A::kFloatVal:
      return a.float_val();
    case A::kStringVal:
      return a.string_val();
    case A::kBytesVal:
      return a.bytes_val();
    case A::kDoubleList:
      return listJson(a.double_list());
    case A::kFloatList:
      return listJson(a.float_list());
    case A::kInt32List:
      return listJson(a.int32_list());
    case A::kInt64List:
      return listJson(a.int64_list());
    case A::kUint32List:
      return listJson(a.uint32_list());
    case A::kUint64List:
      return listJson(a.uint64_list());
    case A::kSint32List:
      return listJson(a.sint32_list());
    case A::kSint64List:
      return listJson(a.sint64_list());
    case A::kFixed32List:
      return listJson(a.fixed32_list());
    case A::kFixed64List:
      return listJson(a.fixed64_list());
    case A::kSfixed32List:
      return listJson(a.sfixed32_list());
    case A::kSfixed64List:
      return listJson(a.sfixed64_list());
    case A::kBoolList:
      return listJson(a.bool_list());
    case A::kStringList:
      return listJson(a.string_list());
    case A::kBytesList:
      return listJson(a.bytes_list());
    default:
      return nullptr;
  }
}

std::string argsJson(const Node& n) {
  nlohmann::json j;
  j["id"] = n.id();
  j["type"] = std::string(nodeTypeName(n.type()));
  for (const auto& a : n.attr()) j[a.name()] = attrValueJson(a);
  if (n.ctrl_deps_size())
    j["ctrl_deps"] =
        nlohmann::json(std::vector<std::uint64_t>(n.ctrl_deps().begin(), n.ctrl_deps().end()));
  if (n.data_deps_size())
    j["data_deps"] =
        nlohmann::json(std::vector<std::uint64_t>(n.data_deps().begin(), n.data_deps().end()));
  if (n.has_inputs() && !n.inputs().shapes().empty()) j["input_shapes"] = n.inputs().shapes();
  if (n.has_inputs() && !n.inputs().types().empty()) j["input_types"] = n.inputs().types();
  if (n.has_outputs() && !n.outputs().shapes().empty()) j["output_shapes"] = n.outputs().shapes();
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool isComm(const Node& n) {
  return n.type() == ChakraProtoMsg::COMM_COLL_NODE || n.type() == ChakraProtoMsg::COMM_SEND_NODE ||
         n.type() == ChakraProtoMsg::COMM_RECV_NODE;
}

// The attributes that place a node on the timeline, found in one pass over its list (a lookup by
// name per attribute walked the whole list each time). The first of a name counts, as findAttr's.
struct Placement {
  std::optional<std::int64_t> isCpuOp, stream, tid, rfId;
};

Placement placementOf(const Node& n) {
  const AttributeProto *isCpuOp = nullptr, *stream = nullptr, *tid = nullptr, *rfId = nullptr;
  for (const auto& a : n.attr()) {
    const std::string& name = a.name();
    const AttributeProto** slot = name == "is_cpu_op" ? &isCpuOp
                                  : name == "stream"  ? &stream
                                  : name == "tid"     ? &tid
                                  : name == "rf_id"   ? &rfId
                                                      : nullptr;
    if (slot && !*slot) *slot = &a;
  }
  auto value = [](const AttributeProto* a) { return a ? attrIntValue(*a) : std::nullopt; };
  return {value(isCpuOp), value(stream), value(tid), value(rfId)};
}

// Host or device: `is_cpu_op` where written; else comm nodes, compute nodes and nodes with a
// stream are device work, the rest host work. A COMP_NODE without is_cpu_op is device work as
// ASTRA-sim runs it (its own example files write no is_cpu_op at all).
bool onDevice(const Node& n, const Placement& p) {
  if (p.isCpuOp) return *p.isCpuOp == 0;
  return isComm(n) || n.type() == ChakraProtoMsg::COMP_NODE || p.stream.has_value();
}

// Earliest start (us) of each node when the file has no times: after every node it depends on.
// Kahn's order; nodes on a cycle keep the latest start reached so far.
std::vector<std::uint64_t> layoutByDependencies(const ChakraTrace& et, const NodeIndex& index,
                                                std::uint64_t& stuck) {
  const std::size_t n = et.nodes.size();
  const NodeDependencies graph = NodeDependencies::build(et.nodes, index);
  std::vector<std::size_t> pending(n, 0);
  for (std::size_t i = 0; i < n; ++i) pending[i] = graph.of(i).size();
  std::vector<std::uint64_t> start(n, 0);
  std::vector<std::size_t> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.push_back(i);
  std::size_t done = 0;
  while (!ready.empty()) {
    const auto i = ready.back();
    ready.pop_back();
    ++done;
    const auto end = start[i] + et.nodes[i].duration_micros();
    for (auto d : graph.dependantsOf(i)) {
      start[d] = std::max(start[d], end);
      if (--pending[d] == 0) ready.push_back(d);
    }
  }
  stuck = n - done;
  return start;
}

// Microseconds (uint64 in the file) to nanoseconds, clamped to a quarter of TimeNs's range so
// that start + duration cannot overflow either: a broken writer (or a fuzzer) makes them huge.
TimeNs clampedMicrosToNanos(std::uint64_t micros, bool& clamped) {
  constexpr std::uint64_t kMaxMicros = static_cast<std::uint64_t>(INT64_MAX) / 1000 / 4;
  if (micros > kMaxMicros) {
    clamped = true;
    micros = kMaxMicros;
  }
  return static_cast<TimeNs>(micros) * 1000;
}

}  // namespace

Trace chakraToTimeline(const ChakraTrace& et, bool withDetails) {
  TraceBuilder b(et.path);
  Trace& t = b.trace();
  t.meta.traceName = "Chakra execution trace";
  t.meta.schemaVersion = et.meta.version();
  for (const auto& a : et.meta.attr())
    t.meta.other.emplace_back(
        a.name(), attrValueJson(a).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  t.meta.deviceBackend = "GPU";

  const NodeIndex index(et.nodes);  // a duplicate id finds its first node, for the flows too
  bool anyStart = false;
  for (const auto& node : et.nodes) anyStart = anyStart || node.start_time_micros() != 0;
  std::vector<std::uint64_t> laidOut;
  if (!anyStart && !et.nodes.empty()) {
    std::uint64_t stuck = 0;
    laidOut = layoutByDependencies(et, index, stuck);
    t.problems.add(Severity::Info,
                   "no start times in the file: nodes laid out by their dependencies", et.path);
    if (stuck > 0)
      t.problems.add(Severity::Warning,
                     "nodes on or behind a dependency cycle (laid out where the cycle was met)",
                     stuck, et.path);
  }

  const std::uint16_t cpuCat = static_cast<std::uint16_t>(t.categories.intern("cpu_op"));
  const std::uint16_t kernelCat = static_cast<std::uint16_t>(t.categories.intern("kernel"));
  b.setProcessName("CPU", "CPU");
  std::uint64_t tooLarge = 0;
  std::string tooLargeExample;
  std::unordered_map<std::int64_t, LaneId> deviceLanes, cpuLanes;  // by stream, by thread
  for (std::size_t i = 0; i < et.nodes.size(); ++i) {
    const Node& n = et.nodes[i];
    Event e;
    const Placement place = placementOf(n);
    const bool device = onDevice(n, place);
    LaneId lane;
    if (device) {
      // The reference converter writes a GPU op's stream as its `tid`. With neither, comm nodes
      // go to the "communication" lane (no resource: they run beside everything), compute nodes
      // to the "compute" lane (ASTRA-sim runs one device compute op at a time).
      constexpr std::int64_t kComm = -1, kCompute = -2;
      const std::int64_t stream = place.stream.value_or(
          place.tid.value_or(n.type() == ChakraProtoMsg::COMP_NODE ? kCompute : kComm));
      auto [it, added] = deviceLanes.try_emplace(stream, 0);
      if (added) {  // names set once per lane, not once per node
        const std::string tid = stream >= 0          ? std::to_string(stream)
                                : stream == kCompute ? std::string("compute")
                                                     : std::string("comm");
        it->second = b.lane("0", tid);
        b.setProcessName("0", "GPU");
        b.setThreadName("0", tid,
                        stream >= 0          ? "stream " + tid
                        : stream == kCompute ? std::string("device compute")
                                             : std::string("communication"));
      }
      lane = it->second;
      e.category = kernelCat;
      e.klass = CategoryClass::Kernel;
    } else {
      const std::int64_t thread = place.tid.value_or(0);
      auto [it, added] = cpuLanes.try_emplace(thread, 0);
      if (added) {
        const std::string tid = std::to_string(thread);
        it->second = b.lane("CPU", tid);
        b.setThreadName("CPU", tid, "thread " + tid);
      }
      lane = it->second;
      if (n.type() == ChakraProtoMsg::COMP_NODE || isComm(n)) {
        e.category = cpuCat;
        e.klass = CategoryClass::CpuOp;
      } else {
        std::string cat = "chakra_" + std::string(nodeTypeName(n.type()));
        std::transform(cat.begin(), cat.end(), cat.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        e.category = static_cast<std::uint16_t>(t.categories.intern(cat));
        e.klass = CategoryClass::Other;
      }
    }
    e.lane = lane;
    e.name = t.names.intern(n.name());
    const std::uint64_t startUs = laidOut.empty() ? n.start_time_micros() : laidOut[i];
    bool clamped = false;
    e.start = clampedMicrosToNanos(startUs, clamped);
    e.dur = clampedMicrosToNanos(n.duration_micros(), clamped);
    if (clamped && tooLarge++ == 0) tooLargeExample = "node " + std::to_string(n.id());
    if (const auto rf = place.rfId.value_or(-1); rf >= 0) e.recordFunctionId = rf;
    // Every event has args: args index i is node i (see below).
    b.addEvent(e, withDetails ? argsJson(n) : "{\"id\":" + std::to_string(n.id()) + "}");
  }
  if (tooLarge > 0)
    t.problems.add(Severity::Warning, "node time too large for the timeline (clamped)", tooLarge,
                   tooLargeExample);
  Trace trace = b.finish();
  if (!withDetails) return trace;

  // finish() reorders events; their args indices still follow the node order.
  std::vector<EventId> eventOfNode(et.nodes.size(), kNoEvent);
  for (EventId ev = 0; ev < trace.events.size(); ++ev) eventOfNode[trace.events[ev].args] = ev;
  const auto ctrlCat = static_cast<std::uint16_t>(trace.categories.intern(kCtrlDepCategory));
  const auto dataCat = static_cast<std::uint16_t>(trace.categories.intern(kDataDepCategory));
  std::uint64_t absent = 0;
  std::string absentExample;
  for (std::size_t i = 0; i < et.nodes.size(); ++i) {
    auto link = [&](std::uint64_t dep, std::uint16_t cat) {
      const auto at = index.find(dep);
      if (!at) {
        if (absent++ == 0)
          absentExample = "node " + std::to_string(et.nodes[i].id()) + " on " + std::to_string(dep);
        return;
      }
      trace.flows.push_back(
          Flow{eventOfNode[*at], eventOfNode[i], static_cast<std::int64_t>(et.nodes[i].id()), cat});
    };
    for (auto d : et.nodes[i].ctrl_deps()) link(d, ctrlCat);
    for (auto d : et.nodes[i].data_deps()) link(d, dataCat);
  }
  if (absent > 0)
    trace.problems.add(Severity::Warning, "dependency on a node absent from the file (not drawn)",
                       absent, absentExample);
  return trace;
}

Result<Trace> readChakraTimeline(const std::string& path) {
  auto et = readChakraTrace(path);
  if (!et) return et.error();
  Trace trace = chakraToTimeline(*et);
  trace.problems.merge(et->problems);
  return trace;
}

}  // namespace sutra::chakra
