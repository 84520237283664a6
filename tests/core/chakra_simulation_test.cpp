// SPDX-License-Identifier: MIT
// Simulating Chakra graphs and several ranks coupled by their collectives, on small hand-built
// graphs whose expected times are worked out by hand in the comments (microseconds in the graphs,
// nanoseconds in the results).
#include "simulate/chakra_simulation.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "chakra/et_file.h"
#include "chakra/network_model.h"
#include "simulate/collective_matching.h"
#include "simulate/simulator.h"
#include "simulate/step_projection.h"

namespace sutra {
namespace {

using ChakraProtoMsg::Node;

struct NodeSpec {
  std::uint64_t id = 0;
  const char* name = "";
  ChakraProtoMsg::NodeType type = ChakraProtoMsg::COMP_NODE;
  std::uint64_t durUs = 0;
  std::uint64_t startUs = 0;
  bool cpu = true;
  std::int64_t lane = 1;  // tid for a CPU node, stream for a device node; -1: neither
  std::initializer_list<std::uint64_t> ctrl = {};
  std::initializer_list<std::uint64_t> data = {};
};

void intAttr(Node& n, const char* name, std::int64_t v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

class Graph {
 public:
  Graph& add(const NodeSpec& s) {
    Node& n = et_.nodes.emplace_back();
    n.set_id(s.id);
    n.set_name(s.name);
    n.set_type(s.type);
    n.set_duration_micros(s.durUs);
    n.set_start_time_micros(s.startUs);
    for (auto d : s.ctrl) n.add_ctrl_deps(d);
    for (auto d : s.data) n.add_data_deps(d);
    auto* cpu = n.add_attr();
    cpu->set_name("is_cpu_op");
    cpu->set_bool_val(s.cpu);
    if (s.lane >= 0) intAttr(n, s.cpu ? "tid" : "stream", s.lane);
    return *this;
  }
  Graph& attr(const char* name, std::int64_t v) {
    intAttr(et_.nodes.back(), name, v);
    return *this;
  }
  Graph& stringAttr(const char* name, const char* v) {
    auto* a = et_.nodes.back().add_attr();
    a->set_name(name);
    a->set_string_val(v);
    return *this;
  }
  Graph& meta(const char* name, const char* v) {
    auto* a = et_.meta.add_attr();
    a->set_name(name);
    a->set_string_val(v);
    return *this;
  }
  const chakra::ChakraTrace& et() const { return et_; }

 private:
  chakra::ChakraTrace et_;
};

struct Ran {
  std::unique_ptr<RankSimulation> sim;
  SimRun run;
  TimeNs total() const { return run.finish - run.begin; }
  std::pair<TimeNs, TimeNs> times(const char* name) const {
    for (EventId e = 0; e < sim->trace->events.size(); ++e)
      if (sim->trace->name(sim->trace->events[e]) == name) {
        const auto t = simulatedTimes(sim->graph, run, e);
        EXPECT_TRUE(t.has_value()) << name;
        return t.value_or(std::make_pair(TimeNs{-1}, TimeNs{-1}));
      }
    ADD_FAILURE() << "no node " << name;
    return {-1, -1};
  }
};

Ran runOne(const Graph& g, const ChakraSimOptions& options = {}, const SimKnobs& knobs = {}) {
  Ran r;
  r.sim = prepareChakraSimulation(g.et(), 0, options);
  auto run = simulate(r.sim->graph, knobs);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
  if (run.ok()) r.run = std::move(run.value());
  EXPECT_EQ(r.run.forcedNodes, 0u);
  return r;
}

// Thread 1: A (10) then B (20, after A); stream 7: K1 (30, launched by A), K2 (5, after B).
// A 0-10, B 10-30, K1 10-40, K2 after B and after K1 on its stream: 40-45.
Graph noTimesGraph() {
  Graph g;
  g.add({1, "A", ChakraProtoMsg::COMP_NODE, 10});
  g.add({2, "B", ChakraProtoMsg::COMP_NODE, 20, 0, true, 1, {}, {1}});
  g.add({3, "K1", ChakraProtoMsg::COMP_NODE, 30, 0, false, 7, {1}});
  g.add({4, "K2", ChakraProtoMsg::COMP_NODE, 5, 0, false, 7, {}, {2}});
  return g;
}

TEST(ChakraSimulation, DependenciesThreadsAndStreams) {
  const Ran r = runOne(noTimesGraph());
  EXPECT_FALSE(r.sim->measuredTimes);
  EXPECT_EQ(r.times("A"), std::make_pair(TimeNs{0}, TimeNs{10'000}));
  EXPECT_EQ(r.times("B"), std::make_pair(TimeNs{10'000}, TimeNs{30'000}));
  EXPECT_EQ(r.times("K1"), std::make_pair(TimeNs{10'000}, TimeNs{40'000}));
  EXPECT_EQ(r.times("K2"), std::make_pair(TimeNs{40'000}, TimeNs{45'000}));
  EXPECT_EQ(r.total(), 45'000);
  // The one step is the whole graph.
  const auto p = projectSteps(r.sim->graph, r.run, r.sim->steps);
  EXPECT_EQ(p.simulatedNs, 45'000);
}

TEST(ChakraSimulation, OneThreadWithoutDependenciesRunsTheSumOfDurations) {
  Graph g;
  g.add({1, "a", ChakraProtoMsg::COMP_NODE, 5});
  g.add({2, "b", ChakraProtoMsg::COMP_NODE, 7});
  g.add({3, "c", ChakraProtoMsg::COMP_NODE, 11});
  EXPECT_EQ(runOne(g).total(), 23'000);
  // CPU twice as fast halves host ops.
  SimKnobs fast;
  fast.cpuSpeed = 2;
  EXPECT_EQ(runOne(g, {}, fast).total(), 11'500);
}

TEST(ChakraSimulation, KnobsScaleDeviceNodes) {
  SimKnobs halfK1;
  halfK1.scales.push_back({"^K1$", 0.5});
  // K1 10-25; K2 after B (30) and K1 (25): 30-35.
  const Ran r = runOne(noTimesGraph(), {}, halfK1);
  EXPECT_EQ(r.times("K1"), std::make_pair(TimeNs{10'000}, TimeNs{25'000}));
  EXPECT_EQ(r.times("K2"), std::make_pair(TimeNs{30'000}, TimeNs{35'000}));
  EXPECT_EQ(r.total(), 35'000);
}

// Measured: A 0-10 and B 50-70 on thread 1 (B after A), C 80-85 after B and after K2 (a sync);
// stream 7: K1 20-50 (launched by A), K2 50-60 (after K1).
Graph timedGraph() {
  Graph g;
  g.add({1, "A", ChakraProtoMsg::COMP_NODE, 10, 0});
  g.add({2, "K1", ChakraProtoMsg::COMP_NODE, 30, 20, false, 7, {1}});
  g.add({3, "B", ChakraProtoMsg::COMP_NODE, 20, 50, true, 1, {}, {1}});
  g.add({4, "K2", ChakraProtoMsg::COMP_NODE, 10, 50, false, 7, {}, {2}});
  g.add({5, "C", ChakraProtoMsg::COMP_NODE, 5, 80, true, 1, {}, {4}});
  return g;
}

TEST(ChakraSimulation, StartTimesKeepTheMeasuredGapsAndReplayExactly) {
  const Ran r = runOne(timedGraph());
  EXPECT_TRUE(r.sim->measuredTimes);
  EXPECT_EQ(r.times("A"), std::make_pair(TimeNs{0}, TimeNs{10'000}));
  EXPECT_EQ(r.times("K1"), std::make_pair(TimeNs{20'000}, TimeNs{50'000}));
  EXPECT_EQ(r.times("B"), std::make_pair(TimeNs{50'000}, TimeNs{70'000}));
  EXPECT_EQ(r.times("K2"), std::make_pair(TimeNs{50'000}, TimeNs{60'000}));
  EXPECT_EQ(r.times("C"), std::make_pair(TimeNs{80'000}, TimeNs{85'000}));
  EXPECT_EQ(r.total(), 85'000);
  const auto p = projectSteps(r.sim->graph, r.run, r.sim->steps);
  EXPECT_EQ(p.measuredNs, 85'000);
  EXPECT_EQ(p.simulatedNs, 85'000);
}

TEST(ChakraSimulation, StartTimesWithSlowerKernelsMoveOnlyWhatDependsOnThem) {
  SimKnobs slow;
  slow.scales.push_back({"^K", 2});
  const Ran r = runOne(timedGraph(), {}, slow);
  // K1 keeps its 10 after A: 20-80; K2 follows K1 with its measured 0 gap: 80-100; B does not
  // depend on the stream: 50-70; C waits for K2 (measured: it began 20 after K2 ended, but the
  // edge from B, which held it, keeps that gap; the sync edge keeps min(20, 0)): 100-105.
  EXPECT_EQ(r.times("K1"), std::make_pair(TimeNs{20'000}, TimeNs{80'000}));
  EXPECT_EQ(r.times("K2"), std::make_pair(TimeNs{80'000}, TimeNs{100'000}));
  EXPECT_EQ(r.times("B"), std::make_pair(TimeNs{50'000}, TimeNs{70'000}));
  EXPECT_EQ(r.times("C"), std::make_pair(TimeNs{100'000}, TimeNs{105'000}));
  EXPECT_EQ(r.total(), 105'000);
}

TEST(ChakraSimulation, GraphOnlyIgnoresTheStartTimes) {
  ChakraSimOptions graphOnly;
  graphOnly.dependenciesOnly = true;
  const Ran r = runOne(timedGraph(), graphOnly);
  // A 0-10, K1 10-40, B 10-30, K2 40-50, C 50-55.
  EXPECT_EQ(r.times("K1"), std::make_pair(TimeNs{10'000}, TimeNs{40'000}));
  EXPECT_EQ(r.times("B"), std::make_pair(TimeNs{10'000}, TimeNs{30'000}));
  EXPECT_EQ(r.times("K2"), std::make_pair(TimeNs{40'000}, TimeNs{50'000}));
  EXPECT_EQ(r.times("C"), std::make_pair(TimeNs{50'000}, TimeNs{55'000}));
  EXPECT_EQ(r.total(), 55'000);
}

TEST(ChakraSimulation, CommNodesWithNoStreamRunSideBySideAndTakeTheirSizeOverBandwidth) {
  Graph g;
  g.add({1, "c1", ChakraProtoMsg::COMM_COLL_NODE, 10, 0, false, -1}).attr("comm_size", 1000);
  g.add({2, "c2", ChakraProtoMsg::COMM_COLL_NODE, 10, 0, false, -1}).attr("comm_size", 1000);
  g.add({3, "c3", ChakraProtoMsg::COMM_COLL_NODE, 0, 0, false, -1}).attr("comm_size", 5000);
  EXPECT_EQ(runOne(g).total(), 10'000);  // c1, c2 both 0-10; c3 takes 0
  ChakraSimOptions bw;
  bw.commBytesPerNs = 0.25;  // 0.25 GB/s: c3 takes 5000 / 0.25 = 20000 ns
  const Ran r = runOne(g, bw);
  EXPECT_EQ(r.times("c3"), std::make_pair(TimeNs{0}, TimeNs{20'000}));
  EXPECT_EQ(r.total(), 20'000);
}

TEST(ChakraSimulation, CommNodesWithNoDurationAreCostedOnTheNetworkModel) {
  // An 8-NPU ring, 50 GB/s, 500 ns a hop, the default system (tests/core/network_model_test.cpp
  // works the costs out): a 1 MiB all-reduce over the world (8) takes 64440 ns, over process group
  // "tp" (2 ranks in pg_config) 24620 ns; 131072 bytes sent from rank 0 to rank 4 (4 hops)
  // floor(4 * 500 + 2441.41) = 4441 ns. A gather is not in the model: it keeps 0, and is noted.
  NetworkConfig ring;
  ring.dims.push_back({NetworkTopology::Ring, 8, 50, 500});
  ChakraSimOptions options;
  options.network = std::make_shared<const NetworkModel>(ring, SystemConfig{});
  options.worldSize = 8;
  constexpr std::int64_t kMiB = 1 << 20;
  Graph g;
  g.meta("pg_config", R"([{"pg_name": "tp", "ranks": [0, 1]}])");
  g.add({1, "world", ChakraProtoMsg::COMM_COLL_NODE, 0, 0, false, -1})
      .attr("comm_type", ChakraProtoMsg::ALL_REDUCE)
      .attr("comm_size", kMiB);
  g.add({2, "tp", ChakraProtoMsg::COMM_COLL_NODE, 0, 0, false, -1})
      .attr("comm_type", ChakraProtoMsg::ALL_REDUCE)
      .attr("comm_size", kMiB)
      .stringAttr("pg_name", "tp");
  g.add({3, "send", ChakraProtoMsg::COMM_SEND_NODE, 0, 0, false, -1})
      .attr("comm_dst", 4)
      .attr("comm_size", 131072);
  g.add({4, "gather", ChakraProtoMsg::COMM_COLL_NODE, 0, 0, false, -1})
      .attr("comm_type", ChakraProtoMsg::GATHER)
      .attr("comm_size", kMiB);
  g.add({5, "measured", ChakraProtoMsg::COMM_COLL_NODE, 3, 0, false, -1})
      .attr("comm_type", ChakraProtoMsg::ALL_REDUCE)
      .attr("comm_size", kMiB);
  const Ran r = runOne(g, options);
  EXPECT_EQ(r.times("world"), std::make_pair(TimeNs{0}, TimeNs{64'440}));
  EXPECT_EQ(r.times("tp"), std::make_pair(TimeNs{0}, TimeNs{24'620}));
  EXPECT_EQ(r.times("send"), std::make_pair(TimeNs{0}, TimeNs{4'441}));
  EXPECT_EQ(r.times("gather"), std::make_pair(TimeNs{0}, TimeNs{0}));
  EXPECT_EQ(r.times("measured"), std::make_pair(TimeNs{0}, TimeNs{3'000}));  // keeps its own
  EXPECT_EQ(r.sim->problems.count("communication node not costed by the network model (keeps 0)"),
            1u);
}

TEST(ChakraSimulation, DependencyCycleIsBrokenAndCounted) {
  Graph g;
  g.add({1, "a", ChakraProtoMsg::COMP_NODE, 5, 0, true, 1, {}, {2}});
  g.add({2, "b", ChakraProtoMsg::COMP_NODE, 7, 0, true, 2, {}, {1}});
  const auto sim = prepareChakraSimulation(g.et(), 0);
  EXPECT_EQ(sim->problems.count("dependency cycle broken (dependencies on later nodes left out)"),
            1u);
  auto run = simulate(sim->graph);
  ASSERT_TRUE(run.ok());
  // a first (file order), b after it: 12 us.
  EXPECT_EQ(run->finish - run->begin, 12'000);
}

// Two ranks coupled by an all-reduce: each runs X on its thread, then the collective on stream 9
// (launched by X), then Y after the collective. Rank 1's X takes 40 instead of 10.
Graph collectiveRank(std::uint64_t xUs, std::uint64_t collUs) {
  Graph g;
  g.add({1, "X", ChakraProtoMsg::COMP_NODE, xUs});
  g.add({2, "allreduce", ChakraProtoMsg::COMM_COLL_NODE, collUs, 0, false, 9, {1}})
      .attr("comm_type", 0);
  g.add({3, "Y", ChakraProtoMsg::COMP_NODE, 5, 0, true, 1, {}, {2}});
  return g;
}

std::vector<Ran> runRanks(const std::vector<Graph>& graphs, std::size_t expectedCollectives,
                          const SimKnobs& knobs = {}) {
  std::vector<Ran> ranks(graphs.size());
  std::vector<const SimGraph*> g;
  std::vector<RankComms> comms;
  for (std::size_t r = 0; r < graphs.size(); ++r) {
    ranks[r].sim = prepareChakraSimulation(graphs[r].et(), static_cast<int>(r));
    g.push_back(&ranks[r].sim->graph);
    comms.push_back({static_cast<int>(r), ranks[r].sim->comms});
  }
  const auto matching = matchCollectives(comms);
  EXPECT_EQ(matching.collectives.size(), expectedCollectives);
  auto runs = simulateRanks(g, matching.collectives, knobs);
  EXPECT_TRUE(runs.ok());
  if (runs.ok())
    for (std::size_t r = 0; r < graphs.size(); ++r) ranks[r].run = std::move((*runs)[r]);
  return ranks;
}

TEST(ChakraSimulation, ACollectiveEndsWhenTheLastRankArrivesPlusItsTransfer) {
  // Alone, rank 0 takes 10 + 20 + 5 = 35 us.
  EXPECT_EQ(runOne(collectiveRank(10, 20)).total(), 35'000);
  // Together: rank 0 arrives at 10, rank 1 at 40; both end at 40 + 20 = 60; Y 60-65.
  const auto ranks = runRanks({collectiveRank(10, 20), collectiveRank(40, 20)}, 1);
  EXPECT_EQ(ranks[0].times("allreduce"), std::make_pair(TimeNs{10'000}, TimeNs{60'000}));
  EXPECT_EQ(ranks[1].times("allreduce"), std::make_pair(TimeNs{40'000}, TimeNs{60'000}));
  EXPECT_EQ(ranks[0].times("Y"), std::make_pair(TimeNs{60'000}, TimeNs{65'000}));
  EXPECT_EQ(ranks[0].total(), 65'000);
  EXPECT_EQ(ranks[1].total(), 65'000);
  // The transfer is the shortest span (the rank that arrived last waited for no one): rank 0's
  // measured 50 includes its wait.
  const auto measured = runRanks({collectiveRank(10, 50), collectiveRank(40, 20)}, 1);
  EXPECT_EQ(measured[0].times("allreduce"), std::make_pair(TimeNs{10'000}, TimeNs{60'000}));
  // Host ops four times as fast: rank 0 arrives at 2.5, rank 1 at 10; both end at 10 + 20 = 30.
  SimKnobs fastCpu;
  fastCpu.cpuSpeed = 4;
  const auto fast = runRanks({collectiveRank(10, 20), collectiveRank(40, 20)}, 1, fastCpu);
  EXPECT_EQ(fast[0].times("allreduce"), std::make_pair(TimeNs{2'500}, TimeNs{30'000}));
  EXPECT_EQ(fast[1].times("allreduce"), std::make_pair(TimeNs{10'000}, TimeNs{30'000}));
}

TEST(ChakraSimulation, CollectivesMatchByProcessGroupTypeAndOrder) {
  // Rank 0 issues an all-gather then an all-reduce; rank 1 the same on another stream order.
  auto rank = [](std::uint64_t delayUs) {
    Graph g;
    g.add({1, "X", ChakraProtoMsg::COMP_NODE, delayUs});
    g.add({2, "ag", ChakraProtoMsg::COMM_COLL_NODE, 10, 0, false, 9, {1}}).attr("comm_type", 2);
    g.add({3, "ar", ChakraProtoMsg::COMM_COLL_NODE, 10, 0, false, 8, {1}}).attr("comm_type", 0);
    return g;
  };
  // ag and ar both wait for rank 1's X (30): both 30-40 on rank 0.
  const auto ranks = runRanks({rank(5), rank(30)}, 2);
  EXPECT_EQ(ranks[0].times("ag"), std::make_pair(TimeNs{5'000}, TimeNs{40'000}));
  EXPECT_EQ(ranks[0].times("ar"), std::make_pair(TimeNs{5'000}, TimeNs{40'000}));
}

TEST(ChakraSimulation, ARecvEndsAfterItsSendArrivesPlusTheTransfer) {
  // Rank 0: X (30) then a send to rank 1 (10); rank 1: a recv from rank 0 (10) at once.
  Graph r0, r1;
  r0.add({1, "X", ChakraProtoMsg::COMP_NODE, 30});
  r0.add({2, "send", ChakraProtoMsg::COMM_SEND_NODE, 10, 0, false, -1, {}, {1}})
      .attr("comm_dst", 1);
  r1.add({1, "recv", ChakraProtoMsg::COMM_RECV_NODE, 10, 0, false, -1}).attr("comm_src", 0);
  r1.add({2, "Z", ChakraProtoMsg::COMP_NODE, 5, 0, true, 1, {}, {1}});
  const auto ranks = runRanks({r0, r1}, 1);
  EXPECT_EQ(ranks[0].times("send"), std::make_pair(TimeNs{30'000}, TimeNs{40'000}));
  EXPECT_EQ(ranks[1].times("recv"), std::make_pair(TimeNs{0}, TimeNs{40'000}));
  EXPECT_EQ(ranks[1].times("Z"), std::make_pair(TimeNs{40'000}, TimeNs{45'000}));
}

TEST(ChakraSimulation, ARecvPostedAfterItsMessageArrivedEndsAtOnce) {
  // Rank 0 sends at once (10); rank 1 runs Y (30) before its recv (10). The message arrived at 10,
  // so the recv ends as it starts, at 30 (ASTRA-sim's buffered message); Z follows at 30.
  Graph r0, r1;
  r0.add({1, "send", ChakraProtoMsg::COMM_SEND_NODE, 10, 0, false, -1}).attr("comm_dst", 1);
  r1.add({1, "Y", ChakraProtoMsg::COMP_NODE, 30});
  r1.add({2, "recv", ChakraProtoMsg::COMM_RECV_NODE, 10, 0, false, -1, {}, {1}})
      .attr("comm_src", 0);
  r1.add({3, "Z", ChakraProtoMsg::COMP_NODE, 5, 0, true, 1, {}, {2}});
  const auto ranks = runRanks({r0, r1}, 1);
  EXPECT_EQ(ranks[0].times("send"), std::make_pair(TimeNs{0}, TimeNs{10'000}));
  EXPECT_EQ(ranks[1].times("recv"), std::make_pair(TimeNs{30'000}, TimeNs{30'000}));
  EXPECT_EQ(ranks[1].times("Z"), std::make_pair(TimeNs{30'000}, TimeNs{35'000}));
}

TEST(ChakraSimulation, RanksWhoseClocksDisagreeMeetAtTheirCollectivesEnds) {
  // Each graph counts from its own first op; rank 1 really started 30 us after rank 0. Rank 0:
  // X 0-10, all-reduce 10-60 (waiting for rank 1). Rank 1: X 0-10, all-reduce 10-30 (its transfer).
  // The ends 60 and 30 are one moment: rank 1's clock is 30 behind.
  Graph r0, r1;
  r0.add({1, "X", ChakraProtoMsg::COMP_NODE, 10, 0});
  r0.add({2, "allreduce", ChakraProtoMsg::COMM_COLL_NODE, 50, 10, false, 9, {1}})
      .attr("comm_type", 0);
  r1.add({1, "X", ChakraProtoMsg::COMP_NODE, 10, 0});
  r1.add({2, "allreduce", ChakraProtoMsg::COMM_COLL_NODE, 20, 10, false, 9, {1}})
      .attr("comm_type", 0);
  std::vector<std::unique_ptr<RankSimulation>> sims;
  sims.push_back(prepareChakraSimulation(r0.et(), 0));
  sims.push_back(prepareChakraSimulation(r1.et(), 1));
  const SimGraph* graphs[] = {&sims[0]->graph, &sims[1]->graph};
  std::vector<RankComms> comms{{0, sims[0]->comms}, {1, sims[1]->comms}};
  const auto matching = matchCollectives(comms);
  const auto offsets = estimateClockOffsets(graphs, matching, {true, true});
  EXPECT_EQ(offsets, (std::vector<TimeNs>{0, 30'000}));
  // Replayed in each rank's own clock: rank 0 arrives at 10, rank 1 at 10 + 30; both end at
  // 40 + 20 = 60 on rank 0's clock, 30 on rank 1's.
  auto runs = simulateRanks(graphs, matching.collectives, {}, offsets);
  ASSERT_TRUE(runs.ok());
  const auto node0 = sims[0]->comms[0].node, node1 = sims[1]->comms[0].node;
  EXPECT_EQ((*runs)[0].start[node0], 10'000);
  EXPECT_EQ((*runs)[0].end[node0], 60'000);
  EXPECT_EQ((*runs)[1].start[node1], 10'000);
  EXPECT_EQ((*runs)[1].end[node1], 30'000);
  // Without the offsets both would arrive at 10 and rank 0 would end at 30.
  auto naive = simulateRanks(graphs, matching.collectives);
  ASSERT_TRUE(naive.ok());
  EXPECT_EQ((*naive)[0].end[node0], 30'000);
  // Halving the transfer: 40 + 10 = 50 on rank 0's clock, 20 on rank 1's.
  SimKnobs half;
  half.scales.push_back({"^allreduce$", 0.5});
  runs = simulateRanks(graphs, matching.collectives, half, offsets);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ((*runs)[0].end[node0], 50'000);
  EXPECT_EQ((*runs)[1].end[node1], 20'000);
  // Ranks with nothing measured keep their clocks.
  EXPECT_EQ(estimateClockOffsets(graphs, matching, {true, false}), (std::vector<TimeNs>{0, 0}));
}

TEST(ChakraSimulation, ACommOpWithNoPartnerKeepsItsDuration) {
  Graph r0 = collectiveRank(10, 20), r1;
  r1.add({1, "W", ChakraProtoMsg::COMP_NODE, 100});
  const auto ranks = runRanks({r0, r1}, 0);
  EXPECT_EQ(ranks[0].total(), 35'000);
  std::vector<RankComms> comms{{0, ranks[0].sim->comms}, {1, ranks[1].sim->comms}};
  const auto m = matchCollectives(comms);
  EXPECT_EQ(m.unmatchedOps, 1u);
  EXPECT_EQ(
      m.problems.count(
          "communication op with no matching op on another loaded rank (keeps its own duration)"),
      1u);
}

}  // namespace
}  // namespace sutra
