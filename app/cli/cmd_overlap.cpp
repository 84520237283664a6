// SPDX-License-Identifier: MIT
// sutra-cli overlap: how a trace's device time splits by kernel type, overlaps included (HTA's
// temporal breakdown, kernel type breakdown and communication/computation overlap).
#include <cstdio>
#include <iostream>

#include "analysis/device_time.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli overlap TRACE [--step N | --start-ns T --end-ns T] [--json]\n"
    "How the device time of a Kineto trace splits by kernel type, as Holistic Trace Analysis\n"
    "computes it: from the first device op's start to the last one's end, the time computation\n"
    "kernels run, the time only other ops (memory, communication) run, and idle time; the time\n"
    "each set of kernel types (computation, communication, memory) runs together; and the share\n"
    "of communication that computation overlaps. All devices and streams together.\n\n"
    "  --step N       the device ops launched in step N (default: the whole trace)\n"
    "  --start-ns T   or launched in a time range, from T ...\n"
    "  --end-ns T     ... up to T (trace time, ns)\n"
    "  --json         "
    "{\"window\",\"ops\",\"first_ns\",\"last_ns\",\"span_ns\",\"busy_ns\",\"idle_ns\",\n"
    "                 "
    "\"computation_ns\",\"non_computation_ns\",\"communication_ns\",\"memory_ns\",\n"
    "                 \"computation_with_communication_ns\",\"overlap_ratio\",\n"
    "                 \"kernel_types\":[{\"types\",\"time_ns\"}]}\n";

int runOverlap(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--start-ns", "--end-ns"},
                          {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli overlap: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("overlap", "give exactly one trace file (see --help)");
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail("overlap", spec.error().message);
  auto input = loadAnalysisInput(
      args->positional()[0],
      {.etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = false});
  if (!input.ok()) return fail("overlap", input.error().message);
  const RankRun& loaded = **input;
  auto window = resolveWindow(*loaded.trace, loaded.steps(), *spec);
  if (!window.ok()) return fail("overlap", window.error().message);
  const DeviceTime time = deviceTime(*loaded.trace, *loaded.launches(), *window);
  const std::string label = describeWindow(loaded.steps(), *spec);
  if (args->flag("--json")) {
    nlohmann::json doc = {{"window", label}};
    doc.update(deviceTimeJson(time));
    std::cout << jsonText(doc, 2) << "\n";
  } else {
    std::cout << "Device ops launched in " << label << ".\n" << deviceTimeText(time);
  }
  return kExitOk;
}

RegisterCommand reg{{"overlap",
                     "device time by kernel type: computation, communication, memory, overlap", 47,
                     &runOverlap}};

}  // namespace
}  // namespace sutra::cli
