// SPDX-License-Identifier: MIT
#include "analysis/rank_summary.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "chakra/collective.h"
#include "link/launch_index.h"
#include "model/trace.h"

namespace sutra {
namespace {

using Interval = std::pair<TimeNs, TimeNs>;  // [start, end)

// Sorted, disjoint intervals covering the same time as `spans`.
std::vector<Interval> unionOf(std::vector<Interval> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Interval> out;
  for (const auto& s : spans) {
    if (s.second <= s.first) continue;
    if (!out.empty() && s.first <= out.back().second)
      out.back().second = std::max(out.back().second, s.second);
    else
      out.push_back(s);
  }
  return out;
}

// Time of the disjoint sorted `set` inside [from, to).
TimeNs coveredIn(const std::vector<Interval>& set, TimeNs from, TimeNs to) {
  auto it = std::lower_bound(set.begin(), set.end(), from,
                             [](const Interval& i, TimeNs t) { return i.second <= t; });
  TimeNs total = 0;
  for (; it != set.end() && it->first < to; ++it)
    total += std::min(it->second, to) - std::max(it->first, from);
  return total;
}

TimeNs meanOf(const std::vector<StepSummary>& steps, TimeNs StepSummary::*field) {
  if (steps.empty()) return 0;
  TimeNs sum = 0;
  for (const auto& s : steps) sum += s.*field;
  return sum / static_cast<TimeNs>(steps.size());
}

constexpr const char* kFormatKey = "sutra_rank_summaries";
constexpr int kFormatVersion = 1;

const char* stepSourceId(StepSource s) {
  switch (s) {
    case StepSource::ProfilerStep:
      return "profiler_step";
    case StepSource::RepeatingAnnotation:
      return "repeating_annotation";
    case StepSource::WholeTrace:
      return "whole_trace";
  }
  return "whole_trace";
}

}  // namespace

TimeNs RankSummary::meanStep() const { return meanOf(steps, &StepSummary::duration); }
TimeNs RankSummary::meanCompute() const { return meanOf(steps, &StepSummary::compute); }
TimeNs RankSummary::meanExposedComm() const { return meanOf(steps, &StepSummary::exposedComm); }
TimeNs RankSummary::meanIdle() const { return meanOf(steps, &StepSummary::idle); }

RankComms RankSummary::commOps() const {
  RankComms out;
  out.rank = rank;
  out.ops.reserve(comms.size());
  for (std::uint32_t i = 0; i < comms.size(); ++i) {
    RankCommOp op;
    op.node = i;
    op.processGroup = commKeys[comms[i].key].processGroup;
    op.collective = commKeys[comms[i].key].collective;
    op.seq = comms[i].seq;
    out.ops.push_back(std::move(op));
  }
  return out;
}

RankSummary summarizeRank(const Trace& trace, const LaunchIndex& launches,
                          std::span<const Step> steps) {
  RankSummary out;
  if (!steps.empty()) out.stepSource = steps.front().source;

  const auto commKernels = kinetoCommKernels(trace, launches);
  std::vector<char> isComm(trace.events.size(), 0);
  for (const auto& k : commKernels) isComm[k.kernel] = 1;
  std::vector<Interval> compute, busy;
  for (const auto& lane : trace.lanes) {
    if (lane.kind != LaneKind::DeviceStream) continue;
    for (EventId e = lane.firstEvent; e < lane.endEvent; ++e) {
      const Event& ev = trace.events[e];
      if (!isDeviceOp(ev.klass)) continue;
      busy.push_back({ev.start, ev.end()});
      // A communication kernel no launch names is still communication.
      if (!isComm[e] && !chakra::isCommKernelName(trace.name(ev)))
        compute.push_back({ev.start, ev.end()});
    }
  }
  compute = unionOf(std::move(compute));
  busy = unionOf(std::move(busy));

  out.steps.reserve(steps.size());
  for (const auto& s : steps) {
    StepSummary st;
    st.number = s.number;
    st.start = s.start;
    st.duration = s.duration();
    const TimeNs end = s.start + st.duration;
    st.compute = coveredIn(compute, s.start, end);
    const TimeNs busyTime = coveredIn(busy, s.start, end);
    st.exposedComm = busyTime - st.compute;
    st.idle = st.duration - busyTime;
    out.steps.push_back(st);
  }

  std::map<std::pair<std::string, std::string>, std::uint32_t> keyIndex;
  out.comms.reserve(commKernels.size());
  for (const auto& k : commKernels) {
    auto [it, added] = keyIndex.try_emplace({k.op.processGroup, k.op.collective},
                                            static_cast<std::uint32_t>(out.commKeys.size()));
    if (added) out.commKeys.push_back({k.op.processGroup, k.op.collective});
    const Event& ev = trace.events[k.kernel];
    CommArrival a;
    a.key = it->second;
    a.seq = k.op.seq;
    a.arrival = ev.start;
    a.end = ev.end();
    // The step whose window holds the kernel's start (steps are sorted by start).
    auto after = std::upper_bound(out.steps.begin(), out.steps.end(), ev.start,
                                  [](TimeNs t, const StepSummary& st) { return t < st.start; });
    if (after != out.steps.begin()) {
      const auto& st = *(after - 1);
      if (ev.start < st.start + st.duration)
        a.step = static_cast<std::int32_t>(after - 1 - out.steps.begin());
    }
    out.comms.push_back(a);
  }
  return out;
}

// Ordered: "sutra_rank_summaries" first, so a file is told by its first bytes.
std::string rankSummariesToJson(std::span<const RankSummary> summaries) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const auto& r : summaries) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const auto& s : r.steps)
      steps.push_back({s.number, s.start, s.duration, s.compute, s.exposedComm, s.idle});
    nlohmann::ordered_json keys = nlohmann::ordered_json::array();
    for (const auto& k : r.commKeys) keys.push_back({k.processGroup, k.collective});
    nlohmann::ordered_json comms = nlohmann::ordered_json::array();
    for (const auto& c : r.comms)
      comms.push_back({c.key,
                       c.seq ? nlohmann::ordered_json(*c.seq) : nlohmann::ordered_json(nullptr),
                       c.step, c.arrival, c.end});
    ranks.push_back({{"rank", r.rank},
                     {"path", r.path},
                     {"file_bytes", r.fileBytes},
                     {"file_mtime_ns", r.fileMtimeNs},
                     {"step_source", stepSourceId(r.stepSource)},
                     {"steps", std::move(steps)},
                     {"comm_keys", std::move(keys)},
                     {"comms", std::move(comms)}});
  }
  nlohmann::ordered_json doc = {
      {kFormatKey, kFormatVersion},
      {"columns",
       {{"steps",
         {"number", "start_ns", "duration_ns", "compute_ns", "exposed_comm_ns", "idle_ns"}},
        {"comm_keys", {"process_group", "collective"}},
        {"comms", {"key", "seq", "step", "arrival_ns", "end_ns"}}}},
      {"ranks", std::move(ranks)}};
  return doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool looksLikeRankSummaries(std::string_view head) {
  const auto brace = head.find_first_not_of(" \t\r\n");
  if (brace == std::string_view::npos || head[brace] != '{') return false;
  const auto quote = head.find_first_not_of(" \t\r\n", brace + 1);
  return quote != std::string_view::npos &&
         head.substr(quote).starts_with(std::string("\"") + kFormatKey + "\"");
}

Result<std::vector<RankSummary>> rankSummariesFromJson(std::string_view json,
                                                       const std::string& source) {
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  auto bad = [&](const std::string& what) {
    return Error{source + ": not a rank summary file Sutra can read: " + what};
  };
  if (doc.is_discarded()) return bad("malformed JSON");
  if (!doc.is_object() || !doc.contains(kFormatKey)) return bad("no \"sutra_rank_summaries\"");
  if (doc[kFormatKey] != kFormatVersion)
    return bad("version " + doc[kFormatKey].dump() + " (this Sutra reads version 1)");
  if (!doc.contains("ranks") || !doc["ranks"].is_array()) return bad("no \"ranks\" array");
  std::vector<RankSummary> out;
  const auto isInt = [](const nlohmann::json& v) { return v.is_number_integer(); };
  for (std::size_t i = 0; i < doc["ranks"].size(); ++i) {
    const auto& r = doc["ranks"][i];
    const std::string where = "ranks[" + std::to_string(i) + "]";
    if (!r.is_object()) return bad(where + " is not an object");
    for (const char* f : {"rank", "file_bytes", "file_mtime_ns"})
      if (!r.contains(f) || !isInt(r[f])) return bad(where + "." + f + " is not an integer");
    for (const char* f : {"steps", "comm_keys", "comms"})
      if (!r.contains(f) || !r[f].is_array()) return bad(where + "." + f + " is not an array");
    RankSummary s;
    s.rank = r["rank"].get<int>();
    if (r.contains("path") && r["path"].is_string()) s.path = r["path"].get<std::string>();
    s.fileBytes = r["file_bytes"].get<std::uint64_t>();
    s.fileMtimeNs = r["file_mtime_ns"].get<std::int64_t>();
    const std::string source_ = r.value("step_source", std::string());
    s.stepSource = source_ == "profiler_step"          ? StepSource::ProfilerStep
                   : source_ == "repeating_annotation" ? StepSource::RepeatingAnnotation
                                                       : StepSource::WholeTrace;
    for (std::size_t j = 0; j < r["steps"].size(); ++j) {
      const auto& v = r["steps"][j];
      if (!v.is_array() || v.size() != 6 || !std::all_of(v.begin(), v.end(), isInt))
        return bad(where + ".steps[" + std::to_string(j) + "] is not 6 integers");
      s.steps.push_back({v[0].get<std::int64_t>(), v[1].get<TimeNs>(), v[2].get<TimeNs>(),
                         v[3].get<TimeNs>(), v[4].get<TimeNs>(), v[5].get<TimeNs>()});
    }
    for (std::size_t j = 0; j < r["comm_keys"].size(); ++j) {
      const auto& v = r["comm_keys"][j];
      if (!v.is_array() || v.size() != 2 || !v[0].is_string() || !v[1].is_string())
        return bad(where + ".comm_keys[" + std::to_string(j) + "] is not 2 strings");
      s.commKeys.push_back({v[0].get<std::string>(), v[1].get<std::string>()});
    }
    for (std::size_t j = 0; j < r["comms"].size(); ++j) {
      const auto& v = r["comms"][j];
      const std::string at = where + ".comms[" + std::to_string(j) + "]";
      if (!v.is_array() || v.size() != 5 || !isInt(v[0]) || !(isInt(v[1]) || v[1].is_null()) ||
          !isInt(v[2]) || !isInt(v[3]) || !isInt(v[4]))
        return bad(at + " is not [key, seq, step, arrival, end]");
      CommArrival c;
      const auto key = v[0].get<std::int64_t>();
      if (key < 0 || static_cast<std::size_t>(key) >= s.commKeys.size())
        return bad(at + " names a key that comm_keys does not have");
      const auto step = v[2].get<std::int64_t>();
      if (step < -1 || step >= static_cast<std::int64_t>(s.steps.size()))
        return bad(at + " names a step that steps does not have");
      c.key = static_cast<std::uint32_t>(key);
      if (!v[1].is_null()) c.seq = v[1].get<std::int64_t>();
      c.step = static_cast<std::int32_t>(step);
      c.arrival = v[3].get<TimeNs>();
      c.end = v[4].get<TimeNs>();
      s.comms.push_back(c);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sutra
