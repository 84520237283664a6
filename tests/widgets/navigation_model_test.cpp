// SPDX-License-Identifier: MIT
// The navigation model on its own (widgets/navigation.h): references carry their run and rank, and
// one into a replaced run, to a rank not loaded or past a rank's events is dropped; ranges convert
// to a rank's own times; a view clears only the highlights it set.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "navigation.h"
#include "qt_app.h"

namespace sutra::widgets {
namespace {

TEST(NavigationModel, DropsReferencesIntoAReplacedRunOrAMissingRank) {
  test::qtApp();
  Navigation navigation;
  navigation.beginRun();
  navigation.addRank(0, 10);
  navigation.addRank(2, 5);  // rank 1 is not loaded yet
  QSignalSpy changed(&navigation, &Navigation::selectionChanged);
  const RankNavigation rank0(&navigation, 0);

  EXPECT_TRUE(navigation.select(navigation.ref(2, 4)));
  EXPECT_EQ(navigation.selection(), (EventRef{navigation.run(), 2, 4}));
  EXPECT_FALSE(navigation.select(navigation.ref(2, 5)));  // past its events
  EXPECT_FALSE(navigation.select(navigation.ref(1, 0)));  // not loaded
  EXPECT_FALSE(navigation.select(navigation.ref(3, 0)));  // no such rank
  EXPECT_EQ(changed.count(), 1);

  rank0.select(7);
  EXPECT_EQ(navigation.selection(), (EventRef{navigation.run(), 0, 7}));
  ASSERT_EQ(changed.count(), 2);
  EXPECT_TRUE(changed.back().at(1).toBool());  // a view's reference asks to be shown
  // Asked again: shown again (the timeline may show another rank by now), unless the timeline
  // itself reports it.
  rank0.select(7);
  EXPECT_EQ(changed.count(), 3);
  navigation.select(navigation.ref(0, 7), false);
  EXPECT_EQ(changed.count(), 3);

  // Another run: the selection is cleared, and the view of the old one selects nothing.
  navigation.beginRun();
  navigation.addRank(0, 10);
  EXPECT_EQ(navigation.selection(), EventRef{});
  EXPECT_FALSE(rank0.current());
  const int before = int(changed.count());
  rank0.select(3);
  EXPECT_EQ(navigation.selection(), EventRef{});
  EXPECT_EQ(changed.count(), before);
  EXPECT_TRUE(RankNavigation(&navigation, 0).current());
}

TEST(NavigationModel, RangesInARanksOwnTimes) {
  test::qtApp();
  Navigation navigation;
  navigation.beginRun();
  navigation.addRank(0, 1);
  navigation.addRank(1, 1);
  navigation.setRankOffsets({0, 250});
  navigation.setSelectedRange({1000, 2000});
  EXPECT_EQ(RankNavigation(&navigation, 0).selectedRange(), (view::TimeRange{1000, 2000}));
  EXPECT_EQ(RankNavigation(&navigation, 1).selectedRange(), (view::TimeRange{750, 1750}));
  navigation.setVisibleRange({0, 500});
  EXPECT_EQ(RankNavigation(&navigation, 1).visibleRange(), (view::TimeRange{-250, 250}));
  navigation.setSelectedRange({3000, 3000});  // a click on the ruler: none
  EXPECT_EQ(RankNavigation(&navigation, 1).selectedRange().span(), 0);
  QSignalSpy asked(&navigation, &Navigation::rangeRequested);
  RankNavigation(&navigation, 1).showRange({10, 20});
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(0).toInt(), 1);
}

TEST(NavigationModel, AViewClearsOnlyItsOwnHighlights) {
  test::qtApp();
  Navigation navigation;
  navigation.beginRun();
  navigation.addRank(0, 10);
  QObject path, advice;
  const RankNavigation rank0(&navigation, 0);
  rank0.highlight({1, 2}, {{1, 2}}, &path);
  EXPECT_EQ(navigation.highlights().events, (std::vector<EventId>{1, 2}));
  rank0.highlight({5}, {}, &advice, true);
  rank0.clearHighlights(&path);  // no longer its own: kept
  EXPECT_EQ(navigation.highlights().events, (std::vector<EventId>{5}));
  EXPECT_TRUE(navigation.highlights().steppable);
  rank0.clearHighlights(&advice);
  EXPECT_TRUE(navigation.highlights().events.empty());
  // Highlights of a rank that is not loaded are dropped.
  EXPECT_FALSE(navigation.setHighlights({navigation.run(), 4, {1}, {}, false}, &path));
}

}  // namespace
}  // namespace sutra::widgets
