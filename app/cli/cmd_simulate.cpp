// SPDX-License-Identifier: MIT
// `sutra-cli simulate`: the projected iteration time of each rank, step by step beside the
// measured one, under what-if knobs, and the simulated timeline as Chrome-trace JSON.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "chakra/et_file.h"
#include "cli_args.h"
#include "command.h"
#include "io/discover.h"
#include "io/readers.h"
#include "link/linked_trace.h"
#include "simulate/chakra_simulation.h"
#include "simulate/collective_matching.h"
#include "simulate/rank_simulation.h"
#include "simulate/step_projection.h"
#include "simulate/timeline_export.h"
#include "simulate/what_moved.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli simulate (DIR|FILE... | --kineto KINETO [--et ET]) [OPTIONS]\n"
    "Projects each rank's iteration time by replaying its trace event by event: host threads\n"
    "replay their measured CPU time, device streams run their ops in order after launch\n"
    "latency, blocking calls wait for what they synchronize on. With no knobs the replay\n"
    "reproduces the measured steps; knobs say what a change would do. With several ranks,\n"
    "a collective ends when the last rank's matching collective has arrived plus its\n"
    "transfer time, so a slow rank delays the others.\n\n"
    "Input:\n"
    "  DIR|FILE...          trace files or directories; every rank with a Kineto trace, and\n"
    "                       every rank with only a Chakra graph (<prefix>.<rank>.et): its ops\n"
    "                       run one at a time on their thread or stream after their ctrl and\n"
    "                       data dependencies, for duration_micros\n"
    "  --kineto KINETO      one Kineto trace (.json or .json.gz)\n"
    "  --et ET              its PyTorch execution trace: linked to the Kineto trace for the\n"
    "                       inter-thread dependencies (a directory pairs them by itself)\n"
    "  --graph-only         Chakra graphs: ignore the start times in the file (no measured\n"
    "                       gaps between ops): each op starts as soon as its dependencies,\n"
    "                       its thread and its stream allow\n"
    "  --comm-bandwidth-gbs X  Chakra graphs: communication nodes with no duration take\n"
    "                       comm_size / X GB/s (ASTRA-sim's examples give sizes, no times)\n\n"
    "What-if knobs:\n"
    "  --scale 'REGEX=F'    multiply the durations of device ops whose names match REGEX\n"
    "                       (ECMAScript, searched anywhere in the name) by F; repeatable, the\n"
    "                       factors of every matching pattern multiply\n"
    "  --launch-latency-us X  replace every launch latency with X microseconds (0: none)\n"
    "  --launch-latency-scale F  multiply every launch latency by F\n"
    "  --cpu-speed F        host CPU F times as fast (2: all CPU time halved)\n"
    "  --no-sync            blocking calls and stream waits wait for nothing\n\n"
    "Output:\n"
    "  --step N             only step N (ProfilerStep#N, or the N-th repeating annotation)\n"
    "  -o TIMELINE.json     write the simulated timeline as Chrome-trace JSON\n"
    "  --json               {\"ranks\":[{\"rank\",\"measured_ns\",\"simulated_ns\",\n"
    "                       \"steps\":[{\"step\",\"measured_ns\",\"simulated_ns\"}]}]}\n"
    "  -h, --help           show this help\n\n"
    "Exit status: 0 success, 2 bad input.\n";

struct RankInput {
  int rank = 0;
  std::string kineto;             // or, when chakra is set, the Chakra graph
  std::optional<std::string> et;  // linked for its inter-thread dependencies
  bool chakra = false;
};

struct RankOutcome {
  std::unique_ptr<RankSimulation> sim;
  std::string path;
  SimRun baseline, run;
  RankProjection projection;
  std::optional<WhatMoved> moved;
  TimeNs clockOffset = 0;  // added to its clock to meet the other ranks' (their collectives' ends)
};

std::optional<double> parseNumber(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string percent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", 100.0 * ratio);
  return buf;
}

std::string knobsSummary(const SimKnobs& k) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  for (const auto& scale : k.scales) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " x%g", scale.factor);
    add("'" + scale.pattern + "'" + buf);
  }
  if (k.launchLatencyNs) add("launch latency " + formatDuration(*k.launchLatencyNs));
  if (k.launchLatencyScale != 1.0) add("launch latency x" + std::to_string(k.launchLatencyScale));
  if (k.cpuSpeed != 1.0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "CPU x%g", k.cpuSpeed);
    add(buf);
  }
  if (k.dropSyncs) add("no syncs");
  return s;
}

void printHuman(const std::vector<RankOutcome>& outcomes, const SimKnobs& knobs,
                const CollectiveMatching& matching) {
  if (outcomes.size() > 1)
    std::printf(
        "%zu ranks simulated together: %zu collectives matched across ranks (%zu ops), %zu ops "
        "unmatched\n",
        outcomes.size(), matching.collectives.size(), matching.matchedOps, matching.unmatchedOps);
  for (const auto& p : matching.problems.all())
    std::printf("note: %s (x%llu), e.g. %s\n", p.what.c_str(),
                static_cast<unsigned long long>(p.count), p.example.c_str());
  for (const auto& o : outcomes) {
    const SimGraph& g = o.sim->graph;
    std::size_t streams = 0, threads = 0;
    for (const auto& t : g.tracks) (t.device ? streams : threads) += 1;
    std::printf("rank %d: %s\n", o.sim->rank, o.path.c_str());
    if (o.clockOffset != 0)
      std::printf("  clock: %s%s from the other ranks' (its collectives' ends)\n",
                  o.clockOffset > 0 ? "+" : "-",
                  formatDuration(o.clockOffset > 0 ? o.clockOffset : -o.clockOffset).c_str());
    std::printf(
        "  graph: %zu nodes, %zu edges; %zu device ops on %zu streams, %zu host threads; "
        "%llu blocking calls, %llu stream waits\n",
        g.nodes.size(), g.edges.size(), g.deviceOpCount(), streams, threads,
        static_cast<unsigned long long>(g.hostWaitsUsed),
        static_cast<unsigned long long>(g.streamWaitsUsed));
    if (knobs.any()) std::printf("  what-if: %s\n", knobsSummary(knobs).c_str());
    if (o.sim->chakra && !o.sim->measuredTimes)
      std::printf("  no start times in the graph: nothing measured to compare with\n");
    // Measured and error only where something was measured.
    auto measured = [&](TimeNs ns) {
      return o.sim->measuredTimes ? formatDuration(ns) : std::string("-");
    };
    auto error = [&](double ratio) {
      return o.sim->measuredTimes ? percent(ratio) : std::string("-");
    };
    std::printf("  %6s %-28s %14s %14s %9s\n", "step", "annotation", "measured", "simulated",
                "error");
    for (const auto& s : o.projection.steps)
      std::printf("  %6lld %-28.28s %14s %14s %9s\n", static_cast<long long>(s.number),
                  s.name.c_str(), measured(s.measuredNs).c_str(),
                  formatDuration(s.simulatedNs).c_str(), error(s.relativeError()).c_str());
    const double total =
        o.projection.measuredNs == 0
            ? 0.0
            : static_cast<double>(o.projection.simulatedNs - o.projection.measuredNs) /
                  static_cast<double>(o.projection.measuredNs);
    std::printf("  %-35s %14s %14s %9s\n", "total", measured(o.projection.measuredNs).c_str(),
                formatDuration(o.projection.simulatedNs).c_str(), error(total).c_str());
    if (o.moved) {
      const WhatMoved& m = *o.moved;
      std::printf("  replayed %s -> projected %s (%s)\n", formatDuration(m.baselineNs).c_str(),
                  formatDuration(m.variantNs).c_str(),
                  percent(m.baselineNs ? static_cast<double>(m.variantNs - m.baselineNs) /
                                             static_cast<double>(m.baselineNs)
                                       : 0.0)
                      .c_str());
      if (!m.tracks.empty()) std::printf("  threads and streams that moved most:\n");
      for (const auto& t : m.tracks)
        std::printf("    %-36s end %s%-12s   %s %s -> %s\n", t.label.c_str(),
                    t.variantEnd >= t.baselineEnd ? "+" : "",
                    formatDuration(t.variantEnd - t.baselineEnd).c_str(),
                    t.device ? "busy" : "blocked", formatDuration(t.baselineBusy).c_str(),
                    formatDuration(t.variantBusy).c_str());
      if (!m.ops.empty()) std::printf("  device ops whose time changed most:\n");
      for (const auto& op : m.ops)
        std::printf("    %-60.60s x%-6llu %12s -> %s\n", op.name.c_str(),
                    static_cast<unsigned long long>(op.count),
                    formatDuration(op.baselineNs).c_str(), formatDuration(op.variantNs).c_str());
    }
    for (const auto& p : o.sim->problems.all())
      if (p.severity != Severity::Info)
        std::printf("  note: %s (x%llu), e.g. %s\n", p.what.c_str(),
                    static_cast<unsigned long long>(p.count), p.example.c_str());
  }
}

nlohmann::json toJson(const std::vector<RankOutcome>& outcomes,
                      const CollectiveMatching& matching) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& o : outcomes) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : o.projection.steps)
      steps.push_back(
          {{"step", s.number},
           {"name", s.name},
           {"measured_ns", o.sim->measuredTimes ? nlohmann::json(s.measuredNs) : nlohmann::json()},
           {"simulated_ns", s.simulatedNs}});
    // A Chakra graph without start times measured nothing: null, not a made-up number.
    nlohmann::json rank = {
        {"rank", o.sim->rank},
        {"path", o.path},
        {"measured_ns",
         o.sim->measuredTimes ? nlohmann::json(o.projection.measuredNs) : nlohmann::json()},
        {"simulated_ns", o.projection.simulatedNs},
        {"steps", steps},
        {"clock_offset_ns", o.clockOffset},
        {"graph",
         {{"nodes", o.sim->graph.nodes.size()},
          {"edges", o.sim->graph.edges.size()},
          {"device_ops", o.sim->graph.deviceOpCount()},
          {"blocking_calls", o.sim->graph.hostWaitsUsed},
          {"stream_waits", o.sim->graph.streamWaitsUsed}}}};
    if (o.moved) {
      nlohmann::json tracks = nlohmann::json::array(), ops = nlohmann::json::array();
      for (const auto& t : o.moved->tracks)
        tracks.push_back({{"track", t.label},
                          {"device", t.device},
                          {"baseline_end_ns", t.baselineEnd},
                          {"variant_end_ns", t.variantEnd},
                          {"baseline_busy_ns", t.baselineBusy},
                          {"variant_busy_ns", t.variantBusy}});
      for (const auto& op : o.moved->ops)
        ops.push_back({{"name", op.name},
                       {"count", op.count},
                       {"baseline_ns", op.baselineNs},
                       {"variant_ns", op.variantNs}});
      rank["what_moved"] = {{"replayed_ns", o.moved->baselineNs},
                            {"projected_ns", o.moved->variantNs},
                            {"tracks", tracks},
                            {"ops", ops}};
    }
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : o.sim->problems.all())
      problems.push_back({{"severity", severityName(p.severity)},
                          {"what", p.what},
                          {"count", p.count},
                          {"example", p.example}});
    rank["problems"] = problems;
    ranks.push_back(std::move(rank));
  }
  nlohmann::json collectiveProblems = nlohmann::json::array();
  for (const auto& p : matching.problems.all())
    collectiveProblems.push_back({{"severity", severityName(p.severity)},
                                  {"what", p.what},
                                  {"count", p.count},
                                  {"example", p.example}});
  return {{"ranks", ranks},
          {"collectives",
           {{"matched", matching.collectives.size()},
            {"matched_ops", matching.matchedOps},
            {"unmatched_ops", matching.unmatchedOps},
            {"problems", collectiveProblems}}}};
}

int runSimulate(int argc, char** argv) {
  std::string error;
  auto args =
      Args::parse(argc, argv,
                  {"--kineto", "--et", "--scale", "--launch-latency-us", "--launch-latency-scale",
                   "--cpu-speed", "--step", "-o", "--comm-bandwidth-gbs"},
                  {"--json", "--no-sync", "--graph-only", "-h", "--help"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli simulate: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }

  SimKnobs knobs;
  for (const auto& text : args->values("--scale")) {
    auto scale = parseDurationScale(text);
    if (!scale) return fail("simulate", scale.error().message);
    knobs.scales.push_back(*scale);
  }
  if (auto v = args->value("--launch-latency-us")) {
    auto us = parseNumber(*v);
    if (!us || *us < 0)
      return fail("simulate", "--launch-latency-us '" + *v + "': expected microseconds >= 0");
    auto ns = launchLatencyFromMicros(*us);
    if (!ns) return fail("simulate", "--launch-latency-us '" + *v + "': " + ns.error().message);
    knobs.launchLatencyNs = *ns;
  }
  if (auto v = args->value("--launch-latency-scale")) {
    auto f = parseNumber(*v);
    if (!f || *f < 0)
      return fail("simulate", "--launch-latency-scale '" + *v + "': expected a number >= 0");
    knobs.launchLatencyScale = *f;
  }
  if (auto v = args->value("--cpu-speed")) {
    auto f = parseNumber(*v);
    if (!f || *f <= 0) return fail("simulate", "--cpu-speed '" + *v + "': expected a number > 0");
    knobs.cpuSpeed = *f;
  }
  knobs.dropSyncs = args->flag("--no-sync");
  if (auto ok = validateKnobs(knobs); !ok) return fail("simulate", ok.error().message);
  std::optional<std::int64_t> onlyStep;
  if (auto v = args->value("--step")) {
    char* end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || end != v->c_str() + v->size())
      return fail("simulate", "--step '" + *v + "': expected a step number");
    onlyStep = n;
  }

  ChakraSimOptions chakraOptions;
  chakraOptions.dependenciesOnly = args->flag("--graph-only");
  if (auto v = args->value("--comm-bandwidth-gbs")) {
    auto gbs = parseNumber(*v);
    if (!gbs || *gbs <= 0)
      return fail("simulate", "--comm-bandwidth-gbs '" + *v + "': expected GB/s > 0");
    chakraOptions.commBytesPerNs = *gbs;  // 1 GB/s = 1 byte per ns
  }

  // Which trace each rank has: its Kineto trace, else its Chakra graph.
  std::vector<RankInput> inputs;
  if (auto kineto = args->value("--kineto")) {
    if (!args->positional().empty())
      return fail("simulate", "give either --kineto or files and directories, not both");
    auto kind = sniffTraceKind(*kineto);
    if (!kind) return fail("simulate", kind.error().message);
    if (*kind != FileKind::KinetoTrace)
      return fail("simulate",
                  *kineto + ": not a Kineto trace (" + std::string(fileKindName(*kind)) + ")");
    if (auto et = args->value("--et")) {
      auto etKind = sniffTraceKind(*et);
      if (!etKind) return fail("simulate", etKind.error().message);
      if (*etKind != FileKind::PytorchEt && *etKind != FileKind::LinkedEt)
        return fail("simulate", *et + ": not a PyTorch execution trace (" +
                                    std::string(fileKindName(*etKind)) + ")");
    }
    inputs.push_back({0, *kineto, args->value("--et")});
  } else {
    if (args->value("--et")) return fail("simulate", "--et goes with --kineto");
    if (args->positional().empty()) {
      std::fprintf(stderr, "sutra-cli simulate: no input\n%s", kHelp);
      return kExitBadInput;
    }
    auto found = discoverTraces(args->positional());
    if (!found) return fail("simulate", found.error().message);
    // A file named on the command line must be a trace (a directory may hold other files).
    for (const auto& file : found->files) {
      if (file.kind != FileKind::Unknown) continue;
      for (const auto& given : args->positional())
        if (std::filesystem::path(given).lexically_normal() ==
            std::filesystem::path(file.path).lexically_normal())
          return fail("simulate",
                      file.path + ": not a trace Sutra can simulate (" + file.reason + ")");
    }
    for (const auto& group : found->ranks) {
      if (group.kineto) {
        inputs.push_back({group.rank, *group.kineto, group.et});
      } else if (group.chakra.size() > 1) {
        return fail("simulate", group.chakra[0] + " and " + group.chakra[1] +
                                    ": two Chakra graphs of rank " + std::to_string(group.rank) +
                                    " (give one graph per rank, named <prefix>.<rank>.et)");
      } else if (!group.chakra.empty()) {
        inputs.push_back({group.rank, group.chakra.front(), std::nullopt, true});
      }
    }
    if (inputs.empty()) return fail("simulate", "no Kineto trace or Chakra graph among the inputs");
    // Several ranks simulate together: every rank between the first and the last must be there.
    for (std::size_t k = 1; k < inputs.size(); ++k) {
      if (inputs[k].rank == inputs[k - 1].rank + 1) continue;
      return fail("simulate", "rank " + std::to_string(inputs[k - 1].rank + 1) +
                                  " is missing: " + inputs[k - 1].kineto + " is rank " +
                                  std::to_string(inputs[k - 1].rank) + " and " + inputs[k].kineto +
                                  " is rank " + std::to_string(inputs[k].rank));
    }
  }

  std::vector<RankOutcome> outcomes;
  for (const auto& in : inputs) {
    RankOutcome o;
    o.path = in.kineto;
    if (in.chakra) {
      auto et = chakra::readChakraTrace(in.kineto);
      if (!et) return fail("simulate", et.error().message);
      if (et->nodes.empty()) return fail("simulate", in.kineto + ": a Chakra graph with no nodes");
      o.sim = prepareChakraSimulation(*et, in.rank, chakraOptions);
      outcomes.push_back(std::move(o));
      continue;
    }
    auto trace = readKinetoTrace(in.kineto);
    if (!trace) return fail("simulate", trace.error().message);
    const int rank = trace->meta.rank.value_or(in.rank);
    auto shared = std::make_shared<const Trace>(std::move(trace.value()));
    std::optional<LinkedTrace> linked;
    if (in.et) {
      auto et = readPytorchEt(*in.et);
      if (!et) return fail("simulate", et.error().message);
      LinkOptions options;
      options.rank = rank;
      auto link =
          linkTraces(std::make_shared<const EtTrace>(std::move(et.value())), shared, options);
      // Linking only adds inter-thread dependencies: without them the Kineto trace still replays.
      if (link)
        linked = std::move(link.value());
      else
        std::fprintf(stderr, "sutra-cli simulate: note: %s; simulating the Kineto trace alone\n",
                     link.error().message.c_str());
    }
    o.sim = prepareRankSimulation(shared, rank, linked ? &*linked : nullptr);
    outcomes.push_back(std::move(o));
  }

  // All ranks at once, coupled by their collectives.
  std::vector<const SimGraph*> graphs;
  std::vector<RankComms> comms;
  for (const auto& o : outcomes) {
    graphs.push_back(&o.sim->graph);
    comms.push_back({o.sim->rank, o.sim->comms});
  }
  const CollectiveMatching matching = matchCollectives(comms);
  std::vector<bool> measured;
  for (const auto& o : outcomes) measured.push_back(o.sim->measuredTimes);
  const std::vector<TimeNs> offsets = estimateClockOffsets(graphs, matching, measured);
  for (std::size_t r = 0; r < outcomes.size(); ++r) outcomes[r].clockOffset = offsets[r];
  auto baselines = simulateRanks(graphs, matching.collectives, {}, offsets);
  if (!baselines) return fail("simulate", baselines.error().message);
  std::optional<std::vector<SimRun>> variants;
  if (knobs.any()) {
    auto runs = simulateRanks(graphs, matching.collectives, knobs, offsets);
    if (!runs) return fail("simulate", runs.error().message);
    variants = std::move(runs.value());
  }
  for (std::size_t r = 0; r < outcomes.size(); ++r) {
    RankOutcome& o = outcomes[r];
    o.baseline = std::move((*baselines)[r]);
    if (variants) {
      o.run = std::move((*variants)[r]);
      o.moved = whatMoved(o.sim->graph, o.baseline, o.run);
    } else {
      o.run = o.baseline;
    }
    std::vector<Step> steps = o.sim->steps;
    if (onlyStep) {
      const Step* s = findStep(steps, *onlyStep);
      if (!s) {
        std::string known;
        for (std::size_t i = 0; i < steps.size() && i < 8; ++i)
          known += (i ? ", " : "") + std::to_string(steps[i].number);
        return fail("simulate", o.path + ": no step " + std::to_string(*onlyStep) +
                                    " (steps: " + (known.empty() ? "none" : known) + ")");
      }
      steps = {*s};
    }
    o.projection = projectSteps(o.sim->graph, o.run, steps);
  }

  if (auto out = args->value("-o")) {
    std::vector<SimulatedRank> ranks;
    for (const auto& o : outcomes) ranks.push_back({o.sim->rank, &o.sim->graph, &o.run});
    if (auto ok = writeSimulatedTimeline(*out, ranks); !ok)
      return fail("simulate", ok.error().message);
  }
  if (args->flag("--json")) {
    std::printf("%s\n", jsonText(toJson(outcomes, matching)).c_str());
  } else {
    printHuman(outcomes, knobs, matching);
    if (auto out = args->value("-o"))
      std::printf("simulated timeline written to %s\n", out->c_str());
  }
  return kExitOk;
}

RegisterCommand reg{{"simulate",
                     "project the iteration time by replaying a trace, with what-if knobs", 50,
                     &runSimulate}};

}  // namespace
}  // namespace sutra::cli
