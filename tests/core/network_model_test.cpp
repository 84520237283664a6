// SPDX-License-Identifier: MIT
// Sutra's network model (core/chakra/network_model.h): network.yml and system.json, the cost of
// each collective and of a message, checked against values computed by hand from ASTRA-sim's
// rules, and ASTRA-sim's own figures for its examples (../shared/traces/astra-sim/README.md and
// its regression test tests/rt_template) through the multi-rank simulation.
#include "chakra/network_model.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "session/run.h"
#include "session/run_simulation.h"
#include "simulate/chakra_comm_cost.h"
#include "test_support.h"

namespace sutra {
namespace {

std::string netFile(const std::string& name) { return test::fixture("network/" + name); }

NetworkConfig oneDimension(NetworkTopology t, int npus, double gbps = 50, double latency = 500) {
  NetworkConfig c;
  c.dims.push_back({t, npus, gbps, latency});
  c.path = "test network";
  return c;
}

SystemConfig systemFrom(const std::string& json) {
  auto s = parseSystemConfig(json, "test system");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : SystemConfig{};
}

constexpr std::uint64_t kMiB = 1 << 20;

// The cost, or -1 (and a failure) when there is none.
TimeNs ns(const Result<TimeNs>& r) {
  if (!r.ok()) {
    ADD_FAILURE() << r.error().message;
    return -1;
  }
  return r.value();
}

// ---------------------------------------------------------------------------------------------
// Files

TEST(NetworkConfig, ReadsAstraSimNetworkYml) {
  auto c = readNetworkConfig(netFile("ring_4npus.yml"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->dims.size(), 1u);
  EXPECT_EQ(c->dims[0].topology, NetworkTopology::Ring);
  EXPECT_EQ(c->dims[0].npus, 4);
  EXPECT_DOUBLE_EQ(c->dims[0].bandwidthGBps, 50.0);
  EXPECT_DOUBLE_EQ(c->dims[0].latencyNs, 500.0);
  EXPECT_EQ(c->npusCount(), 4);

  auto three = readNetworkConfig(netFile("three_dims.yml"));
  ASSERT_TRUE(three.ok()) << three.error().message;
  ASSERT_EQ(three->dims.size(), 3u);
  EXPECT_EQ(three->dims[1].topology, NetworkTopology::FullyConnected);
  EXPECT_EQ(three->dims[2].topology, NetworkTopology::Switch);
  EXPECT_EQ(three->npusCount(), 64);
}

TEST(NetworkConfig, BadFilesSayWhichFileAndWhatIsWrong) {
  struct Case {
    const char* file;
    const char* problem;
  };
  const Case cases[] = {
      {"missing_npus.yml", "missing key 'npus_count'"},
      {"unknown_topology.yml", "unknown topology 'Torus' in dimension 1"},
      {"zero_bandwidth.yml", "bandwidth 0 in dimension 1 must be positive"},
      {"one_npu.yml", "npus_count 1 in dimension 1 must be between 2"},
      {"negative_latency.yml", "latency -1 in dimension 1 must not be negative"},
      {"lengths_differ.yml", "bandwidth has 1 entries but topology has 2"},
      {"not_yaml.yml", "not a YAML network file"},
      {"not_a_map.yml", "not a network file"},
      {"npus_not_number.yml", "npus_count 'four' in dimension 1 is not a whole number"},
      {"absent.yml", "cannot open a network file"},
  };
  for (const auto& c : cases) {
    const auto path = netFile(c.file);
    auto r = readNetworkConfig(path);
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(c.problem), std::string::npos) << r.error().message;
  }
  auto dir = readNetworkConfig(test::fixture("network"));
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos) << dir.error().message;
}

TEST(SystemConfig, ReadsAstraSimSystemJsonAndRefusesWhatItCannotModel) {
  auto s = readSystemConfig(netFile("ring_4chunks.json"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->preferredDatasetSplits, 4);
  EXPECT_EQ(s->activeChunksPerDimension, 1);
  EXPECT_EQ(s->endpointDelayNs, 10);
  EXPECT_DOUBLE_EQ(s->localMemBwGBps, 1600);
  EXPECT_TRUE(s->localBwAware);
  EXPECT_EQ(s->allToAll.front(), CollectiveAlgorithm::Ring);

  const auto direct = systemFrom(R"({"all-to-all-implementation": ["direct4"]})");
  EXPECT_EQ(direct.allToAll.front(), CollectiveAlgorithm::Direct);
  EXPECT_EQ(direct.directWindow, 4);

  struct Case {
    const char* file;
    const char* problem;
  };
  const Case cases[] = {
      {"unsupported_algorithm.json", "'doubleBinaryTree' is not supported"},
      {"zero_splits.json", "preferred-dataset-splits 0 is out of range"},
      {"not_json.json", "not a JSON system file"},
      {"ring_4npus.yml", "not a JSON system file"},
  };
  for (const auto& c : cases) {
    const auto path = netFile(c.file);
    auto r = readSystemConfig(path);
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(c.problem), std::string::npos) << r.error().message;
  }
  auto dir = readSystemConfig(test::fixture("network"));
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Costs by hand
//
// 1 MiB over a 1-D network of n NPUs (the whole network), 50 GB/s = 50 * 2^30 / 1e9 =
// 53.6870912 bytes/ns, 500 ns a hop, the default system: ring, 4 chunks of D = 262144 bytes run
// one after the other, e = 10 ns endpoint delay, reduction p(m) = 3 * floor(m / 1600 bytes/ns).
// A message of m bytes over h hops: T(m) = floor(h * 500 + m / 53.6870912), h = 1 between ring
// neighbours on Ring and FullyConnected, 2 on Switch (so Ring and FullyConnected agree for the
// ring algorithm, which only talks to neighbours). Per chunk:
//   all-reduce      (2n-1) e + (n-1) p(D/n) + 2(n-1) T(D/n)
//   all-gather      n e + (n-1) T(D)
//   reduce-scatter  n e + (n-1) (p(D/n) + T(D/n))
//   all-to-all      (S+1) e + S T(D/n),  S = n(n-1)/2
//   broadcast       (2n-1) e + 2(n-1) T(D/n)   (scatter + all-gather)
// and the collective is 4 chunks. E.g. all-gather on 4: 4 * (4*10 + 3*floor(500 + 4882.8125)) =
// 4 * 16186 = 64744, ASTRA-sim's figure. The rows are printed by tests/tools/
// network_model_expected.py from these formulas.
struct HandCase {
  NetworkTopology topology;
  CollectiveKind kind;
  int ranks;
  TimeNs expected;
};

const HandCase kHandCases[] = {
    {NetworkTopology::Ring, CollectiveKind::AllReduce, 2, 24620},
    {NetworkTopology::Ring, CollectiveKind::AllReduce, 4, 43000},
    {NetworkTopology::Ring, CollectiveKind::AllReduce, 8, 64440},
    {NetworkTopology::Ring, CollectiveKind::AllReduce, 16, 99640},
    {NetworkTopology::Ring, CollectiveKind::AllGather, 2, 21608},
    {NetworkTopology::Ring, CollectiveKind::AllGather, 4, 64744},
    {NetworkTopology::Ring, CollectiveKind::AllGather, 8, 151016},
    {NetworkTopology::Ring, CollectiveKind::AllGather, 16, 323560},
    {NetworkTopology::Ring, CollectiveKind::ReduceScatter, 2, 12816},
    {NetworkTopology::Ring, CollectiveKind::ReduceScatter, 4, 22240},
    {NetworkTopology::Ring, CollectiveKind::ReduceScatter, 8, 33080},
    {NetworkTopology::Ring, CollectiveKind::ReduceScatter, 16, 50740},
    {NetworkTopology::Ring, CollectiveKind::AllToAll, 2, 11844},
    {NetworkTopology::Ring, CollectiveKind::AllToAll, 4, 41560},
    {NetworkTopology::Ring, CollectiveKind::AllToAll, 8, 125480},
    {NetworkTopology::Ring, CollectiveKind::AllToAll, 16, 391240},
    {NetworkTopology::Ring, CollectiveKind::Broadcast, 2, 23648},
    {NetworkTopology::Ring, CollectiveKind::Broadcast, 4, 41560},
    {NetworkTopology::Ring, CollectiveKind::Broadcast, 8, 62760},
    {NetworkTopology::Ring, CollectiveKind::Broadcast, 16, 97840},
    {NetworkTopology::FullyConnected, CollectiveKind::AllReduce, 2, 24620},
    {NetworkTopology::FullyConnected, CollectiveKind::AllReduce, 4, 43000},
    {NetworkTopology::FullyConnected, CollectiveKind::AllReduce, 8, 64440},
    {NetworkTopology::FullyConnected, CollectiveKind::AllReduce, 16, 99640},
    {NetworkTopology::FullyConnected, CollectiveKind::AllGather, 2, 21608},
    {NetworkTopology::FullyConnected, CollectiveKind::AllGather, 4, 64744},
    {NetworkTopology::FullyConnected, CollectiveKind::AllGather, 8, 151016},
    {NetworkTopology::FullyConnected, CollectiveKind::AllGather, 16, 323560},
    {NetworkTopology::FullyConnected, CollectiveKind::ReduceScatter, 2, 12816},
    {NetworkTopology::FullyConnected, CollectiveKind::ReduceScatter, 4, 22240},
    {NetworkTopology::FullyConnected, CollectiveKind::ReduceScatter, 8, 33080},
    {NetworkTopology::FullyConnected, CollectiveKind::ReduceScatter, 16, 50740},
    {NetworkTopology::FullyConnected, CollectiveKind::AllToAll, 2, 11844},
    {NetworkTopology::FullyConnected, CollectiveKind::AllToAll, 4, 41560},
    {NetworkTopology::FullyConnected, CollectiveKind::AllToAll, 8, 125480},
    {NetworkTopology::FullyConnected, CollectiveKind::AllToAll, 16, 391240},
    {NetworkTopology::FullyConnected, CollectiveKind::Broadcast, 2, 23648},
    {NetworkTopology::FullyConnected, CollectiveKind::Broadcast, 4, 41560},
    {NetworkTopology::FullyConnected, CollectiveKind::Broadcast, 8, 62760},
    {NetworkTopology::FullyConnected, CollectiveKind::Broadcast, 16, 97840},
    {NetworkTopology::Switch, CollectiveKind::AllReduce, 2, 28620},
    {NetworkTopology::Switch, CollectiveKind::AllReduce, 4, 55000},
    {NetworkTopology::Switch, CollectiveKind::AllReduce, 8, 92440},
    {NetworkTopology::Switch, CollectiveKind::AllReduce, 16, 159640},
    {NetworkTopology::Switch, CollectiveKind::AllGather, 2, 23608},
    {NetworkTopology::Switch, CollectiveKind::AllGather, 4, 70744},
    {NetworkTopology::Switch, CollectiveKind::AllGather, 8, 165016},
    {NetworkTopology::Switch, CollectiveKind::AllGather, 16, 353560},
    {NetworkTopology::Switch, CollectiveKind::ReduceScatter, 2, 14816},
    {NetworkTopology::Switch, CollectiveKind::ReduceScatter, 4, 28240},
    {NetworkTopology::Switch, CollectiveKind::ReduceScatter, 8, 47080},
    {NetworkTopology::Switch, CollectiveKind::ReduceScatter, 16, 80740},
    {NetworkTopology::Switch, CollectiveKind::AllToAll, 2, 13844},
    {NetworkTopology::Switch, CollectiveKind::AllToAll, 4, 53560},
    {NetworkTopology::Switch, CollectiveKind::AllToAll, 8, 181480},
    {NetworkTopology::Switch, CollectiveKind::AllToAll, 16, 631240},
    {NetworkTopology::Switch, CollectiveKind::Broadcast, 2, 27648},
    {NetworkTopology::Switch, CollectiveKind::Broadcast, 4, 53560},
    {NetworkTopology::Switch, CollectiveKind::Broadcast, 8, 90760},
    {NetworkTopology::Switch, CollectiveKind::Broadcast, 16, 157840},
};

TEST(NetworkModel, RingCollectivesMatchTheHandComputedCosts) {
  for (const auto& c : kHandCases) {
    const NetworkModel model(oneDimension(c.topology, c.ranks), SystemConfig{});
    auto t = model.collectiveNs(c.kind, kMiB, c.ranks);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(*t, c.expected) << collectiveKindName(c.kind) << " on " << c.ranks << " ranks, "
                              << static_cast<int>(c.topology);
  }
}

TEST(NetworkModel, AstraSimRegressionAllReduce) {
  // ASTRA-sim's tests/rt_template: all-reduce of 1 MB on 8 NPUs, Ring 50 GB/s 500 ns,
  // local-mem-bw 50: every rank finishes at 117780 cycles. Per chunk (D = 262144, m = 32768):
  // 15 * 10 + 7 * 3 * floor(32768 / 50) + 14 * floor(500 + 610.35) = 150 + 13755 + 15540 = 29445.
  const NetworkModel model(oneDimension(NetworkTopology::Ring, 8),
                           systemFrom(R"({"local-mem-bw": 50})"));
  EXPECT_EQ(ns(model.collectiveNs(CollectiveKind::AllReduce, kMiB, 8)), 117780);
}

TEST(NetworkModel, DirectAlgorithmPaysTheHopsOfTheFarthestPeer) {
  // Direct all-to-all on 8 NPUs: every peer at once, then e: per chunk e + T_far(D/8) + e, with
  // D/8 = 32768 (610.35 ns on the wire). Ring: the farthest peer is 4 hops away, floor(2000 +
  // 610.35) = 2610; FullyConnected 1 hop: 1110; Switch 2 hops: 1610. Times 4 chunks.
  const SystemConfig direct = systemFrom(
      R"({"all-to-all-implementation": ["direct"], "all-reduce-implementation": ["direct"]})");
  const std::pair<NetworkTopology, TimeNs> cases[] = {{NetworkTopology::Ring, 4 * 2630},
                                                      {NetworkTopology::FullyConnected, 4 * 1130},
                                                      {NetworkTopology::Switch, 4 * 1630}};
  for (const auto& [topology, expected] : cases) {
    const NetworkModel model(oneDimension(topology, 8), direct);
    EXPECT_EQ(ns(model.collectiveNs(CollectiveKind::AllToAll, kMiB, 8)), expected);
  }
  // Direct all-reduce on FullyConnected 8: 3e + p(32768) + 2 T(32768) = 30 + 60 + 2220 = 2310.
  const NetworkModel fc(oneDimension(NetworkTopology::FullyConnected, 8), direct);
  EXPECT_EQ(ns(fc.collectiveNs(CollectiveKind::AllReduce, kMiB, 8)), 4 * 2310);
}

TEST(NetworkModel, HalvingDoubling) {
  // All-reduce on FullyConnected 8, D = 262144: e, then the reduce-scatter steps (messages of
  // 131072, 65536, 32768: T = 2941, 1720, 1110; p = 243, 120, 60; each + e) = 6224, then the
  // all-gather steps (32768, 65536, 131072: T + e) = 5801; 10 + 6224 + 5801 = 12035 a chunk.
  const SystemConfig hd = systemFrom(
      R"({"all-reduce-implementation": ["halvingDoubling"],
          "all-to-all-implementation": ["halvingDoubling"]})");
  const NetworkModel model(oneDimension(NetworkTopology::FullyConnected, 8), hd);
  EXPECT_EQ(ns(model.collectiveNs(CollectiveKind::AllReduce, kMiB, 8)), 4 * 12035);
  auto a2a = model.collectiveNs(CollectiveKind::AllToAll, kMiB, 8);
  ASSERT_FALSE(a2a.ok());
  EXPECT_NE(a2a.error().message.find("halvingDoubling cannot run an all-to-all"),
            std::string::npos);
  const NetworkModel six(oneDimension(NetworkTopology::FullyConnected, 6), hd);
  auto odd = six.collectiveNs(CollectiveKind::AllReduce, kMiB, 6);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.error().message.find("power-of-two"), std::string::npos) << odd.error().message;
}

TEST(NetworkModel, ChunksInFlightAndSmallSizes) {
  // Two chunks at once: the all-gather on Ring 4 takes 2 rounds of 16186 instead of 4.
  const NetworkModel two(oneDimension(NetworkTopology::Ring, 4),
                         systemFrom(R"({"active-chunks-per-dimension": 2})"));
  EXPECT_EQ(ns(two.collectiveNs(CollectiveKind::AllGather, kMiB, 4)), 2 * 16186);
  // 10 bytes on 8 NPUs: a chunk is at least one byte per NPU (8), 4 of them; messages of 1 byte
  // take floor(500 + 0.02) = 500: 4 * (15 * 10 + 14 * 500) = 28600.
  const NetworkModel ring8(oneDimension(NetworkTopology::Ring, 8), SystemConfig{});
  EXPECT_EQ(ns(ring8.collectiveNs(CollectiveKind::AllReduce, 10, 8)), 28600);
  EXPECT_EQ(ns(ring8.collectiveNs(CollectiveKind::AllReduce, 0, 8)), 0);
  // A group of 4 on the 8-NPU ring is a ring of 4: the table's 43000.
  EXPECT_EQ(ns(ring8.collectiveNs(CollectiveKind::AllReduce, kMiB, 4)), 43000);
  auto one = ring8.collectiveNs(CollectiveKind::AllReduce, kMiB, 1);
  ASSERT_FALSE(one.ok());
  auto many = ring8.collectiveNs(CollectiveKind::AllReduce, kMiB, 9);
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.error().message.find("has 8 NPUs"), std::string::npos) << many.error().message;
}

TEST(NetworkModel, MultiDimensionalCollectivesPipelineTheirChunks) {
  auto net = readNetworkConfig(netFile("three_dims.yml"));
  ASSERT_TRUE(net.ok()) << net.error().message;
  const NetworkModel model(*net, SystemConfig{});
  // 16 ranks span dimension 1 (Ring 2, 200 GB/s, 20 ns) and dimension 2 (FullyConnected 8,
  // 100 GB/s, 100 ns). All-reduce, localBWAware: reduce-scatter on dim 1 (2 e + p(131072) +
  // floor(20 + 610.35) = 20 + 243 + 630 = 893), all-reduce on dim 2 of 131072 (15 e + 7 p(16384)
  // + 14 floor(100 + 152.59) = 150 + 210 + 3528 = 3888), all-gather on dim 1 (2 e + 630 = 650).
  // Dim 2 is the bottleneck of the 4-chunk pipeline: 893 + 4 * 3888 + 650 = 17095.
  EXPECT_EQ(ns(model.collectiveNs(CollectiveKind::AllReduce, kMiB, 16)), 17095);
  // All-gather, last dimension first: dim 2 (8 e + 7 floor(100 + 2441.41) = 17867), then dim 1
  // on 8x the data (2 e + floor(20 + 9765.63) = 9805): 4 * 17867 + 9805 = 81273.
  EXPECT_EQ(ns(model.collectiveNs(CollectiveKind::AllGather, kMiB, 16)), 81273);
  // Over the dimensions a node's involved_dim marks: the same 16 ranks, or the FullyConnected
  // dimension alone (15 e + 7 p(32768) + 14 floor(100 + 305.18) = 150 + 420 + 5670 = 6240 a
  // chunk); none is refused.
  EXPECT_EQ(ns(model.collectiveOnDimensionsNs(CollectiveKind::AllReduce, kMiB, {true, true})),
            17095);
  EXPECT_EQ(
      ns(model.collectiveOnDimensionsNs(CollectiveKind::AllReduce, kMiB, {false, true, false})),
      4 * 6240);
  EXPECT_FALSE(model.collectiveOnDimensionsNs(CollectiveKind::AllReduce, kMiB, {false}).ok());
}

TEST(NetworkModel, MessagesTakeTheHopsOfTheirDimension) {
  // 131072 bytes at 50 GB/s: 2441.41 ns on the wire, plus 500 ns a hop.
  const NetworkModel ring(oneDimension(NetworkTopology::Ring, 8), SystemConfig{});
  EXPECT_EQ(ns(ring.messageNs(0, 1, 131072)), 2941);  // 1 hop
  EXPECT_EQ(ns(ring.messageNs(0, 3, 131072)), 3941);  // 3 hops
  EXPECT_EQ(ns(ring.messageNs(0, 5, 131072)), 3941);  // 3 hops the other way round
  EXPECT_EQ(ns(ring.messageNs(0, 4, 131072)), 4441);  // 4 hops
  EXPECT_EQ(ns(ring.messageNs(7, 0, 131072)), 2941);
  const NetworkModel fc(oneDimension(NetworkTopology::FullyConnected, 8), SystemConfig{});
  EXPECT_EQ(ns(fc.messageNs(0, 4, 131072)), 2941);
  const NetworkModel sw(oneDimension(NetworkTopology::Switch, 8), SystemConfig{});
  EXPECT_EQ(ns(sw.messageNs(0, 4, 131072)), 3441);
  // Three dimensions: dimension 1 varies fastest. 0 -> 1: Ring 2 (20 + 610.35); 0 -> 2: the
  // FullyConnected dimension (100 + 1220.70); 1 -> 17: the Switch (2 * 500 + 2441.41).
  auto net = readNetworkConfig(netFile("three_dims.yml"));
  ASSERT_TRUE(net.ok());
  const NetworkModel multi(*net, SystemConfig{});
  EXPECT_EQ(ns(multi.messageNs(0, 1, 131072)), 630);
  EXPECT_EQ(ns(multi.messageNs(0, 2, 131072)), 1320);
  EXPECT_EQ(ns(multi.messageNs(1, 17, 131072)), 3441);
  EXPECT_FALSE(multi.messageNs(0, 64, 1).ok());
  EXPECT_FALSE(multi.messageNs(3, 3, 1).ok());
}

TEST(ChakraCommCost, ProcessGroupSizesFromPgConfig) {
  ChakraProtoMsg::GlobalMetadata meta;
  auto* attr = meta.add_attr();
  attr->set_name("pg_config");
  // As Sutra's converter keeps PyTorch's records: the op's input values, a JSON text in a list.
  attr->set_string_val(
      R"([["[{\"pg_name\": \"0\", \"ranks\": []}, {\"pg_name\": \"1\", \"ranks\": [0, 1]}]"]])");
  const auto sizes = processGroupSizes(meta, 8);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes.at("0"), 8);
  EXPECT_EQ(sizes.at("1"), 2);

  const NetworkModel model(oneDimension(NetworkTopology::Ring, 8), SystemConfig{});
  ChakraProtoMsg::Node node;
  node.set_type(ChakraProtoMsg::COMM_COLL_NODE);
  auto add = [&](const char* name, std::int64_t v) {
    auto* a = node.add_attr();
    a->set_name(name);
    a->set_int64_val(v);
  };
  add("comm_type", ChakraProtoMsg::ALL_REDUCE);
  add("comm_size", static_cast<std::int64_t>(kMiB));
  auto* pg = node.add_attr();
  pg->set_name("pg_name");
  pg->set_string_val("1");
  // Process group "1" has 2 ranks: the table's all-reduce on 2.
  EXPECT_EQ(ns(chakraCommCost(node, 0, sizes, 8, model)), 24620);
  pg->set_string_val("0");
  EXPECT_EQ(ns(chakraCommCost(node, 0, sizes, 8, model)), 64440);
  // involved_dim, where the node has it, wins over the group: the whole 8-NPU ring again.
  pg->set_string_val("1");
  auto* involved = node.add_attr();
  involved->set_name("involved_dim");
  involved->mutable_bool_list()->add_values(true);
  EXPECT_EQ(ns(chakraCommCost(node, 0, sizes, 8, model)), 64440);
  node.mutable_attr(0)->set_int64_val(ChakraProtoMsg::GATHER);
  EXPECT_FALSE(chakraCommCost(node, 0, sizes, 8, model).ok());
}

// ---------------------------------------------------------------------------------------------
// ASTRA-sim's examples through the multi-rank simulation, as `sutra-cli simulate DIR --network
// NET --system SYS` runs them; README figures (ASTRA-sim 518bd51, congestion-unaware).

void expectAstraFigure(const std::string& dir, const std::string& network, TimeNs expected) {
  auto net = readNetworkConfig(netFile(network));
  ASSERT_TRUE(net.ok()) << net.error().message;
  auto sys = readSystemConfig(netFile("ring_4chunks.json"));
  ASSERT_TRUE(sys.ok()) << sys.error().message;
  RunOptions options;
  options.chakraGraphs = true;
  options.wholeTraceTable = false;
  options.chakra.network = std::make_shared<const NetworkModel>(*net, *sys);
  auto run = openRun({test::sharedTrace(dir)}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto simulated = simulateRun(*run);
  ASSERT_TRUE(simulated.ok()) << simulated.error().message;
  ASSERT_FALSE(simulated->ranks.empty());
  for (const auto& r : simulated->ranks) {
    const auto got = static_cast<double>(r.projection.simulatedNs);
    EXPECT_NEAR(got, static_cast<double>(expected), 0.05 * static_cast<double>(expected))
        << "rank " << r.rank->rank << " of " << dir;
  }
}

TEST(NetworkModelAstraSim, AllGatherFourRanks) {
  SUTRA_REQUIRE_SHARED_TRACES();
  expectAstraFigure("astra-sim/all_gather_4npus", "ring_4npus.yml", 64744);
}

TEST(NetworkModelAstraSim, HandBuiltRingAllReduceEightRanks) {
  SUTRA_REQUIRE_SHARED_TRACES();
  expectAstraFigure("astra-sim/custom_allreduce_8npus", "ring_8npus.yml", 90174);
}

}  // namespace
}  // namespace sutra
