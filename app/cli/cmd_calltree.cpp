// SPDX-License-Identifier: MIT
// sutra-cli calltree: the top-down or bottom-up call tree of each host thread.
#include <cstdio>
#include <iostream>

#include "analysis/call_tree.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli calltree TRACE [--step N | --start-ns T --end-ns T] [--bottom-up]\n"
    "                          [--depth N] [--json]\n"
    "The call tree of each host thread of a Kineto trace, as Nsight Systems and TensorBoard show\n"
    "it: ops, annotations, Python frames (traces recorded with_stack) and runtime calls, with\n"
    "calls, self and total CPU time and self and total device time (what their launches ran).\n\n"
    "  --step N       only calls starting in step N (default: the whole trace)\n"
    "  --start-ns T   or a time range, from T ...\n"
    "  --end-ns T     ... up to T (trace time, ns)\n"
    "  --bottom-up    each function at the root with its self time, its callers below\n"
    "  --depth N      at most N levels (default: all)\n"
    "  --json         "
    "{\"window\":{\"start_ns\",\"end_ns\"},\"bottom_up\",\"threads\":[{\"thread\",\n"
    "                 \"cpu_total_ns\",\"device_total_ns\",\"nodes\":[{\"name\",\"calls\",\n"
    "                 \"self_cpu_ns\",\"total_cpu_ns\",\"self_device_ns\",\"total_device_ns\",\n"
    "                 \"children\":[...]}]}]}\n";

int runCallTree(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--start-ns", "--end-ns", "--depth"},
                          {"--bottom-up", "--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli calltree: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("calltree", "give exactly one trace file (see --help)");
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail("calltree", spec.error().message);
  std::size_t depth = 0;
  if (auto v = args->value("--depth")) {
    auto n = parseInteger(*v, "--depth");
    if (!n.ok()) return fail("calltree", n.error().message);
    if (*n < 1) return fail("calltree", "--depth: at least 1");
    depth = static_cast<std::size_t>(*n);
  }
  // Names and times: no args text.
  auto input = loadAnalysisInput(
      args->positional()[0],
      {.etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = false});
  if (!input.ok()) return fail("calltree", input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  auto window = resolveWindow(trace, loaded.steps(), *spec);
  if (!window.ok()) return fail("calltree", window.error().message);
  const CallTree tree =
      buildCallTree(trace, *loaded.launches(), {*window, args->flag("--bottom-up")});
  if (args->flag("--json"))
    std::cout << jsonText(callTreeJson(trace, tree, depth), 2) << "\n";
  else
    std::cout << callTreeText(trace, tree, depth);
  return kExitOk;
}

RegisterCommand reg{
    {"calltree", "call tree of each host thread (top-down or --bottom-up)", 45, &runCallTree}};

}  // namespace
}  // namespace sutra::cli
