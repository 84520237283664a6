// SPDX-License-Identifier: MIT
// The analyses of one rank, each as the JSON document sutra-cli's --json prints for it (the
// operator table, steps, breakdown, call tree, critical path, memory, dependency chain) and the
// comparison of two runs: small results, built by core with the GIL released and parsed into
// DataFrames by the Python side.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>

#include "analysis/breakdown.h"
#include "analysis/call_tree.h"
#include "analysis/chain.h"
#include "analysis/compare.h"
#include "analysis/compare_story.h"
#include "analysis/critical_path.h"
#include "analysis/memory.h"
#include "analysis/op_table.h"
#include "analysis/op_table_format.h"
#include "run_handle.h"
#include "session/run_naming.h"

namespace sutra::python {
namespace {

using Json = nlohmann::json;

// A rank opened up to its analyses, with a Kineto trace.
const RankRun& analysedRank(const RunHandle& h, std::size_t index) {
  if (index >= h.run.ranks.size()) throw nb::index_error("no such rank index");
  const RankRun& rank = *h.run.ranks[index];
  if (!rank.trace) throw CoreError(rank.path() + ": a Chakra graph alone has no Kineto events");
  if (!rank.has(RunStage::Analyse) || !rank.launches())
    throw CoreError(rank.path() + ": not analysed (open it with until='analyse' or later)");
  return rank;
}

struct Window {
  std::optional<std::int64_t> step;
  std::optional<TimeNs> start, end;
  WindowSpec spec() const { return {step, start, end}; }
  bool whole() const { return !step && !start && !end; }
};

TimeWindow resolved(const RankRun& rank, const Window& w) {
  return valueOr(resolveWindow(*rank.trace, rank.steps(), w.spec()));
}

// Runs `build` with the GIL released and returns its document as JSON text.
template <class F>
std::string released(F&& build) {
  nb::gil_scoped_release release;
  return build().dump();
}

std::string opTable(const RunHandle& h, std::size_t index, bool byShape, bool recursionOnce,
                    Window w) {
  const RankRun& rank = analysedRank(h, index);
  if (byShape && !rank.trace->eventArgsRead)
    throw CoreError(rank.kinetoPath +
                    ": opened without the events' args (event_args=False); the input shapes "
                    "need them");
  const TimeWindow window = resolved(rank, w);
  return released([&] {
    // The whole trace as torch counts it is the table the run built already.
    OpTable table =
        w.whole() && !byShape && !recursionOnce && rank.opTable()
            ? *rank.opTable()
            : buildOpTable(*rank.trace, *rank.launches(), {window, byShape, recursionOnce});
    sortOpRows(table.rows, table.hasDeviceTime() ? OpSort::SelfDevice : OpSort::SelfCpu);
    return opTableJson(table);
  });
}

std::string steps(const RunHandle& h, std::size_t index) {
  const RankRun& rank = analysedRank(h, index);
  Json out = Json::array();
  for (const Step& s : rank.steps())
    out.push_back({{"step", s.number},
                   {"name", s.name},
                   {"annotation_id", s.annotation == kNoEvent ? Json(nullptr) : Json(s.annotation)},
                   {"start_ns", s.start},
                   {"end_ns", s.end},
                   {"device_end_ns", s.deviceEnd},
                   {"dur_ns", s.duration()},
                   {"source", s.source == StepSource::ProfilerStep          ? "ProfilerStep"
                              : s.source == StepSource::RepeatingAnnotation ? "repeating annotation"
                                                                            : "whole trace"}});
  return out.dump();
}

std::string breakdown(const RunHandle& h, std::size_t index, std::optional<std::int64_t> step,
                      double idleHintPercent) {
  const RankRun& rank = analysedRank(h, index);
  std::vector<Step> chosen = rank.steps();
  if (step) {
    const Step* found = findStep(rank.steps(), *step);
    if (!found) throw CoreError(rank.kinetoPath + ": no step " + std::to_string(*step));
    chosen = {*found};
  }
  BreakdownOptions options;
  options.idleHintPercent = idleHintPercent;
  return released(
      [&] { return breakdownJson(*rank.trace, buildBreakdown(*rank.trace, chosen, options)); });
}

std::string callTree(const RunHandle& h, std::size_t index, Window w, bool bottomUp,
                     std::size_t depth) {
  const RankRun& rank = analysedRank(h, index);
  const TimeWindow window = resolved(rank, w);
  return released([&] {
    const CallTree tree = buildCallTree(*rank.trace, *rank.launches(), {window, bottomUp});
    return callTreeJson(*rank.trace, tree, depth);
  });
}

std::string criticalPathOf(const RunHandle& h, std::size_t index, Window w) {
  const RankRun& rank = analysedRank(h, index);
  if (!rank.syncs()) throw CoreError(rank.kinetoPath + ": opened without its sync dependencies");
  // As sutra-cli critical-path: the first step where none is asked.
  if (w.whole() && !rank.steps().empty()) w.step = rank.steps().front().number;
  const TimeWindow window = resolved(rank, w);
  return released([&] {
    CriticalPath path = criticalPath(*rank.trace, *rank.launches(), *rank.syncs(), window);
    path.label = describeWindow(rank.steps(), w.spec());
    return criticalPathJson(*rank.trace, path);
  });
}

std::string memory(const RunHandle& h, std::size_t index, std::size_t limit) {
  const RankRun& rank = analysedRank(h, index);
  return released([&] { return memoryJson(*rank.trace, buildMemoryReport(*rank.trace), limit); });
}

std::string chain(const RunHandle& h, std::size_t index, std::optional<std::int64_t> event,
                  std::optional<std::string> name, std::size_t nth, std::size_t maxLaunches) {
  const RankRun& rank = analysedRank(h, index);
  const Trace& trace = *rank.trace;
  if (!rank.syncs()) throw CoreError(rank.kinetoPath + ": opened without its sync dependencies");
  EventId focus = kNoEvent;
  if (event) {
    if (*event < 0 || static_cast<std::uint64_t>(*event) >= trace.events.size())
      throw CoreError(rank.kinetoPath + ": no event " + std::to_string(*event) +
                      " (the trace has " + std::to_string(trace.events.size()) + " events)");
    focus = static_cast<EventId>(*event);
  } else if (name) {
    focus = findEventByName(trace, *name, nth);
    if (focus == kNoEvent)
      throw CoreError(rank.kinetoPath + ": no event named '" + *name + "'" +
                      (nth > 0 ? " with occurrence " + std::to_string(nth) : std::string()));
  } else {
    throw nb::value_error("give an event id or a name");
  }
  ChainOptions options;
  options.maxLaunches = maxLaunches;
  return released([&] {
    return chainJson(trace, dependencyChain(trace, *rank.launches(), *rank.syncs(), focus,
                                            rank.linked().get(), options));
  });
}

Json totalsJson(const RunTotals& t) {
  return {{"window_ns", t.window},
          {"kernels", t.kernels},
          {"device_ops", t.deviceOps},
          {"host_idle_ns", t.hostIdle}};
}

// sutra-cli compare --json: the per-op deltas and the story in words.
std::string compare(const RunHandle& a, std::size_t rankA, std::optional<std::int64_t> stepA,
                    const RunHandle& b, std::size_t rankB, std::optional<std::int64_t> stepB,
                    bool byShape) {
  const RankRun& ra = analysedRank(a, rankA);
  const RankRun& rb = analysedRank(b, rankB);
  // Named as sutra-cli compare names them: by the path given (a run's folder), else the trace.
  auto given = [](const RunHandle& h, const RankRun& rank) {
    return h.run.paths.size() == 1 ? h.run.paths.front() : rank.kinetoPath;
  };
  const auto labels = runLabels({given(a, ra), given(b, rb)});
  auto side = [&](const RankRun& rank, std::optional<std::int64_t> step, const std::string& run,
                  std::string& label) {
    const TimeWindow window = valueOr(resolveWindow(*rank.trace, rank.steps(), {.step = step}));
    label = run + (step ? " " + describeWindow(rank.steps(), {.step = step}) : std::string());
    return buildOpTable(*rank.trace, *rank.launches(), {window, byShape});
  };
  std::string labelA, labelB;
  const OpTable tableA = side(ra, stepA, labels[0], labelA);
  const OpTable tableB = side(rb, stepB, labels[1], labelB);
  return released([&] {
    const OpComparison c = compareOpTables(tableA, tableB, labelA, labelB);
    const ComparisonStory story = tellComparison(
        c, *ra.trace, *rb.trace, stepA ? 1 : ra.steps().size(), stepB ? 1 : rb.steps().size());
    Json out = comparisonJson(c);
    out["story"] = {{"headline", story.headline},
                    {"replaced", story.replaced},
                    {"a", totalsJson(story.a)},
                    {"b", totalsJson(story.b)}};
    return out;
  });
}

}  // namespace

void bindAnalyses(nb::module_& m) {
  auto window = [](std::optional<std::int64_t> step, std::optional<TimeNs> start,
                   std::optional<TimeNs> end) {
    return Window{step, start, end};
  };
  m.def(
      "op_table_json",
      [window](const RunHandle& h, std::size_t rank, bool byShape, bool recursionOnce,
               std::optional<std::int64_t> step, std::optional<TimeNs> start,
               std::optional<TimeNs> end) {
        return opTable(h, rank, byShape, recursionOnce, window(step, start, end));
      },
      nb::arg("run"), nb::arg("rank"), nb::arg("group_by_input_shape"),
      nb::arg("count_recursion_once"), nb::arg("step").none(), nb::arg("start_ns").none(),
      nb::arg("end_ns").none());
  m.def("steps_json", &steps, nb::arg("run"), nb::arg("rank"));
  m.def("breakdown_json", &breakdown, nb::arg("run"), nb::arg("rank"), nb::arg("step").none(),
        nb::arg("idle_hint_percent"));
  m.def(
      "call_tree_json",
      [window](const RunHandle& h, std::size_t rank, std::optional<std::int64_t> step,
               std::optional<TimeNs> start, std::optional<TimeNs> end, bool bottomUp,
               std::size_t depth) {
        return callTree(h, rank, window(step, start, end), bottomUp, depth);
      },
      nb::arg("run"), nb::arg("rank"), nb::arg("step").none(), nb::arg("start_ns").none(),
      nb::arg("end_ns").none(), nb::arg("bottom_up"), nb::arg("depth"));
  m.def(
      "critical_path_json",
      [window](const RunHandle& h, std::size_t rank, std::optional<std::int64_t> step,
               std::optional<TimeNs> start, std::optional<TimeNs> end) {
        return criticalPathOf(h, rank, window(step, start, end));
      },
      nb::arg("run"), nb::arg("rank"), nb::arg("step").none(), nb::arg("start_ns").none(),
      nb::arg("end_ns").none());
  m.def("memory_json", &memory, nb::arg("run"), nb::arg("rank"), nb::arg("limit"));
  m.def("chain_json", &chain, nb::arg("run"), nb::arg("rank"), nb::arg("event").none(),
        nb::arg("name").none(), nb::arg("nth"), nb::arg("max_launches"));
  m.def("compare_json", &compare, nb::arg("a"), nb::arg("rank_a"), nb::arg("step_a").none(),
        nb::arg("b"), nb::arg("rank_b"), nb::arg("step_b").none(), nb::arg("group_by_input_shape"));
}

}  // namespace sutra::python
