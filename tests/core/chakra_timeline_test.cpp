// SPDX-License-Identifier: MIT
// Chakra .et files as timelines. Expected numbers from standard-library decoding of the files
// (tests/tools/et_counts.py, and for lanes a grouping of nodes by is_cpu_op/tid/stream with the
// same decoder: feeder_chakra.0.et has CPU tid 1: 868, tid 2: 1580, GPU tid 7: 1209, 14: 7).
#include "chakra/chakra_timeline.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace sutra::chakra {
namespace {

std::map<std::string, std::size_t> eventsPerLane(const Trace& t) {
  std::map<std::string, std::size_t> out;
  for (const auto& l : t.lanes) out[l.pid + "/" + l.tid] = l.endEvent - l.firstEvent;
  return out;
}

std::size_t flowsOf(const Trace& t, const char* category) {
  const auto cat = t.categories.find(category);
  std::size_t n = 0;
  for (const auto& f : t.flows) n += f.category == cat;
  return n;
}

TEST(ChakraTimeline, ReferenceConverterOutputBecomesLanesAndFlows) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto t = readChakraTimeline(test::sharedTrace("chakra/feeder_chakra.0.et"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events.size(), 3664u);
  const std::map<std::string, std::size_t> lanes{
      {"CPU/1", 868}, {"CPU/2", 1580}, {"0/7", 1209}, {"0/14", 7}};
  EXPECT_EQ(eventsPerLane(*t), lanes);
  for (const auto& l : t->lanes)
    EXPECT_EQ(l.kind, l.pid == "0" ? LaneKind::DeviceStream : LaneKind::HostThread) << l.tid;
  // 3664 ctrl + 181878 data edges, less the 1277 that point to absent ids.
  EXPECT_EQ(t->flows.size(), 184265u);
  EXPECT_EQ(flowsOf(*t, kCtrlDepCategory) + flowsOf(*t, kDataDepCategory), 184265u);
  EXPECT_EQ(t->problems.count("dependency on a node absent from the file (not drawn)"), 1277u);
  // No start times: laid out by dependencies; 2283 nodes sit on or behind a cycle (same decoder,
  // Kahn's algorithm ignoring self and absent edges).
  EXPECT_EQ(t->problems.count("no start times in the file: nodes laid out by their dependencies"),
            1u);
  EXPECT_EQ(
      t->problems.count("nodes on or behind a dependency cycle (laid out where the cycle was met)"),
      2283u);
  // Each flow runs from the node depended on to the dependant, by node id in the args.
  for (std::size_t i = 0; i < t->flows.size(); i += 997) {
    const auto& f = t->flows[i];
    const auto to = nlohmann::json::parse(t->argsJson(t->events[f.to]));
    const auto from = nlohmann::json::parse(t->argsJson(t->events[f.from]));
    EXPECT_EQ(to["id"].get<std::int64_t>(), f.id);
    const auto deps =
        to.value(f.category == t->categories.find(kCtrlDepCategory) ? "ctrl_deps" : "data_deps",
                 nlohmann::json::array());
    EXPECT_NE(std::find(deps.begin(), deps.end(), from["id"]), deps.end());
  }
}

TEST(ChakraTimeline, AstraSimExampleWithSendRecvLaysOutByDependencies) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto t = readChakraTimeline(
      test::sharedTrace("astra-sim/custom_allreduce_8npus/custom_allreduce.0.et"));
  ASSERT_TRUE(t.ok());
  // 7 COMP nodes (no is_cpu_op, no stream: device work, as ASTRA-sim runs them) on the compute
  // lane, 14 sends + 14 recvs on the communication lane. Before: the COMP nodes were CPU ops.
  const std::map<std::string, std::size_t> lanes{{"0/compute", 7}, {"0/comm", 28}};
  EXPECT_EQ(eventsPerLane(*t), lanes);
  EXPECT_EQ(t->flows.size(), 34u);
  // A dependant never starts before what it depends on ends.
  for (const auto& f : t->flows) EXPECT_GE(t->events[f.to].start, t->events[f.from].end());
}

TEST(ChakraTimeline, KeepsTimesAttributesAndTypesOfNodesWithTimes) {
  ChakraTrace et;
  et.meta.set_version("0.0.4");
  auto* schema = et.meta.add_attr();
  schema->set_name("schema");
  schema->set_string_val("1.0.1");
  auto node = [&](std::uint64_t id, ChakraProtoMsg::NodeType type, std::uint64_t start,
                  std::uint64_t dur, bool cpu, std::int64_t tidOrStream) -> ChakraProtoMsg::Node& {
    auto& n = et.nodes.emplace_back();
    n.set_id(id);
    n.set_name("n" + std::to_string(id));
    n.set_type(type);
    n.set_start_time_micros(start);
    n.set_duration_micros(dur);
    auto* a = n.add_attr();
    a->set_name("is_cpu_op");
    a->set_bool_val(cpu);
    auto* b = n.add_attr();
    b->set_name(cpu ? "tid" : "stream");
    b->set_int64_val(tidOrStream);
    return n;
  };
  node(1, ChakraProtoMsg::COMP_NODE, 100, 50, true, 3);
  node(2, ChakraProtoMsg::COMP_NODE, 110, 20, false, 7).add_ctrl_deps(1);
  node(3, ChakraProtoMsg::COMM_COLL_NODE, 140, 30, false, 9).add_data_deps(2);
  Trace t = chakraToTimeline(et);
  ASSERT_EQ(t.events.size(), 3u);
  EXPECT_TRUE(t.problems.empty());
  const std::map<std::string, std::size_t> lanes{{"CPU/3", 1}, {"0/7", 1}, {"0/9", 1}};
  EXPECT_EQ(eventsPerLane(t), lanes);
  const Event* k = nullptr;
  for (const auto& e : t.events)
    if (t.name(e) == "n2") k = &e;
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->start, 110'000);
  EXPECT_EQ(k->dur, 20'000);
  EXPECT_EQ(k->klass, CategoryClass::Kernel);
  EXPECT_EQ(t.lanes[k->lane].stream, 7);
  const auto args = nlohmann::json::parse(t.argsJson(*k));
  EXPECT_EQ(args["type"], "COMP_NODE");
  EXPECT_EQ(args["is_cpu_op"], false);
  EXPECT_EQ(args["ctrl_deps"], nlohmann::json::array({1}));
  EXPECT_EQ(flowsOf(t, kCtrlDepCategory), 1u);
  EXPECT_EQ(flowsOf(t, kDataDepCategory), 1u);
  ASSERT_EQ(t.meta.other.size(), 1u);
  EXPECT_EQ(t.meta.other[0].second, "\"1.0.1\"");
}

TEST(ChakraTimeline, ComputeNodesWithoutIsCpuOpAreDeviceWork) {
  ChakraTrace et;
  auto node = [&](std::uint64_t id, ChakraProtoMsg::NodeType type) -> ChakraProtoMsg::Node& {
    auto& n = et.nodes.emplace_back();
    n.set_id(id);
    n.set_name("n" + std::to_string(id));
    n.set_type(type);
    n.set_start_time_micros(10 * id);
    n.set_duration_micros(5);
    return n;
  };
  node(1, ChakraProtoMsg::COMP_NODE);                       // ASTRA-sim's: no is_cpu_op
  node(2, ChakraProtoMsg::COMP_NODE).add_ctrl_deps(1);      // the same
  node(3, ChakraProtoMsg::MEM_LOAD_NODE).add_ctrl_deps(2);  // no compute: host
  auto& cpu = node(4, ChakraProtoMsg::COMP_NODE);           // says it is a CPU op
  auto* a = cpu.add_attr();
  a->set_name("is_cpu_op");
  a->set_bool_val(true);
  const Trace t = chakraToTimeline(et);
  const std::map<std::string, std::size_t> lanes{{"0/compute", 2}, {"CPU/0", 2}};
  EXPECT_EQ(eventsPerLane(t), lanes);
  for (const auto& e : t.events) {
    const bool device = t.name(e) == "n1" || t.name(e) == "n2";
    EXPECT_EQ(e.klass == CategoryClass::Kernel, device) << t.name(e);
    EXPECT_EQ(t.lanes[e.lane].kind == LaneKind::DeviceStream, device) << t.name(e);
  }
}

}  // namespace
}  // namespace sutra::chakra
