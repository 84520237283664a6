// SPDX-License-Identifier: MIT
#include "advice/optimizer_loop.h"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <string>

#include "advice/op_bytes.h"

namespace sutra {
namespace {

constexpr std::string_view kStepPrefix = "Optimizer.step#";

// Bytes the fused kernel moves per parameter byte: reads and writes of the parameter, its gradient
// and its states (Adam: read p, g, exp_avg, exp_avg_sq, write p, exp_avg, exp_avg_sq).
std::optional<int> fusedPasses(std::string_view optimizer) {
  if (optimizer == "Adam" || optimizer == "AdamW") return 7;
  if (optimizer == "SGD") return 5;  // with momentum: read p, g, buf; write p, buf
  if (optimizer == "Adagrad") return 5;
  return std::nullopt;
}

// "Optimizer.step#AdamW.step" -> "AdamW".
std::string optimizerOf(std::string_view name) {
  name.remove_prefix(kStepPrefix.size());
  return std::string(name.substr(0, name.find('.')));
}

// The parameters the step updates, in bytes: the first input of the op that writes each parameter
// in torch's single-tensor loops (Adam, AdamW, Adagrad: param.addcdiv_; SGD: param.add_, which
// momentum's buffer update also calls, so SGD with momentum counts its buffers too).
std::int64_t parameterBytes(const Trace& trace, const std::vector<EventId>& ops,
                            std::string_view optimizer) {
  const std::string_view writer = optimizer == "SGD" ? "aten::add_" : "aten::addcdiv_";
  std::int64_t total = 0;
  for (EventId op : ops) {
    if (trace.name(trace.events[op]) != writer) continue;
    const auto shapes = inputShapes(trace, op);
    if (!shapes.empty()) total += shapes.front().bytes();
  }
  return total;
}

// The median rate (bytes moved per ns) of the rank's elementwise ops that move 64 KiB or more
// (views and copies aside): what memory gives one pass over a tensor on this machine, where the
// dispatch of small ops does not hold it.
double elementwiseRate(const AdviceScope& scope) {
  static const std::regex elementwise(
      "^aten::(add|sub|mul|div|relu|threshold|clamp|sqrt|rsqrt|exp|lerp|addcmul|addcdiv|"
      "maximum|minimum|neg|abs|tanh|sigmoid|gelu|silu)_?$");
  std::vector<double> rates;
  const Trace& trace = scope.trace;
  std::vector<std::int8_t> isElementwise(trace.names.size(), -1);  // by interned name, matched once
  for (EventId id = 0; id < trace.events.size(); ++id) {
    const Event& e = trace.events[id];
    if (e.klass != CategoryClass::CpuOp || e.dur <= 0) continue;
    std::int8_t& known = isElementwise[e.name];
    if (known < 0) {
      const std::string_view name = trace.name(e);
      known = std::regex_search(name.begin(), name.end(), elementwise) ? 1 : 0;
    }
    if (!known) continue;
    const OpBytes bytes = opBytes(trace, id);
    if (bytes.moved() < (64 << 10)) continue;
    rates.push_back(static_cast<double>(bytes.moved()) / static_cast<double>(e.dur));
  }
  if (rates.empty()) return 0;
  std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
  return rates[rates.size() / 2];
}

}  // namespace

std::vector<Finding> findOptimizerLoops(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (scope.hasDeviceOps()) return {};  // the host's loop; a device's kernels: not modelled yet
  struct Loop {
    std::vector<EventId> steps;  // the Optimizer.step annotations
    std::vector<EventId> ops;    // their ops, every step
    std::size_t opsPerStep = 0;
    bool foreach = false;
    TimeNs total = 0;
    std::int64_t bytes = 0;  // per step
    TimeNs cheapestOp = -1;
  };
  std::map<std::string, Loop> byOptimizer;
  for (LaneId lane = 0; lane < trace.lanes.size(); ++lane) {
    if (trace.lanes[lane].kind != LaneKind::HostThread) continue;
    for (EventId id = trace.lanes[lane].firstEvent; id < trace.lanes[lane].endEvent; ++id) {
      const Event& e = trace.events[id];
      if (e.klass != CategoryClass::UserAnnotation || !trace.name(e).starts_with(kStepPrefix) ||
          !stepAt(scope.steps, e.start))
        continue;
      const auto ops = outermostOps(trace, lane, e.start, e.end());
      bool fused = false, foreach = false;
      for (EventId op : ops) {
        const std::string_view name = trace.name(trace.events[op]);
        fused |= name.find("_fused_") != std::string_view::npos;
        foreach
          |= name.find("_foreach_") != std::string_view::npos;
      }
      if (fused || ops.size() < 4) continue;
      Loop& loop = byOptimizer[optimizerOf(trace.name(e))];
      loop.steps.push_back(id);
      loop.ops.insert(loop.ops.end(), ops.begin(), ops.end());
      loop.opsPerStep = std::max(loop.opsPerStep, ops.size());
      loop.foreach |= foreach;
      loop.total += e.dur;
      loop.bytes = std::max(loop.bytes, parameterBytes(trace, ops, optimizerOf(trace.name(e))));
      for (EventId op : ops)
        if (trace.events[op].dur > 0 &&
            (loop.cheapestOp < 0 || trace.events[op].dur < loop.cheapestOp))
          loop.cheapestOp = trace.events[op].dur;
    }
  }
  std::vector<Finding> findings;
  const double rate = elementwiseRate(scope);
  for (auto& [optimizer, loop] : byOptimizer) {
    const auto passes = fusedPasses(optimizer);
    if (!passes) continue;
    Finding f = scope.newFinding(FindingKind::OptimizerLoop);
    f.occurrences = loop.steps.size();
    f.steps = loop.steps.size();
    f.measuredNs = scope.perStep(loop.total);
    f.evidence = loop.steps;
    f.evidence.insert(f.evidence.end(), loop.ops.begin(), loop.ops.end());
    f.title = "use " + optimizer + "(fused=True): its step runs " +
              std::to_string(loop.opsPerStep) + " ops " +
              (loop.foreach ? "over lists (foreach)" : "parameter by parameter (foreach=False)") +
              ", " + formatDuration(f.measuredNs) + " per step";
    f.explanation =
        "torch.optim." + optimizer +
        " with fused=True updates every parameter in one kernel: one pass over the parameters, "
        "their gradients and states instead of one op (and its dispatch) per parameter and "
        "update term. The step's " +
        std::to_string(loop.opsPerStep) + " ops move " + formatBytes(loop.bytes) +
        " of parameters.";
    if (rate <= 0 || loop.bytes <= 0) {
      f.price.notPriced = rate <= 0 ? "no elementwise op of 64 KiB or more gives a memory rate"
                                    : "the optimizer's ops carry no shapes (record_shapes)";
      f.price.model = "fused step = one pass over the parameters and states";
      findings.push_back(std::move(f));
      continue;
    }
    const auto fusedNs = std::max<TimeNs>(
        loop.cheapestOp, static_cast<TimeNs>(static_cast<double>(*passes * loop.bytes) / rate));
    char model[256];
    std::snprintf(model, sizeof model,
                  "fused step = %d x the parameters' bytes (%s) at %.2f GB/s (the median rate of "
                  "the rank's elementwise ops), %s, in place of the step's ops",
                  *passes, formatBytes(loop.bytes).c_str(), rate, formatDuration(fusedNs).c_str());
    f.price.model = model;
    // The step's host time, less one fused pass, is what the fix removes (as --scale-cpu would).
    for (EventId id : loop.steps) {
      const Event& e = trace.events[id];
      f.fix.hostCuts.push_back(
          {scope.rankIndex, e.lane, e.start, e.end(), std::max<TimeNs>(0, e.dur - fusedNs)});
    }
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
