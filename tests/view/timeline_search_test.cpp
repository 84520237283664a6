// SPDX-License-Identifier: MIT
#include "view/timeline_search.h"

#include <gtest/gtest.h>

#include "model/trace_builder.h"

namespace sutra::view {
namespace {

// One thread: aten::addmm at 0 and 300, aten::mm at 100, cudaLaunchKernel at 150, ProfilerStep#1
// around them all.
Trace searchTrace() {
  TraceBuilder b("search");
  const LaneId host = b.lane("1", "1");
  auto add = [&](const char* name, TimeNs start, TimeNs dur) {
    Event e;
    e.name = b.trace().names.intern(name);
    e.category = static_cast<std::uint16_t>(b.trace().categories.intern("cpu_op"));
    e.klass = CategoryClass::CpuOp;
    e.lane = host;
    e.start = start;
    e.dur = dur;
    b.addEvent(e);
  };
  add("ProfilerStep#1", 0, 1000);
  add("aten::addmm", 0, 50);
  add("aten::mm", 100, 40);
  add("cudaLaunchKernel", 150, 10);
  add("aten::addmm", 300, 50);
  return b.finish();
}

std::vector<std::string> names(const Trace& trace, const std::vector<PartEvent>& events) {
  std::vector<std::string> out;
  for (const PartEvent& e : events) out.emplace_back(trace.name(trace.events[e.event]));
  return out;
}

TEST(TimelineSearch, ASubstringMatchesEitherCaseAnywhereInTheName) {
  const Trace trace = searchTrace();
  auto matches = TimelineMatches::find({{&trace, 0}}, {"ATEN::", false});
  ASSERT_TRUE(matches.ok());
  EXPECT_EQ(names(trace, matches->events()),
            (std::vector<std::string>{"aten::addmm", "aten::mm", "aten::addmm"}));
  EXPECT_EQ(matches->current(), -1);
  auto none = TimelineMatches::find({{&trace, 0}}, {"softmax", false});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(none->next(0), -1);
  EXPECT_EQ(none->previous(0), -1);
}

TEST(TimelineSearch, ARegularExpressionIsSearchedIgnoringCaseAndAnInvalidOneSaysWhy) {
  const Trace trace = searchTrace();
  auto matches = TimelineMatches::find({{&trace, 0}}, {"^aten::(add)?MM$", true});
  ASSERT_TRUE(matches.ok());
  EXPECT_EQ(names(trace, matches->events()),
            (std::vector<std::string>{"aten::addmm", "aten::mm", "aten::addmm"}));
  auto launch = TimelineMatches::find({{&trace, 0}}, {"launch", true});
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(names(trace, launch->events()), (std::vector<std::string>{"cudaLaunchKernel"}));
  auto invalid = TimelineMatches::find({{&trace, 0}}, {"aten::(mm", true});
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(invalid.error().message.find("invalid regular expression 'aten::(mm'"),
            std::string::npos)
      << invalid.error().message;
  // Per name: the empty name (id 0) never matches.
  auto perName = matchingNames(trace.names, {"", false});
  ASSERT_TRUE(perName.ok());
  EXPECT_FALSE((*perName)[0]);
}

// Two parts (ranks) on one axis, the second moved 200 ns later: matches ordered by their start
// on the shared axis, then by part.
TEST(TimelineSearch, MatchesOfSeveralPartsAreOrderedOnTheSharedAxis) {
  const Trace a = searchTrace();
  const Trace b = searchTrace();
  const std::vector<SearchPart> parts{{&a, 0}, {&b, 200}};
  auto matches = TimelineMatches::find(parts, {"aten::addmm", false});
  ASSERT_TRUE(matches.ok());
  // a's addmm at 0 and 300, b's at 200 and 500.
  EXPECT_EQ(matches->events(), (std::vector<PartEvent>{{0, 1}, {1, 1}, {0, 4}, {1, 4}}));
  // Given events are ordered too, and those naming no event left out.
  const TimelineMatches given = TimelineMatches::of({{1, 2}, {0, 2}, {2, 0}, {0, 99}}, parts);
  EXPECT_EQ(given.events(), (std::vector<PartEvent>{{0, 2}, {1, 2}}));
}

TEST(TimelineSearch, NextAndPreviousStartFromTheWindowThenStepAndWrap) {
  const Trace trace = searchTrace();
  auto found = TimelineMatches::find({{&trace, 0}}, {"aten::", false});
  ASSERT_TRUE(found.ok());
  TimelineMatches matches = *found;  // starts 0, 100, 300
  EXPECT_EQ(matches.next(90), 1);    // the first at or after the window's start
  EXPECT_EQ(matches.next(90), 2);    // then on from the current one
  EXPECT_EQ(matches.next(90), 0);    // wrapping
  EXPECT_EQ(matches.previous(0), 2);
  matches.setCurrent(-1);
  EXPECT_EQ(matches.previous(300), 1);  // the last before the window's end
  matches.setCurrent(-1);
  EXPECT_EQ(matches.previous(0), 2);  // none before: the last
  matches.setCurrent(-1);
  EXPECT_EQ(matches.next(1000), 0);  // none after: the first
  matches.setCurrent(7);             // out of range: none current
  EXPECT_EQ(matches.current(), -1);
}

}  // namespace
}  // namespace sutra::view
