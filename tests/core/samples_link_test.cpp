// SPDX-License-Identifier: MIT
// The bundled samples linked (ET + Kineto, by rf_id) and converted to Chakra: every ET operator the
// Kineto trace recorded is matched, every device op is linked to its launcher, and the conversion
// keeps every op, as the generator wrote them (expected.json).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "chakra/converter.h"
#include "io/readers.h"
#include "link/linked_trace.h"
#include "samples_support.h"
#include "test_support.h"

namespace sutra {
namespace {

struct LoadedRank {
  std::shared_ptr<const Trace> kineto;
  std::shared_ptr<const EtTrace> et;
};

LoadedRank load(const test::SampleCase& c, const nlohmann::json& rank) {
  auto k = readKinetoTrace(c.dir + "/" + rank.at("kineto").at("file").get<std::string>());
  auto e = readPytorchEt(c.dir + "/" + rank.at("et").at("file").get<std::string>());
  EXPECT_TRUE(k.ok() && e.ok());
  if (!k.ok() || !e.ok()) return {};
  return {std::make_shared<const Trace>(std::move(*k)),
          std::make_shared<const EtTrace>(std::move(*e))};
}

TEST(SamplesLink, EveryEtOpAndEveryDeviceOpIsLinked) {
  for (const auto& c : test::bundledSamples()) {
    for (const auto& rank : c.expected.at("ranks")) {
      SCOPED_TRACE(c.name + " " + rank.at("kineto").at("file").get<std::string>());
      const auto loaded = load(c, rank);
      ASSERT_TRUE(loaded.kineto && loaded.et);
      LinkOptions options;
      options.rank = rank.at("rank").is_null() ? 0 : rank.at("rank").get<int>();
      auto linked = linkTraces(loaded.et, loaded.kineto, options);
      ASSERT_TRUE(linked.ok()) << linked.error().message;
      const auto& want = rank.at("link");
      const LinkReport& r = linked->report;
      EXPECT_EQ(r.matching, "rf_id");
      EXPECT_EQ(r.etOps, want.at("et_ops").get<std::size_t>());
      EXPECT_EQ(r.matchedEtOps, want.at("matched_et_ops").get<std::size_t>());
      EXPECT_EQ(r.deviceOps, want.at("device_ops").get<std::size_t>());
      EXPECT_EQ(r.linkedDeviceOps, want.at("linked_device_ops").get<std::size_t>());
      EXPECT_EQ(r.streams, want.at("streams").get<std::vector<std::int64_t>>());
      std::size_t deviceOps = 0;
      for (const auto& op : linked->ops) {
        if (!op.isDevice()) continue;
        ++deviceOps;
        const LinkedOp* launcher = linked->find(op.parent);
        ASSERT_NE(launcher, nullptr) << op.name;
        EXPECT_TRUE(launcher->isCpu());
      }
      EXPECT_EQ(deviceOps, want.at("device_ops").get<std::size_t>());
    }
  }
}

TEST(SamplesLink, EverySampleConvertsToChakra) {
  for (const auto& c : test::bundledSamples()) {
    for (const auto& rank : c.expected.at("ranks")) {
      SCOPED_TRACE(c.name + " " + rank.at("kineto").at("file").get<std::string>());
      const auto loaded = load(c, rank);
      ASSERT_TRUE(loaded.kineto && loaded.et);
      auto linked = linkTraces(loaded.et, loaded.kineto);
      ASSERT_TRUE(linked.ok()) << linked.error().message;
      auto converted = chakra::convertToChakra(*linked);
      ASSERT_TRUE(converted.ok()) << converted.error().message;
      EXPECT_EQ(converted->stats.deviceNodes, rank.at("link").at("device_ops").get<std::size_t>());
      EXPECT_EQ(converted->stats.cyclesBroken, 0u);
      const std::size_t collectives =
          c.name == "allreduce_2ranks" ? 3u : 0u;  // one all-reduce a step
      const auto& byType = converted->stats.nodesByType;
      const auto comm = byType.find(7);  // COMM_COLL_NODE
      EXPECT_EQ(comm == byType.end() ? 0u : comm->second, collectives);
    }
  }
}

}  // namespace
}  // namespace sutra
