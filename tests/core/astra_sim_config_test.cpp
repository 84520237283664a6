// SPDX-License-Identifier: MIT
// ASTRA-sim's configurations written beside a Chakra export: the network fitted to collectives
// whose durations were computed by hand from a known latency and bandwidth, the files read back
// with the keys ASTRA-sim reads, and never written over an input or a non-regular file.
#include "chakra/astra_sim_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "chakra/convert_files.h"
#include "chakra/network_model.h"
#include "io/readers.h"
#include "util/atomic_file.h"

namespace sutra::chakra {
namespace {
namespace fs = std::filesystem;

// ASTRA-sim's GB is 2^30 bytes: 100 bytes per ns is this many of its GB/s.
constexpr double k100BytesPerNsInGBps = 100.0 * 1e9 / 1073741824.0;

void addInt(ChakraProtoMsg::Node& node, const std::string& name, std::int64_t value) {
  auto* attr = node.add_attr();
  attr->set_name(name);
  attr->set_int64_val(value);
}

ChakraProtoMsg::Node collective(std::uint64_t id, ChakraProtoMsg::CollectiveCommType type,
                                std::int64_t bytes, std::uint64_t micros) {
  ChakraProtoMsg::Node node;
  node.set_id(id);
  node.set_type(ChakraProtoMsg::COMM_COLL_NODE);
  node.set_duration_micros(micros);
  addInt(node, "comm_type", type);
  addInt(node, "comm_size", bytes);
  return node;
}

ChakraProtoMsg::Node compute(std::uint64_t id, std::uint64_t micros, std::int64_t ops,
                             std::int64_t tensorBytes) {
  ChakraProtoMsg::Node node;
  node.set_id(id);
  node.set_type(ChakraProtoMsg::COMP_NODE);
  node.set_duration_micros(micros);
  auto* cpu = node.add_attr();
  cpu->set_name("is_cpu_op");
  cpu->set_bool_val(false);
  if (ops >= 0) addInt(node, "num_ops", ops);
  if (tensorBytes >= 0) addInt(node, "tensor_size", tensorBytes);
  return node;
}

TEST(AstraSimRingCost, FollowsAstraSimsRingAlgorithm) {
  // 4 NPUs, 4 chunks each paying the ring's steps; bytes each NPU sends.
  const RingCost allReduce = ringCost(ChakraProtoMsg::ALL_REDUCE, 1000, 4);
  EXPECT_DOUBLE_EQ(allReduce.steps, 2 * 3 * 4);
  EXPECT_DOUBLE_EQ(allReduce.bytes, 1500);  // 2 (n-1)/n of the buffer
  const RingCost allGather = ringCost(ChakraProtoMsg::ALL_GATHER, 1000, 4);
  EXPECT_DOUBLE_EQ(allGather.steps, 3 * 4);
  EXPECT_DOUBLE_EQ(allGather.bytes, 3000);  // comm_size is each NPU's part
  EXPECT_DOUBLE_EQ(ringCost(ChakraProtoMsg::REDUCE_SCATTER, 1000, 4).bytes, 750);
  EXPECT_DOUBLE_EQ(ringCost(ChakraProtoMsg::BROADCAST, 1000, 4).steps, 0);   // replayed
  EXPECT_DOUBLE_EQ(ringCost(ChakraProtoMsg::ALL_REDUCE, 1000, 1).steps, 0);  // no ring
}

TEST(AstraSimRingCost, PredictsTheReadmesAllGatherWithinHalfAPercent) {
  // ../shared/traces/astra-sim/README.md: all_gather (comm_size 1 MiB) on a ring of 4 at 50 GB/s
  // and 500 ns finishes at 64,744 ns in ASTRA-sim; the model leaves out only endpoint delays.
  const RingCost cost = ringCost(ChakraProtoMsg::ALL_GATHER, 1048576, 4);
  const double ns = 500.0 * cost.steps + cost.bytes / (50.0 * 1073741824.0 / 1e9);
  EXPECT_NEAR(ns, 64744.0, 0.005 * 64744.0) << ns;
}

// ASTRA-sim's own cost (the network model that matches its analytical backend) of `samples` on
// the fitted ring, minus their measured time, over their measured time: 0 when the fit holds.
double modelExcess(const AstraSimConfig& config,
                   const std::vector<std::pair<CollectiveKind, double>>& samples,
                   double measuredNs) {
  NetworkConfig network;
  network.dims.push_back(
      {NetworkTopology::Ring, config.npus, config.bandwidthGBps, config.latencyNs});
  auto system = parseSystemConfig(astraSimSystemJson(config), "system.json");
  EXPECT_TRUE(system.ok());
  const NetworkModel model(network, system.ok() ? *system : SystemConfig{});
  double sum = 0;
  for (const auto& [kind, bytes] : samples)
    sum += static_cast<double>(
        model.collectiveNs(kind, static_cast<std::uint64_t>(bytes), config.npus).value());
  return (sum - measuredNs) / measuredNs;
}

TEST(AstraSimConfigFit, RecoversTheLatencyAndBandwidthTheDurationsWereMadeWith) {
  // Made with latency 250 ns and 100 bytes/ns on a ring of 4, by hand:
  //   all-reduce 200 kB: 24 steps x 250 + 300 kB / 100 =  6000 +  3000 =  9 us
  //   all-reduce   1 MB:                  6000 + 1.5 MB / 100 =  6000 + 15000 = 21 us
  //   all-reduce   4 MB:                  6000 +   6 MB / 100 =  6000 + 60000 = 66 us
  //   all-gather   1 MB: 12 steps x 250 +   3 MB / 100 =  3000 + 30000 = 33 us
  ChakraTrace trace;
  trace.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 200000, 9),
                 collective(2, ChakraProtoMsg::ALL_REDUCE, 1000000, 21),
                 collective(3, ChakraProtoMsg::ALL_REDUCE, 4000000, 66),
                 collective(4, ChakraProtoMsg::ALL_GATHER, 1000000, 33),
                 collective(5, ChakraProtoMsg::BROADCAST, 1000000, 500)};  // left out
  AstraSimFitInput input;
  input.addRank(trace);
  ASSERT_EQ(input.rankCollectives.size(), 1u);
  ASSERT_EQ(input.rankCollectives[0].size(), 5u);
  const AstraSimConfig config = fitAstraSimConfig(input, 4);
  EXPECT_EQ(config.npus, 4);
  EXPECT_EQ(config.collectivesFitted, 4u);
  EXPECT_NEAR(config.latencyNs, 250.0, 1e-6);
  // The ring's least squares give 100 bytes/ns; ASTRA-sim adds chunks, endpoint delays and the
  // local reduction, so the link is tuned faster until its cost of the four is their 129 us.
  EXPECT_GT(config.bandwidthGBps, k100BytesPerNsInGBps);
  EXPECT_NEAR(modelExcess(config,
                          {{CollectiveKind::AllReduce, 200000},
                           {CollectiveKind::AllReduce, 1000000},
                           {CollectiveKind::AllReduce, 4000000},
                           {CollectiveKind::AllGather, 1000000}},
                          129000),
              0.0, 2e-3);  // its costs are whole ns, per chunk and step
  EXPECT_GT(config.residualRmsNs, 0.0);
  EXPECT_NE(config.networkBasis.find("least squares"), std::string::npos) << config.networkBasis;
  EXPECT_NE(config.networkBasis.find("off by rms"), std::string::npos) << config.networkBasis;
}

TEST(AstraSimConfigFit, TakesEachCollectiveAtItsLastArriversDuration) {
  // Rank 0 waited 9 us for rank 1 in the first all-reduce, rank 1 waited 45 us in the second:
  // the transfers are the 9 us and 21 us of the hand-made example, which the fit recovers.
  ChakraTrace rank0, rank1;
  rank0.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 200000, 18),
                 collective(2, ChakraProtoMsg::ALL_REDUCE, 1000000, 21),
                 collective(3, ChakraProtoMsg::ALL_GATHER, 1000000, 33)};
  rank1.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 200000, 9),
                 collective(2, ChakraProtoMsg::ALL_REDUCE, 1000000, 66),
                 collective(3, ChakraProtoMsg::ALL_GATHER, 1000000, 33)};
  AstraSimFitInput input;
  input.addRank(rank0);
  input.addRank(rank1);
  const auto matched = input.matchedCollectives();
  ASSERT_EQ(matched.size(), 3u);
  EXPECT_DOUBLE_EQ(matched[0].durationNs, 9000);
  EXPECT_DOUBLE_EQ(matched[1].durationNs, 21000);
  const AstraSimConfig config = fitAstraSimConfig(input, 4);
  EXPECT_NEAR(config.latencyNs, 250.0, 1e-6);
  EXPECT_NEAR(modelExcess(config,
                          {{CollectiveKind::AllReduce, 200000},
                           {CollectiveKind::AllReduce, 1000000},
                           {CollectiveKind::AllGather, 1000000}},
                          63000),
              0.0, 2e-3);  // its costs are whole ns, per chunk and step
}

TEST(AstraSimConfigFit, OneSizeKeepsTheDefaultLatencyAndFitsTheBandwidth) {
  // 21 us for 1 MB all-reduces on 4: (21000 - 24 x 500) ns for 1.5 MB: 166.67 bytes/ns.
  ChakraTrace trace;
  trace.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 1000000, 21),
                 collective(2, ChakraProtoMsg::ALL_REDUCE, 1000000, 21)};
  AstraSimFitInput input;
  input.addRank(trace);
  const AstraSimConfig config = fitAstraSimConfig(input, 4);
  EXPECT_DOUBLE_EQ(config.latencyNs, kAstraSimDefaultLatencyNs);
  // Faster than the ring's 166.67 bytes/ns, so that ASTRA-sim's cost of each is the 21 us.
  EXPECT_GT(config.bandwidthGBps, 1.5e6 / 9000.0 * 1e9 / 1073741824.0);
  EXPECT_NEAR(modelExcess(config, {{CollectiveKind::AllReduce, 1000000}}, 21000), 0.0, 2e-3);
  EXPECT_LT(config.residualMaxRelative, 2e-3);
}

TEST(AstraSimConfigFit, RaisesLocalMemBwWhereTheReductionAloneOutlastsTheCollectives) {
  // 16 MiB all-reduced over 16 ranks in 30 us: ASTRA-sim's local reduction at 1600 GB/s moves
  // 3 x 16 MiB per rank, 31 us on its own, so no link is fast enough. local-mem-bw is raised (x64
  // at a time) and the link tuned until ASTRA-sim's cost is the 30 us.
  ChakraTrace trace;
  trace.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 16 << 20, 30),
                 collective(2, ChakraProtoMsg::ALL_REDUCE, 16 << 20, 30)};
  AstraSimFitInput input;
  input.addRank(trace);
  const AstraSimConfig config = fitAstraSimConfig(input, 16);
  EXPECT_EQ(config.localMemBwGBps, kAstraSimDefaultLocalMemBwGBps * 64);
  EXPECT_NE(astraSimSystemJson(config).find("\"local-mem-bw\": 102400"), std::string::npos)
      << astraSimSystemJson(config);
  EXPECT_NE(config.networkBasis.find("local-mem-bw"), std::string::npos) << config.networkBasis;
  // whole ns per chunk and step, 120 of them on a ring of 16
  EXPECT_NEAR(modelExcess(config, {{CollectiveKind::AllReduce, 16 << 20}}, 30000), 0.0, 5e-3);
}

TEST(AstraSimConfigFit, NoCollectivesGiveTheDocumentedDefaults) {
  ChakraTrace trace;
  trace.nodes = {compute(1, 10, -1, -1)};
  AstraSimFitInput input;
  input.addRank(trace);
  const AstraSimConfig config = fitAstraSimConfig(input, 2);
  EXPECT_EQ(config.collectivesFitted, 0u);
  EXPECT_DOUBLE_EQ(config.bandwidthGBps, kAstraSimDefaultBandwidthGBps);
  EXPECT_DOUBLE_EQ(config.latencyNs, kAstraSimDefaultLatencyNs);
  EXPECT_NE(config.networkBasis.find("defaults"), std::string::npos);
  EXPECT_FALSE(config.roofline);  // a compute node without num_ops
  // One rank: no ring, defaults, npus_count still the ranks.
  ChakraTrace one;
  one.nodes = {collective(1, ChakraProtoMsg::ALL_REDUCE, 1000000, 21)};
  AstraSimFitInput single;
  single.addRank(one);
  EXPECT_EQ(fitAstraSimConfig(single, 1).collectivesFitted, 0u);
  EXPECT_EQ(fitAstraSimConfig(single, 1).npus, 1);
}

TEST(AstraSimConfigFit, RooflineOnlyWhenEveryComputeNodeHasItsWork) {
  ChakraTrace trace;
  // 2e9 ops in 1 ms and 6e9 in 2 ms: 8e9 ops / 3e6 ns = 2.667 TFLOPS measured throughput.
  trace.nodes = {compute(1, 1000, 2000000000, 4096), compute(2, 2000, 6000000000, 4096)};
  AstraSimFitInput input;
  input.addRank(trace);
  AstraSimConfig config = fitAstraSimConfig(input, 2);
  EXPECT_TRUE(config.roofline);
  EXPECT_NEAR(config.peakPerfTflops, 8e9 / 3e6 / 1000.0, 1e-12);
  trace.nodes.push_back(compute(3, 10, 100, 0));  // no tensor_size: ASTRA-sim rejects it
  AstraSimFitInput missing;
  missing.addRank(trace);
  config = fitAstraSimConfig(missing, 2);
  EXPECT_FALSE(config.roofline);
  EXPECT_DOUBLE_EQ(config.peakPerfTflops, kAstraSimDefaultPeakPerfTflops);
  EXPECT_NE(config.computeBasis.find("1 of 3"), std::string::npos) << config.computeBasis;
}

class AstraSimConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sutra_astra_config_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string prefix() const { return (dir_ / "run").string(); }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static AstraSimConfig config() {
    AstraSimConfig c;
    c.npus = 8;
    c.bandwidthGBps = 93.25;
    c.latencyNs = 250.5;
    c.networkBasis = "least squares over 4 collective(s), ring of 8";
    return c;
  }
  fs::path dir_;
};

TEST_F(AstraSimConfigFiles, AreWrittenWithTheKeysAstraSimReads) {
  auto written = writeAstraSimConfig(config(), prefix(), {});
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_EQ(written->network, prefix() + ".network.yml");
  EXPECT_EQ(written->system, prefix() + ".system.json");
  EXPECT_EQ(written->memory, prefix() + ".memory.json");

  const YAML::Node network = YAML::LoadFile(written->network);
  ASSERT_TRUE(network["topology"].IsSequence());
  EXPECT_EQ(network["topology"][0].as<std::string>(), "Ring");
  EXPECT_EQ(network["npus_count"][0].as<int>(), 8);
  EXPECT_DOUBLE_EQ(network["bandwidth"][0].as<double>(), 93.25);
  EXPECT_DOUBLE_EQ(network["latency"][0].as<double>(), 250.5);

  const auto system = nlohmann::json::parse(slurp(written->system));
  EXPECT_EQ(system.at("roofline-enabled"), 0);
  EXPECT_EQ(system.at("all-reduce-implementation"), nlohmann::json::array({"ring"}));
  EXPECT_EQ(system.at("preferred-dataset-splits"), 4);
  for (const char* key :
       {"scheduling-policy", "endpoint-delay", "active-chunks-per-dimension",
        "all-gather-implementation", "reduce-scatter-implementation", "all-to-all-implementation",
        "collective-optimization", "local-mem-bw", "boost-mode", "peak-perf"})
    EXPECT_TRUE(system.contains(key)) << key;
  const auto memory = nlohmann::json::parse(slurp(written->memory));
  EXPECT_EQ(memory.at("memory-type"), "NO_MEMORY_EXPANSION");
}

TEST_F(AstraSimConfigFiles, NeverReplaceAnInputAndWriteNothingThen) {
  const std::string input = prefix() + ".system.json";
  ASSERT_TRUE(writeFileAtomically(input, "the user's own system.json"));
  auto written = writeAstraSimConfig(config(), prefix(), {input});
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("input"), std::string::npos) << written.error().message;
  EXPECT_EQ(slurp(input), "the user's own system.json");
  EXPECT_FALSE(fs::exists(prefix() + ".network.yml"));  // checked before the first was written
}

TEST_F(AstraSimConfigFiles, NeverReplaceANonRegularFile) {
  ASSERT_EQ(::mkfifo((prefix() + ".memory.json").c_str(), 0600), 0);
  auto written = writeAstraSimConfig(config(), prefix(), {});
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("not a regular file"), std::string::npos)
      << written.error().message;
  EXPECT_FALSE(fs::exists(prefix() + ".network.yml"));
  fs::create_symlink("/dev/null", prefix() + ".network.yml");
  fs::remove(prefix() + ".memory.json");
  EXPECT_FALSE(writeAstraSimConfig(config(), prefix(), {}));
  EXPECT_TRUE(fs::is_symlink(prefix() + ".network.yml"));
}

TEST_F(AstraSimConfigFiles, AreWrittenByEveryChakraExportFittedToItsCollectives) {
  // The bundled two-rank sample (synthetic, tests/data/synthetic_samples): three 16 MiB all-reduces
  // a rank.
  const fs::path sample =
      fs::path(SUTRA_SOURCE_DIR) / "tests/data/synthetic_samples/allreduce_2ranks";
  std::vector<RankExportInput> ranks;
  for (int r = 0; r < 2; ++r) {
    auto kineto =
        readKinetoTrace((sample / ("rank" + std::to_string(r) + ".kineto.json.gz")).string());
    ASSERT_TRUE(kineto) << kineto.error().message;
    RankExportInput input;
    input.rank = r;
    input.kineto = std::make_shared<const Trace>(std::move(*kineto));
    input.etPath = (sample / ("rank" + std::to_string(r) + ".et.json.gz")).string();
    ranks.push_back(std::move(input));
  }
  const ChakraExportSummary summary = exportChakraTraces(ranks, prefix(), {});
  ASSERT_EQ(summary.written(), 2u) << summary.text();
  ASSERT_TRUE(summary.astraSimError.empty()) << summary.astraSimError;
  EXPECT_EQ(summary.astraSimConfigs, astraSimConfigPaths(prefix()).all());
  EXPECT_NE(summary.text().find("ASTRA-sim configurations"), std::string::npos);
  const YAML::Node network = YAML::LoadFile(prefix() + ".network.yml");
  EXPECT_EQ(network["npus_count"][0].as<int>(), 2);
  EXPECT_NE(network["bandwidth"][0].as<double>(), kAstraSimDefaultBandwidthGBps);  // fitted
  EXPECT_NE(summary.astraSimBasis.find("3 collective(s)"), std::string::npos)
      << summary.astraSimBasis;
}

}  // namespace
}  // namespace sutra::chakra
