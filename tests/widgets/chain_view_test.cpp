// SPDX-License-Identifier: MIT
#include "chain_view.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "qt_app.h"
#include "synthetic_trace.h"

namespace sutra::widgets {
namespace {

TEST(ChainView, DrawsTheAnalysesChainAndSelectsAClickedHop) {
  test::qtApp();
  auto trace = std::make_shared<const Trace>(test::makeSyntheticTrace({400, 1, 1}));
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const auto syncs = findSyncDependencies(*trace, launches);
  EventId kernel = kNoEvent;
  for (EventId i = 0; i < trace->events.size() && kernel == kNoEvent; ++i)
    if (trace->events[i].klass == CategoryClass::Kernel) kernel = i;
  ASSERT_NE(kernel, kNoEvent);
  DependencyChain chain = dependencyChain(*trace, launches, syncs, kernel);
  // The synthetic kernel's chain: step annotation > op > inner op > launch > kernel.
  std::vector<HopKind> kinds;
  for (const auto& hop : chain.hops) kinds.push_back(hop.kind);
  const std::vector<HopKind> expected{HopKind::Annotation, HopKind::FrameworkOp,
                                      HopKind::FrameworkOp, HopKind::RuntimeCall,
                                      HopKind::DeviceOp};
  ASSERT_EQ(kinds, expected);

  ChainView view;
  view.resize(800, 400);
  view.setChain(trace, chain);
  ASSERT_EQ(view.chain().hops.size(), 5u);
  // Each hop is indented under the one it follows, one row further down.
  for (int i = 1; i < 5; ++i) {
    EXPECT_GT(view.hopRect(i).left(), view.hopRect(i - 1).left());
    EXPECT_GT(view.hopRect(i).top(), view.hopRect(i - 1).bottom());
  }
  EXPECT_EQ(view.hopAt(view.hopRect(3).center()), 3);
  EXPECT_EQ(view.hopAt(QPoint(1, 1)), -1);
  QSignalSpy spy(&view, &ChainView::hopClicked);
  QTest::mouseClick(&view, Qt::LeftButton, {}, view.hopRect(3).center());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.front().front().value<sutra::EventId>(), launches.runtimeCallOf(kernel));
  // Each box reaches the view's right margin: the chain uses the width it is given, and a dock a
  // third of a window wide (here 320 px) shows every hop without scrolling sideways.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(view.hopRect(i).right(), view.width() - 9) << i;
  EXPECT_LE(view.sizeHint().width(), 320);
  EXPECT_LE(view.sizeHint().height(), 400);
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  view.render(&image);  // paints every hop and gap without tripping over them
  view.clear();
  EXPECT_TRUE(view.chain().hops.empty());
}

}  // namespace
}  // namespace sutra::widgets
