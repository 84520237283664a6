// SPDX-License-Identifier: MIT
// sutra-cli breakdown: where each step's time went on the device and on the host (TensorBoard's
// step time breakdown, HTA's temporal breakdown).
#include <cstdio>
#include <iostream>

#include "analysis/breakdown.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli breakdown TRACE [--step N] [--idle-hint PERCENT] [--json]\n"
    "Where each step of a Kineto trace spent its time: on each device kernel, memcpy, memset,\n"
    "communication and idle time (overlaps counted once, in that order of priority); on the\n"
    "thread that ran the step runtime calls, dataloader, CPU ops and other. With measured hints:\n"
    "a device idle for much of a step and what the host was doing meanwhile.\n\n"
    "  --step N             only step N (default: every step)\n"
    "  --idle-hint PERCENT  hint where a device is idle at least this share of a step (default "
    "10)\n"
    "  --json               "
    "{\"device_backend\",\"steps\":[{\"step\",\"name\",\"start_ns\",\"end_ns\",\n"
    "                       "
    "\"device_end_ns\",\"host\":{\"thread\",\"runtime_ns\",\"dataloader_ns\",\n"
    "                       \"cpu_ops_ns\",\"other_ns\"},\"devices\":[{\"device\",\"kernel_ns\",\n"
    "                       \"memcpy_ns\",\"memset_ns\",\"communication_ns\",\"idle_ns\"}],\n"
    "                       \"hints\":[...]}]}\n";

int runBreakdown(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--idle-hint"}, {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli breakdown: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("breakdown", "give exactly one trace file (see --help)");
  std::optional<std::int64_t> stepNumber;
  if (auto v = args->value("--step")) {
    auto n = parseInteger(*v, "--step");
    if (!n.ok()) return fail("breakdown", n.error().message);
    stepNumber = *n;
  }
  BreakdownOptions options;
  if (auto v = args->value("--idle-hint")) {
    auto n = parseInteger(*v, "--idle-hint");
    if (!n.ok()) return fail("breakdown", n.error().message);
    if (*n < 0 || *n > 100) return fail("breakdown", "--idle-hint: a percentage from 0 to 100");
    options.idleHintPercent = double(*n);
  }
  auto input = loadAnalysisInput(args->positional()[0],
                                 {.etPath = {}, .wholeTraceTable = false, .syncs = false});
  if (!input.ok()) return fail("breakdown", input.error().message);
  const Trace& trace = *input->trace;
  std::vector<Step> steps = input->steps;
  if (stepNumber) {
    const Step* step = findStep(steps, *stepNumber);
    if (!step) {
      auto window = resolveWindow(trace, steps, WindowSpec{.step = stepNumber});
      return fail("breakdown", window.ok() ? "no such step" : window.error().message);
    }
    steps = {*step};
  }
  const Breakdown breakdown = buildBreakdown(trace, steps, options);
  if (args->flag("--json"))
    std::cout << jsonText(breakdownJson(trace, breakdown), 2) << "\n";
  else
    std::cout << breakdownText(trace, breakdown);
  return kExitOk;
}

RegisterCommand reg{{"breakdown",
                     "per step: kernel, memcpy, communication, idle; runtime, dataloader, CPU", 44,
                     &runBreakdown}};

}  // namespace
}  // namespace sutra::cli
