// SPDX-License-Identifier: MIT
#include "analysis/chain.h"

#include <gtest/gtest.h>

#include "analysis_fixture.h"
#include "link/launch_index.h"

namespace sutra {
namespace {

using test::eventNamed;

struct ExpectedHop {
  HopKind kind;
  const char* name;
  int previous;
  GapKind gapKind;
  TimeNs gap;
};

void expectHops(const DependencyChain& chain, const std::vector<ExpectedHop>& expected) {
  ASSERT_EQ(chain.hops.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const ChainHop& h = chain.hops[i];
    EXPECT_EQ(h.kind, expected[i].kind) << i;
    EXPECT_EQ(h.name, expected[i].name) << i;
    EXPECT_EQ(h.previous, expected[i].previous) << i;
    EXPECT_EQ(h.gapKind, expected[i].gapKind) << i;
    EXPECT_EQ(h.gap, expected[i].gap) << i;
  }
}

class ChainTest : public ::testing::Test {
 protected:
  Trace trace = test::syncFixture();
  LaunchIndex launches = LaunchIndex::build(trace);
  std::vector<SyncDependency> syncs = findSyncDependencies(trace, launches);
};

TEST_F(ChainTest, FromADeviceOpUpToItsOpAndDownToTheSyncAndTheResumedOp) {
  const EventId copy = eventNamed(trace, "Memcpy DtoH (Device -> Pageable)");
  const DependencyChain chain = dependencyChain(trace, launches, syncs, copy);
  expectHops(chain, {
                        {HopKind::FrameworkOp, "aten::item", -1, GapKind::None, 0},
                        {HopKind::RuntimeCall, "cudaMemcpyAsync", 0, GapKind::DispatchToLaunch, 10},
                        {HopKind::DeviceOp, "Memcpy DtoH (Device -> Pageable)", 1,
                         GapKind::LaunchToStart, 70},
                        {HopKind::Sync, "cudaStreamSynchronize", 2, GapKind::SyncWait, 50},
                        {HopKind::ResumedOp, "aten::add", 3, GapKind::Resume, 100},
                    });
  EXPECT_TRUE(chain.hops[2].focus);
  EXPECT_FALSE(chain.hops[0].focus);
  EXPECT_EQ(chain.hops[2].start, 2100);
  EXPECT_EQ(chain.hops[2].end, 2150);
}

TEST_F(ChainTest, FromAFrameworkOpThroughTheLaunchesInside) {
  const DependencyChain chain =
      dependencyChain(trace, launches, syncs, eventNamed(trace, "aten::item"));
  expectHops(chain, {
                        {HopKind::FrameworkOp, "aten::item", -1, GapKind::None, 0},
                        {HopKind::RuntimeCall, "cudaMemcpyAsync", 0, GapKind::DispatchToLaunch, 10},
                        {HopKind::DeviceOp, "Memcpy DtoH (Device -> Pageable)", 1,
                         GapKind::LaunchToStart, 70},
                        {HopKind::Sync, "cudaStreamSynchronize", 2, GapKind::SyncWait, 50},
                        {HopKind::ResumedOp, "aten::add", 3, GapKind::Resume, 100},
                    });
  EXPECT_TRUE(chain.hops[0].focus);
}

TEST_F(ChainTest, FromTheSynchronizingCallToWhatItWaitedOn) {
  const EventId sync = eventNamed(trace, "cudaStreamSynchronize");
  const DependencyChain chain = dependencyChain(trace, launches, syncs, sync);
  ASSERT_EQ(chain.hops.size(), 5u);
  EXPECT_EQ(chain.hops[2].name, "Memcpy DtoH (Device -> Pageable)");
  EXPECT_TRUE(chain.hops[3].focus);
}

TEST_F(ChainTest, LaunchWithoutASyncEndsAtTheDeviceOp) {
  const DependencyChain chain =
      dependencyChain(trace, launches, syncs, eventNamed(trace, "cudaLaunchKernel"));
  expectHops(chain,
             {
                 {HopKind::FrameworkOp, "aten::add", -1, GapKind::None, 0},
                 {HopKind::RuntimeCall, "cudaLaunchKernel", 0, GapKind::DispatchToLaunch, 10},
                 {HopKind::DeviceOp, "add_kernel", 1, GapKind::LaunchToStart, 80},
             });
  const auto json = chainJson(trace, chain);
  EXPECT_EQ(json["hops"][2]["gap_kind"], "launch_to_start");
  EXPECT_EQ(json["hops"][2]["gap_ns"], 80);
  EXPECT_EQ(json["hops"][1]["focus"], true);
  EXPECT_EQ(json["hops"][0]["category"], "cpu_op");
}

TEST_F(ChainTest, NestedAnnotationsAndFramesComeFirst) {
  const Trace two = test::twoStepFixture();
  const LaunchIndex index = LaunchIndex::build(two);
  const DependencyChain chain = dependencyChain(two, index, {}, eventNamed(two, "gemm"));
  expectHops(chain,
             {
                 {HopKind::Annotation, "ProfilerStep#3", -1, GapKind::None, 0},
                 {HopKind::PythonFrame, "nn.Module: Linear", 0, GapKind::Nesting, 50},
                 {HopKind::FrameworkOp, "aten::linear", 1, GapKind::Nesting, 50},
                 {HopKind::FrameworkOp, "aten::addmm", 2, GapKind::Nesting, 50},
                 {HopKind::RuntimeCall, "cudaLaunchKernel", 3, GapKind::DispatchToLaunch, 50},
                 {HopKind::DeviceOp, "gemm", 4, GapKind::LaunchToStart, 10},
             });
}

TEST_F(ChainTest, LimitsTheLaunchesListedUnderAnOp) {
  const Trace two = test::twoStepFixture();
  const LaunchIndex index = LaunchIndex::build(two);
  const DependencyChain all = dependencyChain(two, index, {}, eventNamed(two, "ProfilerStep#3"));
  // Step 3 launches gemm (via linear, addmm) and add_kernel (via add, add).
  // The step, then python frame, linear, addmm, launch, gemm; then add, add, launch, add_kernel.
  EXPECT_EQ(all.hops.size(), 10u);
  EXPECT_EQ(all.omittedLaunches, 0u);
  const DependencyChain one =
      dependencyChain(two, index, {}, eventNamed(two, "ProfilerStep#3"), nullptr, {1, 16});
  EXPECT_EQ(one.omittedLaunches, 1u);
  EXPECT_EQ(findEventByName(two, "cudaLaunchKernel", 2), eventNamed(two, "cudaLaunchKernel", 2));
  EXPECT_EQ(findEventByName(two, "nothing"), kNoEvent);
  EXPECT_EQ(findEventByName(two, "gemm", 1), kNoEvent);
}

}  // namespace
}  // namespace sutra
