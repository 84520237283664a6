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
#include <tuple>
#include <vector>

#include "chakra/network_model.h"
#include "cli_args.h"
#include "command.h"
#include "io/discover.h"
#include "session/run.h"
#include "session/run_simulation.h"
#include "simulate/timeline_export.h"
#include "simulate_astra_model.h"
#include "simulate_astra_sim.h"

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
    "  --network NET.yml    Chakra graphs: communication nodes with no duration are costed\n"
    "                       on this network, given as ASTRA-sim's analytical network.yml\n"
    "                       (topology, npus_count, bandwidth, latency per dimension: Ring,\n"
    "                       FullyConnected or Switch), the way ASTRA-sim's congestion-unaware\n"
    "                       backend costs them: a collective by its comm_type and comm_size over\n"
    "                       the dimensions of its involved_dim, else its process group\n"
    "                       (pg_config's size for its pg_name, else every rank opened), a send\n"
    "                       or recv as one message between its two ranks (the recv ends when\n"
    "                       the message arrives)\n"
    "  --system SYS.json    with --network: ASTRA-sim's system.json (collective implementations\n"
    "                       ring, direct, halvingDoubling; preferred-dataset-splits,\n"
    "                       active-chunks-per-dimension, endpoint-delay, local-mem-bw,\n"
    "                       collective-optimization). Without it: ring, 4 chunks, 1 active chunk,\n"
    "                       10 ns endpoint delay, 1600 GB/s, localBWAware (ASTRA-sim's\n"
    "                       Ring_4chunks.json)\n"
    "  --comm-bandwidth-gbs X  Chakra graphs: a flat cost instead of a network: communication\n"
    "                       nodes with no duration take comm_size / X GB/s whatever the\n"
    "                       collective and group (not with --network)\n\n"
    "What-if knobs:\n"
    "  --scale 'REGEX=F'    multiply the durations of device ops whose names match REGEX\n"
    "                       (ECMAScript, searched anywhere in the name) by F; repeatable, the\n"
    "                       factors of every matching pattern multiply\n"
    "  --launch-latency-us X  replace every launch latency with X microseconds (0: none)\n"
    "  --launch-latency-scale F  multiply every launch latency by F\n"
    "  --cpu-speed F        host CPU F times as fast (2: all CPU time halved)\n"
    "  --scale-cpu 'REGEX=F'  multiply the time of host ops and annotations whose names match\n"
    "                       REGEX by F on their thread (0 removes them: a straggler's delay,\n"
    "                       a busy loop); what waited on them moves. Repeatable\n"
    "  --network-speed F    the network's bandwidth F times as fast: the bandwidth part of\n"
    "                       every collective's and send's transfer, as the network model\n"
    "                       fitted to the run's collectives splits it, is divided by F\n"
    "  --no-sync            blocking calls and stream waits wait for nothing\n\n"
    "Output:\n"
    "  --step N             only step N (ProfilerStep#N, or the N-th repeating annotation)\n"
    "  -o TIMELINE.json     write the simulated timeline as Chrome-trace JSON\n"
    "  --json               {\"ranks\":[{\"rank\",\"measured_ns\",\"simulated_ns\",\n"
    "                       \"steps\":[{\"step\",\"measured_ns\",\"simulated_ns\"}]}]}\n"
    "  -h, --help           show this help\n\n"
    "ASTRA-sim, the engine beyond one machine:\n"
    "  --engine astra-sim PREFIX  run ASTRA-sim's analytical backend on a `convert` export\n"
    "                       (PREFIX.<rank>.et with the PREFIX.network.yml, .system.json and\n"
    "                       .memory.json written beside them; or the folder holding one) and\n"
    "                       print each rank's finish time beside the measured iteration and\n"
    "                       Sutra's simulation of the same graphs. The binary: $ASTRA_SIM,\n"
    "                       else AstraSim_Analytical_Congestion_Unaware on PATH\n"
    "  --network FILE, --system FILE  with --engine astra-sim: instead of the export's\n"
    "                       (what if another topology or bandwidth; npus_count >= ranks)\n"
    "  --timeout S          stop ASTRA-sim after S seconds (default 600)\n"
    "  --json               with --engine astra-sim: {\"engine\":\"astra-sim\",\"ranks\":\n"
    "                       [{\"rank\",\"measured_ns\",\"sutra_ns\",\"astra_model_ns\",\n"
    "                       \"astra_sim_ns\"}]}\n"
    "  --engine astra-model PREFIX  the export run by Sutra under ASTRA-sim's rules, without\n"
    "                       ASTRA-sim: per rank one CPU, one compute and one communication node\n"
    "                       in flight, ready nodes issued in id order, only data_deps waited\n"
    "                       on, collectives on the same network model; each rank's finish\n"
    "                       beside its measured iteration (--network/--system as above;\n"
    "                       --json: {\"engine\":\"astra-model\",\"ranks\":[{\"rank\",\n"
    "                       \"measured_ns\",\"astra_model_ns\",\"off_percent\"}]}). Made for the\n"
    "                       graphs of `convert --for astra-sim`\n\n"
    "Exit status: 0 success, 2 bad input (or ASTRA-sim absent, failed, a rank unfinished).\n";

using RankOutcome = RankSimulationResult;

// What the launch and sync attribution, the linking and the graph could not resolve.
ProblemLog rankProblems(const RankOutcome& o) {
  ProblemLog problems = o.rank->linkProblems();
  problems.merge(o.rank->simulation->problems);
  return problems;
}

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

void printHuman(const std::vector<RankOutcome>& outcomes, const SimKnobs& knobs,
                const CollectiveMatching& matching, const TransferFit& network) {
  if (outcomes.size() > 1)
    std::printf(
        "%zu ranks simulated together: %zu collectives matched across ranks (%zu ops), %zu ops "
        "unmatched\n",
        outcomes.size(), matching.collectives.size(), matching.matchedOps, matching.unmatchedOps);
  if (!matching.collectives.empty())
    std::printf("network model of the transfers: %s; unexplained %s rms\n", network.basis.c_str(),
                formatDuration(static_cast<TimeNs>(network.residualRmsNs)).c_str());
  for (const auto& p : matching.problems.all())
    std::printf("note: %s (x%llu), e.g. %s\n", p.what.c_str(),
                static_cast<unsigned long long>(p.count), p.example.c_str());
  for (const auto& o : outcomes) {
    const RankSimulation& sim = *o.rank->simulation;
    const SimGraph& g = sim.graph;
    std::size_t streams = 0, threads = 0;
    for (const auto& t : g.tracks) (t.device ? streams : threads) += 1;
    std::printf("rank %d: %s\n", sim.rank, o.rank->path().c_str());
    if (!o.rank->linkNote().empty())
      std::printf("  note: %s; simulating the Kineto trace alone\n", o.rank->linkNote().c_str());
    else if (o.rank->linked())
      std::printf("  linked with %s (%s)\n", o.rank->etPath.c_str(),
                  o.rank->linked()->report.matching.c_str());
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
    if (knobs.any()) std::printf("  what-if: %s\n", describeKnobs(knobs).c_str());
    if (sim.chakra && !sim.measuredTimes)
      std::printf("  no start times in the graph: nothing measured to compare with\n");
    // Measured and error only where something was measured.
    auto measured = [&](TimeNs ns) {
      return sim.measuredTimes ? formatDuration(ns) : std::string("-");
    };
    auto error = [&](double ratio) {
      return sim.measuredTimes ? percent(ratio) : std::string("-");
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
    if (const WhatHolds& h = o.holds; h.pathNs > 0) {
      const auto steps = static_cast<TimeNs>(std::max<std::size_t>(o.projection.steps.size(), 1));
      auto per = [&](TimeNs ns) { return formatDuration(ns / steps); };
      std::printf(
          "  what holds it%s, per step: host %s, device %s, communication %s (waiting for other "
          "ranks %s, transfer %s), launch %s; gaps held as measured %s (%.1f %% of its critical "
          "path: no cause in the trace explains them, no knob moves them)\n",
          knobs.any() ? " under the what-if" : "", per(h.hostNs).c_str(), per(h.deviceNs).c_str(),
          per(h.commWaitNs + h.commTransferNs).c_str(), per(h.commWaitNs).c_str(),
          per(h.commTransferNs).c_str(), per(h.launchNs).c_str(), per(h.heldGapNs).c_str(),
          100.0 * static_cast<double>(h.heldGapNs) / static_cast<double>(h.pathNs));
    }
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
    const ProblemLog problems = rankProblems(o);
    for (const auto& p : problems.all())
      if (p.severity != Severity::Info)
        std::printf("  note: %s (x%llu), e.g. %s\n", p.what.c_str(),
                    static_cast<unsigned long long>(p.count), p.example.c_str());
  }
}

nlohmann::json toJson(const std::vector<RankOutcome>& outcomes, const CollectiveMatching& matching,
                      const TransferFit& network) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& o : outcomes) {
    const RankSimulation& sim = *o.rank->simulation;
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : o.projection.steps)
      steps.push_back(
          {{"step", s.number},
           {"name", s.name},
           {"measured_ns", sim.measuredTimes ? nlohmann::json(s.measuredNs) : nlohmann::json()},
           {"simulated_ns", s.simulatedNs}});
    // A Chakra graph without start times measured nothing: null, not a made-up number.
    nlohmann::json rank = {
        {"rank", sim.rank},
        {"path", o.rank->path()},
        {"et", o.rank->linked() ? nlohmann::json(o.rank->etPath) : nlohmann::json()},
        {"measured_ns",
         sim.measuredTimes ? nlohmann::json(o.projection.measuredNs) : nlohmann::json()},
        {"simulated_ns", o.projection.simulatedNs},
        {"steps", steps},
        {"clock_offset_ns", o.clockOffset},
        {"what_holds",
         {{"critical_path_ns", o.holds.pathNs},
          {"host_ns", o.holds.hostNs},
          {"device_ns", o.holds.deviceNs},
          {"comm_wait_ns", o.holds.commWaitNs},
          {"comm_transfer_ns", o.holds.commTransferNs},
          {"launch_ns", o.holds.launchNs},
          {"held_gap_ns", o.holds.heldGapNs}}},
        {"graph",
         {{"nodes", sim.graph.nodes.size()},
          {"edges", sim.graph.edges.size()},
          {"device_ops", sim.graph.deviceOpCount()},
          {"blocking_calls", sim.graph.hostWaitsUsed},
          {"stream_waits", sim.graph.streamWaitsUsed}}}};
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
    const ProblemLog log = rankProblems(o);
    for (const auto& p : log.all())
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
            {"problems", collectiveProblems},
            {"network",
             {{"basis", network.basis},
              {"fitted", network.fitted},
              {"bandwidth_gbs", network.bandwidthGBps()},
              {"latency_ns_per_step", network.latencyNs},
              {"residual_rms_ns", network.residualRmsNs}}}}}};
}

// "net.yml (Ring 8 x 50 GB/s, 500 ns), system sys.json": which network costs what.
std::string describeNetwork(const NetworkModel& model) {
  static constexpr const char* kTopology[] = {"Ring", "FullyConnected", "Switch"};
  std::string dims;
  for (const auto& d : model.network().dims) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s%s %d x %g GB/s, %g ns", dims.empty() ? "" : "; ",
                  kTopology[static_cast<int>(d.topology)], d.npus, d.bandwidthGBps, d.latencyNs);
    dims += buf;
  }
  const std::string& system = model.system().path;
  return displayPath(model.network().path) + " (" + dims + "), system " +
         (system.empty() ? std::string("defaults (Ring_4chunks)") : displayPath(system));
}

// The what-if knobs of the command line (their ranges are core's: validateKnobs).
Result<SimKnobs> knobsFrom(const Args& args) {
  SimKnobs knobs;
  using Parse = Result<DurationScale> (*)(const std::string&);
  for (const auto& [option, parse, into] :
       {std::tuple<const char*, Parse, std::vector<DurationScale>*>{"--scale", &parseDurationScale,
                                                                    &knobs.scales},
        {"--scale-cpu", &parseHostScale, &knobs.hostScales}})
    for (const auto& text : args.values(option)) {
      auto scale = parse(text);
      if (!scale) return scale.error();
      into->push_back(*scale);
    }
  if (auto v = args.value("--launch-latency-us")) {
    auto us = parseNumber(*v);
    if (!us || *us < 0)
      return Error{"--launch-latency-us '" + *v + "': expected microseconds >= 0"};
    auto ns = launchLatencyFromMicros(*us);
    if (!ns) return Error{"--launch-latency-us '" + *v + "': " + ns.error().message};
    knobs.launchLatencyNs = *ns;
  }
  if (auto v = args.value("--launch-latency-scale")) {
    auto f = parseNumber(*v);
    if (!f || *f < 0) return Error{"--launch-latency-scale '" + *v + "': expected a number >= 0"};
    knobs.launchLatencyScale = *f;
  }
  if (auto v = args.value("--network-speed")) {
    auto f = parseNetworkSpeed(*v);
    if (!f) return f.error();
    knobs.networkSpeed = *f;
  }
  if (auto v = args.value("--cpu-speed")) {
    auto f = parseNumber(*v);
    if (!f || *f <= 0) return Error{"--cpu-speed '" + *v + "': expected a number > 0"};
    knobs.cpuSpeed = *f;
  }
  knobs.dropSyncs = args.flag("--no-sync");
  if (auto ok = validateKnobs(knobs); !ok) return ok.error();
  return knobs;
}

Result<SimulateOptions> simulateOptionsFrom(const Args& args) {
  SimulateOptions options;
  if (auto v = args.value("--step")) {
    char* end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || end != v->c_str() + v->size())
      return Error{"--step '" + *v + "': expected a step number"};
    options.onlyStep = n;
  }
  return options;
}

Result<ChakraSimOptions> chakraOptionsFrom(const Args& args) {
  ChakraSimOptions options;
  options.dependenciesOnly = args.flag("--graph-only");
  if (auto v = args.value("--comm-bandwidth-gbs")) {
    auto gbs = parseNumber(*v);
    // 1 MB/s to 1 PB/s: outside that a transfer time is nonsense (or overflows the clock).
    if (!gbs || *gbs < 1e-3 || *gbs > 1e6)
      return Error{"--comm-bandwidth-gbs '" + *v + "': expected GB/s between 0.001 and 1e6"};
    options.commBytesPerNs = *gbs;  // 1 GB/s = 1 byte per ns
  }
  const auto networkPath = args.value("--network");
  const auto systemPath = args.value("--system");
  if (systemPath && !networkPath) return Error{"--system goes with --network"};
  if (networkPath) {
    if (options.commBytesPerNs > 0)
      return Error{"give either --network or --comm-bandwidth-gbs, not both"};
    auto network = readNetworkConfig(*networkPath);
    if (!network) return network.error();
    SystemConfig system;
    if (systemPath) {
      auto read = readSystemConfig(*systemPath);
      if (!read) return read.error();
      system = std::move(*read);
    }
    options.network = std::make_shared<const NetworkModel>(std::move(*network), std::move(system));
  }
  return options;
}

// --kineto K [--et E]: one rank given by its files, each checked for its kind first.
Result<Run> openGivenPair(const Args& args, const std::string& kineto, const RunOptions& options) {
  if (!args.positional().empty())
    return Error{"give either --kineto or files and directories, not both"};
  auto kind = sniffTraceKind(kineto);
  if (!kind) return kind.error();
  if (*kind != FileKind::KinetoTrace)
    return Error{kineto + ": not a Kineto trace (" + std::string(fileKindName(*kind)) + ")"};
  RankFiles files;
  files.kineto = kineto;
  if (auto et = args.value("--et")) {
    auto etKind = sniffTraceKind(*et);
    if (!etKind) return etKind.error();
    if (*etKind != FileKind::PytorchEt && *etKind != FileKind::LinkedEt)
      return Error{*et + ": not a PyTorch execution trace (" + std::string(fileKindName(*etKind)) +
                   ")"};
    files.et = *et;
  }
  return openRankFiles({files}, options);
}

int runSimulate(int argc, char** argv) {
  std::string error;
  auto args =
      Args::parse(argc, argv,
                  {"--kineto", "--et", "--scale", "--launch-latency-us", "--launch-latency-scale",
                   "--cpu-speed", "--scale-cpu", "--network-speed", "--step", "-o",
                   "--comm-bandwidth-gbs", "--network", "--system", "--engine", "--timeout"},
                  {"--json", "--no-sync", "--graph-only", "-h", "--help"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli simulate: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  auto knobs = knobsFrom(*args);
  if (!knobs) return fail("simulate", knobs.error().message);
  auto simulateOptions = simulateOptionsFrom(*args);
  if (!simulateOptions) return fail("simulate", simulateOptions.error().message);
  auto chakraOptions = chakraOptionsFrom(*args);
  if (!chakraOptions) return fail("simulate", chakraOptions.error().message);
  if (auto engine = args->value("--engine"); engine && *engine != "sutra") {
    if (*engine == "astra-model") return runAstraModelEngine(*args);
    if (*engine != "astra-sim")
      return fail("simulate",
                  "--engine '" + *engine + "': expected sutra, astra-sim or astra-model");
    return runAstraSimEngine(*args, *chakraOptions);
  }
  if (args->value("--timeout")) return fail("simulate", "--timeout goes with --engine astra-sim");

  // Every rank with a Kineto trace (its ET linked where it has one), else its Chakra graph.
  RunOptions options;
  options.chakraGraphs = true;
  options.wholeTraceTable = false;  // the projection needs the steps, not the operator table
  options.chakra = *chakraOptions;
  Result<Run> run = Error{};
  if (auto kineto = args->value("--kineto")) {
    run = openGivenPair(*args, *kineto, options);
  } else {
    if (args->value("--et")) return fail("simulate", "--et goes with --kineto");
    if (args->positional().empty()) {
      std::fprintf(stderr, "sutra-cli simulate: no input\n%s", kHelp);
      return kExitBadInput;
    }
    run = openRun(args->positional(), options);
  }
  if (!run) return fail("simulate", run.error().message);
  // Every rank must have a place on the network its communication is costed on.
  if (const auto& network = options.chakra.network) {
    const std::int64_t npus = network->network().npusCount();
    for (const auto& rank : run->ranks)
      if (!rank->chakraPath.empty() && rank->rank >= npus)
        return fail("simulate", displayPath(network->network().path) + " has " +
                                    std::to_string(npus) + " NPUs, too few for rank " +
                                    std::to_string(rank->rank) + " (" + rank->path() + ")");
  }
  auto simulated = simulateRun(*run, *knobs, *simulateOptions);
  if (!simulated) return fail("simulate", simulated.error().message);
  const std::vector<RankOutcome>& outcomes = simulated->ranks;

  if (auto out = args->value("-o")) {
    std::vector<SimulatedRank> ranks;
    for (const auto& o : outcomes)
      ranks.push_back({o.rank->rank, &o.rank->simulation->graph, &o.run});
    if (auto ok = writeSimulatedTimeline(*out, ranks); !ok)
      return fail("simulate", ok.error().message);
  }
  if (args->flag("--json")) {
    std::printf("%s\n",
                jsonText(toJson(outcomes, simulated->matching, simulated->network)).c_str());
  } else {
    if (const auto& network = options.chakra.network)
      std::printf("communication with no duration costed on %s\n",
                  describeNetwork(*network).c_str());
    printHuman(outcomes, *knobs, simulated->matching, simulated->network);
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
