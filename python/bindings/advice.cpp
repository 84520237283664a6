// SPDX-License-Identifier: MIT
// run.advise(): the findings of core/advice, each with its evidence and price, as the JSON document
// sutra-cli advise --json prints; found and priced on a worker thread so that Ctrl-C cancels it.
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "advice/advice_json.h"
#include "run_handle.h"

namespace sutra::python {
namespace {

std::string advise(const RunHandle& h, std::size_t maxFusionCandidates, bool price,
                   nb::object progress) {
  std::optional<Result<Advice>> advised;
  runCancellable(
      [&](const CancelToken& cancel, const ProgressSink&) {
        AdviceOptions options;
        options.maxFusionCandidates = maxFusionCandidates;
        options.price = price;
        advised.emplace(adviseRun(h.run, options, cancel));
      },
      progress);
  return adviceJson(h.run, valueOr(std::move(*advised))).dump();
}

}  // namespace

void bindAdvice(nb::module_& m) {
  m.def("advise_json", &advise, nb::arg("handle"), nb::arg("max_fusion_candidates"),
        nb::arg("price"), nb::arg("progress").none(),
        "The advice on a simulated run, as sutra-cli advise --json's document.");
}

}  // namespace sutra::python
