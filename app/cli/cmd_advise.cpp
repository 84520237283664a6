// SPDX-License-Identifier: MIT
// sutra-cli advise: the problems found in a run, each with its evidence, its explanation and its
// price: the step time the simulator projects with the fix applied as a what-if.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "advice/advice_json.h"
#include "advice/advise.h"
#include "analysis_input.h"
#include "cli_args.h"
#include "command.h"
#include "session/run.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli advise RUN... [--top N] [--no-price] [--json]\n"
    "The problems in a run (a folder of ranks, or trace files), each with the events that show\n"
    "it, why it costs time and a price: the step time the simulator projects with the fix\n"
    "applied as a what-if, as \"saves ~X ms per step (Y %)\", and the model behind it.\n"
    "Findings: fusion candidates (short ops or kernels repeated every step on tensors of one\n"
    "shape), host-bound steps (the device idle while the host launches), blocking syncs in a\n"
    "step, pageable or small copies and memsets, the data loader's wait, CPU operator overhead\n"
    "(dispatch around tiny kernels), runtime set-up (cudaMalloc, the context's creation),\n"
    "exposed communication, and stragglers (priced by shortening the work that made them late).\n\n"
    "  --top N      at most N fusion candidates per rank (default 10)\n"
    "  --no-price   the findings without simulating their fixes\n"
    "  --json       {\"step_ns\",\"findings\":[{\"kind\",\"rank\",\"title\",\"explanation\",\n"
    "               \"occurrences\",\"steps\",\"measured_ns\",\"evidence\":[{\"event\",\"name\",\n"
    "               \"start_ns\",\"dur_ns\"}],\"price\":{\"priced\",\"model\",\"not_priced\",\n"
    "               \"step_ns\",\"projected_step_ns\",\"saving_ns\",\"saving_fraction\",\n"
    "               \"other_bound_step_ns\"}}]}\n";

void printFinding(const Run& run, const Finding& f, std::size_t index) {
  const Trace& trace = *run.ranks[f.rankIndex]->trace;
  std::cout << index << ". [" << findingKindName(f.kind) << "] ";
  if (run.ranks.size() > 1) std::cout << "rank " << f.rank << ": ";
  std::cout << f.title << "\n   " << describePrice(f.price) << "\n   why: " << f.explanation
            << "\n   model: " << f.price.model << "\n   evidence: " << f.evidence.size()
            << " events, e.g.";
  for (std::size_t i = 0; i < f.evidence.size() && i < 3; ++i) {
    const Event& e = trace.events[f.evidence[i]];
    std::cout << (i ? ";" : "") << " " << trace.name(e) << " at "
              << formatDuration(e.start - trace.startNs) << " (" << formatDuration(e.dur) << ")";
  }
  std::cout << "\n";
}

int runAdvise(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--top"}, {"--json", "--no-price", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli advise: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().empty()) return fail("advise", "give a run: a folder or trace files");
  AdviceOptions options;
  options.price = !args->flag("--no-price");
  if (auto v = args->value("--top")) {
    auto n = parseInteger(*v, "--top");
    if (!n.ok()) return fail("advise", n.error().message);
    if (*n < 0) return fail("advise", "--top: a count, 0 or more");
    options.maxFusionCandidates = static_cast<std::size_t>(*n);
  }
  auto run = openRun(args->positional());
  if (!run) return fail("advise", run.error().message);
  auto advice = adviseRun(*run, options);
  if (!advice) return fail("advise", advice.error().message);
  if (args->flag("--json")) {
    std::cout << jsonText(adviceJson(*run, *advice), 2) << "\n";
    return kExitOk;
  }
  if (advice->findings.empty()) {
    std::cout << "No findings: nothing the advice looks for happens in this run.\n";
    return kExitOk;
  }
  if (advice->stepNs > 0)
    std::cout << "Mean step, as the simulator replays it: " << formatDuration(advice->stepNs)
              << "\n\n";
  for (std::size_t i = 0; i < advice->findings.size(); ++i)
    printFinding(*run, advice->findings[i], i + 1);
  return kExitOk;
}

RegisterCommand reg{{"advise", "problems in a run, each with its evidence and its simulated price",
                     52, &runAdvise}};

}  // namespace
}  // namespace sutra::cli
