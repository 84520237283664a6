// SPDX-License-Identifier: MIT
// sutra-cli chain: the dependency chain of one event (op -> launch -> device op -> sync -> resume).
#include <cstdio>
#include <iostream>

#include "analysis/chain.h"
#include "analysis_input.h"
#include "command.h"
#include "link/linked_trace.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli chain TRACE (--event ID | --name NAME [--nth K]) [--et ET] [--json]\n"
    "The dependency chain of one event of a Kineto trace: the annotations, Python frames and\n"
    "framework op above it, the runtime launch, the device op(s), the call that synchronized on\n"
    "them and the op that resumed after it, with each hop's time and the gaps between hops\n"
    "(dispatch-to-launch, launch-to-start queueing, sync wait, resume).\n\n"
    "  --event ID     the event's id (its index, as `--json` output of other commands gives it)\n"
    "  --name NAME    the event with this exact name ...\n"
    "  --nth K        ... its K-th occurrence in time order (default 0, the first)\n"
    "  --max-launches N   launches listed below a framework op (default 32)\n"
    "  --et ET        the execution trace recorded with TRACE: adds the producers of the op's\n"
    "                 input tensors and the consumers of its outputs (ET data dependencies)\n"
    "  --json         {\"focus\",\"hops\":[{\"index\",\"kind\",\"name\",\"event\",\"category\",\n"
    "                 \"start_ns\",\"end_ns\",\"dur_ns\",\"previous\",\"gap_kind\",\"gap_ns\",\n"
    "                 \"focus\"}],\"omitted_launches\"}\n";

int runChain(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--event", "--name", "--nth", "--max-launches", "--et"},
                          {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli chain: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("chain", "give exactly one trace file (see --help)");
  const auto eventText = args->value("--event");
  const auto name = args->value("--name");
  if (eventText.has_value() == name.has_value())
    return fail("chain", "give either --event ID or --name NAME");
  std::int64_t nth = 0;
  if (auto v = args->value("--nth")) {
    auto n = parseInteger(*v, "--nth");
    if (!n.ok()) return fail("chain", n.error().message);
    if (*n < 0) return fail("chain", "--nth: must not be negative");
    nth = *n;
  }
  ChainOptions options;
  if (auto v = args->value("--max-launches")) {
    auto n = parseInteger(*v, "--max-launches");
    if (!n.ok()) return fail("chain", n.error().message);
    if (*n < 0) return fail("chain", "--max-launches: must not be negative");
    options.maxLaunches = static_cast<std::size_t>(*n);
  }
  const std::string& path = args->positional()[0];
  auto input = loadAnalysisInput(
      path, {.etPath = args->value("--et").value_or(""), .wholeTraceTable = false, .syncs = true});
  if (!input.ok()) return fail("chain", input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  EventId focus = kNoEvent;
  if (eventText) {
    auto id = parseInteger(*eventText, "--event");
    if (!id.ok()) return fail("chain", id.error().message);
    if (*id < 0 || static_cast<std::uint64_t>(*id) >= trace.events.size())
      return fail("chain", path + ": no event " + *eventText + " (the trace has " +
                               std::to_string(trace.events.size()) + " events)");
    focus = static_cast<EventId>(*id);
  } else {
    focus = findEventByName(trace, *name, static_cast<std::size_t>(nth));
    if (focus == kNoEvent)
      return fail("chain",
                  path + ": no event named '" + *name + "'" +
                      (nth > 0 ? " with occurrence " + std::to_string(nth) : std::string()));
  }
  const DependencyChain chain = dependencyChain(trace, *loaded.launches(), *loaded.syncs(), focus,
                                                loaded.linked().get(), options);
  if (args->flag("--json"))
    std::cout << jsonText(chainJson(trace, chain), 2) << "\n";
  else
    std::cout << chainText(trace, chain);
  return kExitOk;
}

RegisterCommand reg{
    {"chain", "dependency chain of an event: op -> launch -> device op -> sync", 42, &runChain}};

}  // namespace
}  // namespace sutra::cli
