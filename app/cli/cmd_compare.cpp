// SPDX-License-Identifier: MIT
// sutra-cli compare: two operator tables side by side (two runs, or two steps of one run).
#include <cstdio>
#include <iostream>

#include "analysis/compare.h"
#include "analysis/compare_story.h"
#include "analysis_input.h"
#include "command.h"
#include "session/run_naming.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli compare A B [--step N] [--step-a N] [--step-b M] [--group-by-shape]\n"
    "                         [--limit N] [--json | --csv]\n"
    "       sutra-cli compare TRACE --step-a N --step-b M   (two steps of one trace)\n"
    "Compares the operator tables of two Kineto traces: per-operator deltas of calls, self and\n"
    "total CPU and device time, the operators found on one side only, and the totals side by side\n"
    "(\"Self CUDA total: 2.355 ms -> 403.3 us (5.84x less)\"). Operators match by name (and input\n"
    "shapes with --group-by-shape). It begins with the story in words: device and CPU time,\n"
    "kernels launched and host idle time A -> B, and the operators one run replaced.\n\n"
    "  --step N           compare step N of both sides (default: whole traces)\n"
    "  --step-a N         the step of A\n"
    "  --step-b M         the step of B\n"
    "  --group-by-shape   match by name and input shapes\n"
    "  --limit N          at most N rows (default: 50 in the table, all in --json and --csv)\n"
    "  --json             {\"device\",\"a\":{\"label\",\"window\",\"self_cpu_total_ns\",\n"
    "                     "
    "\"self_device_total_ns\"},\"b\":{...},\"rows\":[{\"name\",\"on_device\",\n"
    "                     \"side\",\"a\":{...},\"b\":{...},\"delta\":{...}}],\n"
    "                     \"story\":{\"headline\",\"replaced\",\"a\":{\"window_ns\",\"kernels\",\n"
    "                     \"device_ops\",\"host_idle_ns\"},\"b\":{...}}}\n"
    "  --csv              the rows as CSV\n";

struct Side {
  std::string path;
  std::optional<std::int64_t> step;
};

int runCompare(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--step-a", "--step-b", "--limit"},
                          {"--group-by-shape", "--json", "--csv", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli compare: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto& paths = args->positional();
  if (paths.empty() || paths.size() > 2)
    return fail("compare", "give two traces, or one trace and --step-a and --step-b");
  if (args->flag("--json") && args->flag("--csv"))
    return fail("compare", "choose --json or --csv, not both");
  Side a{paths[0], {}}, b{paths.size() == 2 ? paths[1] : paths[0], {}};
  for (auto [option, sides] :
       {std::pair{"--step", 2}, std::pair{"--step-a", 0}, std::pair{"--step-b", 1}}) {
    auto v = args->value(option);
    if (!v) continue;
    auto n = parseInteger(*v, option);
    if (!n.ok()) return fail("compare", n.error().message);
    if (sides != 1) a.step = *n;
    if (sides != 0) b.step = *n;
  }
  if (paths.size() == 1 && (!a.step || !b.step || *a.step == *b.step))
    return fail("compare", "with one trace, give two different steps: --step-a N --step-b M");
  std::optional<std::size_t> limit;
  if (auto v = args->value("--limit")) {
    auto n = parseInteger(*v, "--limit");
    if (!n.ok()) return fail("compare", n.error().message);
    if (*n < 0) return fail("compare", "--limit: must not be negative");
    limit = static_cast<std::size_t>(*n);
  }
  const bool byShape = args->flag("--group-by-shape");

  // Names and times only: the args text (most of a trace's memory) is read for shapes alone.
  const AnalysisNeeds tablesOnly{
      .etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = byShape};
  auto first = loadAnalysisInput(a.path, tablesOnly);
  if (!first.ok()) return fail("compare", first.error().message);
  std::shared_ptr<const RankRun> second = *first;  // the same run, where both sides are in one
  if (paths.size() == 2) {
    auto loaded = loadAnalysisInput(b.path, tablesOnly);
    if (!loaded.ok()) return fail("compare", loaded.error().message);
    second = std::move(loaded).value();
  }
  const RankRun &inA = **first, &inB = *second;
  // A whole run is named by its folder alone: the story reads "B (fused) against A (naive)".
  const std::vector<std::string> runs = runLabels({a.path, b.path});
  auto tableOf = [&](const RankRun& in, const Side& side, const std::string& run,
                     std::string& label) -> Result<OpTable> {
    auto window = resolveWindow(*in.trace, in.steps(), {.step = side.step});
    if (!window.ok()) return window.error();
    label =
        run + (side.step ? " " + describeWindow(in.steps(), {.step = side.step}) : std::string());
    return buildOpTable(*in.trace, *in.launches(), {*window, byShape});
  };
  std::string labelA, labelB;
  auto tableA = tableOf(inA, a, runs[0], labelA);
  if (!tableA.ok()) return fail("compare", tableA.error().message);
  auto tableB = tableOf(inB, b, runs[1], labelB);
  if (!tableB.ok()) return fail("compare", tableB.error().message);

  const OpComparison c = compareOpTables(*tableA, *tableB, labelA, labelB);
  const ComparisonStory story = tellComparison(
      c, *inA.trace, *inB.trace, a.step ? 1 : inA.steps().size(), b.step ? 1 : inB.steps().size());
  if (args->flag("--json")) {
    nlohmann::json out = comparisonJson(c, limit.value_or(0));
    auto totals = [](const RunTotals& t) {
      return nlohmann::json{{"window_ns", t.window},
                            {"kernels", t.kernels},
                            {"device_ops", t.deviceOps},
                            {"host_idle_ns", t.hostIdle}};
    };
    out["story"] = {{"headline", story.headline},
                    {"replaced", story.replaced},
                    {"a", totals(story.a)},
                    {"b", totals(story.b)}};
    std::cout << jsonText(out, 2) << "\n";
  } else if (args->flag("--csv")) {
    std::cout << comparisonCsv(c, limit.value_or(0));
  } else {
    std::cout << story.headline << "\n";
    if (!story.replaced.empty()) std::cout << story.replaced << "\n";
    std::cout << "\n" << comparisonText(c, limit.value_or(50));
  }
  return kExitOk;
}

RegisterCommand reg{
    {"compare", "compare the operator tables of two runs or two steps", 41, &runCompare}};

}  // namespace
}  // namespace sutra::cli
