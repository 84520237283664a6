// SPDX-License-Identifier: MIT
// sutra-bench-link: link time and peak memory for one ET + Kineto pair (default: the param linear
// pair in ../shared/traces). Reading is timed apart from linking; linking is repeated and the
// median reported, since the readers dominate a cold run. --scale N links the ET against N copies
// of the Kineto trace back to back (48 copies of the linear pair are about 1 GB of Kineto JSON):
// the alignment then searches N times as many iterations.
//   sutra-bench-link [ET KINETO] [--repeat N] [--scale N]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/readers.h"
#include "link/et_plus_writer.h"
#include "link/linked_trace.h"
#include "replicate_trace.h"

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

long peakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  std::string et = std::string(SUTRA_SHARED_TRACES) + "/param/linear_et.json.gz";
  std::string kineto = std::string(SUTRA_SHARED_TRACES) + "/param/linear_kineto.json.gz";
  int repeat = 20, scale = 1;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
      scale = std::max(1, std::atoi(argv[++i]));
    else
      positional.emplace_back(argv[i]);
  }
  if (positional.size() == 2) et = positional[0], kineto = positional[1];

  auto t0 = std::chrono::steady_clock::now();
  auto etTrace = sutra::readPytorchEt(et);
  if (!etTrace) return std::fprintf(stderr, "%s\n", etTrace.error().message.c_str()), 2;
  const double readEt = secondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  auto kinetoTrace = sutra::readKinetoTrace(kineto);
  if (!kinetoTrace) return std::fprintf(stderr, "%s\n", kinetoTrace.error().message.c_str()), 2;
  const double readKineto = secondsSince(t0);
  const long rssAfterRead = peakRssKiB();
  auto etShared = std::make_shared<const sutra::EtTrace>(std::move(etTrace).value());
  std::shared_ptr<const sutra::Trace> kinetoShared;
  if (scale > 1)
    kinetoShared =
        std::make_shared<const sutra::Trace>(sutra::bench::replicateTrace(*kinetoTrace, scale));
  else
    kinetoShared = std::make_shared<const sutra::Trace>(std::move(kinetoTrace).value());

  std::vector<double> times;
  std::size_t matched = 0, devices = 0, bytes = 0;
  for (int i = 0; i < repeat; ++i) {
    t0 = std::chrono::steady_clock::now();
    auto linked = sutra::linkTraces(etShared, kinetoShared);
    times.push_back(secondsSince(t0));
    if (!linked) return std::fprintf(stderr, "%s\n", linked.error().message.c_str()), 2;
    matched = linked->report.matchedEtOps;
    devices = linked->report.linkedDeviceOps;
    if (i == 0) {
      t0 = std::chrono::steady_clock::now();
      auto json = sutra::etPlusJson(*linked);
      if (!json) return std::fprintf(stderr, "%s\n", json.error().message.c_str()), 2;
      bytes = json->size();
      std::printf("ET+ JSON: %zu bytes in %.1f ms\n", bytes, 1e3 * secondsSince(t0));
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("pair: %s + %s x%d (%zu events)\n", et.c_str(), kineto.c_str(), scale,
              kinetoShared->events.size());
  std::printf("read: ET %.1f ms, Kineto %.1f ms\n", 1e3 * readEt, 1e3 * readKineto);
  std::printf(
      "link: median %.2f ms, min %.2f ms over %d runs (%zu ET ops matched, %zu device ops)\n",
      1e3 * times[times.size() / 2], 1e3 * times.front(), repeat, matched, devices);
  std::printf("peak RSS: %.1f MiB after reading, %.1f MiB after linking\n", rssAfterRead / 1024.0,
              peakRssKiB() / 1024.0);
  return 0;
}
