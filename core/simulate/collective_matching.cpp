// SPDX-License-Identifier: MIT
#include "simulate/collective_matching.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "chakra/collective.h"
#include "model/event_args.h"

namespace sutra {
namespace {

std::string describeOp(const RankCommOp& op, int rank) {
  std::string s = "rank " + std::to_string(rank) + ": ";
  if (op.kind == CommKind::Collective) {
    s += op.collective + " #";
    s += op.seq ? std::to_string(*op.seq) : "?";
    s += " of process group '" + op.processGroup + "'";
  } else {
    s += std::string(op.kind == CommKind::Send ? "send to " : "recv from ") +
         std::to_string(op.peer) + " tag " + std::to_string(op.tag);
  }
  return s;
}

std::string stringArg(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  return {};
}

}  // namespace

CollectiveMatching matchCollectives(std::span<const RankComms> ranks) {
  CollectiveMatching out;
  using CollKey = std::tuple<std::string, std::string, std::int64_t>;  // group, collective, ordinal
  using P2pKey =
      std::tuple<int, int, std::int64_t, std::int64_t>;  // sender, receiver, tag, ordinal
  std::map<CollKey, std::vector<SimCollective::Member>> collectives;
  std::map<P2pKey,
           std::pair<std::optional<SimCollective::Member>, std::optional<SimCollective::Member>>>
      pairs;
  std::uint64_t duplicates = 0;
  std::string duplicateExample;

  for (std::uint32_t r = 0; r < ranks.size(); ++r) {
    const int rank = ranks[r].rank;
    std::map<std::pair<std::string, std::string>, std::int64_t> collCount;
    std::map<std::tuple<int, int, std::int64_t>, std::int64_t> p2pCount;
    for (const auto& op : ranks[r].ops) {
      const SimCollective::Member member{r, op.node};
      if (op.kind == CommKind::Collective) {
        const std::int64_t ordinal =
            op.seq ? *op.seq : collCount[{op.processGroup, op.collective}]++;
        auto& members = collectives[{op.processGroup, op.collective, ordinal}];
        const bool twice =
            std::any_of(members.begin(), members.end(), [&](const auto& m) { return m.rank == r; });
        if (twice) {
          if (duplicates++ == 0) duplicateExample = describeOp(op, rank);
          continue;
        }
        members.push_back(member);
      } else {
        const int sender = op.kind == CommKind::Send ? rank : op.peer;
        const int receiver = op.kind == CommKind::Send ? op.peer : rank;
        const std::int64_t ordinal = p2pCount[{sender, receiver, op.tag}]++;
        auto& pair = pairs[{sender, receiver, op.tag, ordinal}];
        (op.kind == CommKind::Send ? pair.first : pair.second) = member;
      }
    }
  }
  if (duplicates)
    out.problems.add(Severity::Warning,
                     "collective sequence number seen twice on one rank (later one not matched)",
                     duplicates, duplicateExample);

  std::uint64_t unmatched = 0;
  std::string unmatchedExample;
  auto noteUnmatched = [&](const SimCollective::Member& m, const RankCommOp* op) {
    ++out.unmatchedOps;
    if (unmatched++ == 0 && op) unmatchedExample = describeOp(*op, ranks[m.rank].rank);
  };
  auto opOf = [&](const SimCollective::Member& m) -> const RankCommOp* {
    for (const auto& op : ranks[m.rank].ops)
      if (op.node == m.node) return &op;
    return nullptr;
  };
  // The size of a matched collective: the largest any member says.
  auto bytesOf = [&](const std::vector<SimCollective::Member>& members) {
    std::int64_t bytes = 0;
    for (const auto& m : members)
      if (const RankCommOp* op = opOf(m)) bytes = std::max(bytes, op->bytes);
    return bytes;
  };
  for (auto& [key, members] : collectives) {
    if (members.size() < 2) {
      noteUnmatched(members.front(), unmatched == 0 ? opOf(members.front()) : nullptr);
      out.unmatched.push_back(members.front());
      continue;
    }
    out.matchedOps += members.size();
    SimCollective c;
    c.bytes = bytesOf(members);
    c.members = std::move(members);
    c.collective = std::get<1>(key);
    out.collectives.push_back(std::move(c));
  }
  for (auto& [key, pair] : pairs) {
    if (!pair.first || !pair.second) {
      const auto& m = pair.first ? *pair.first : *pair.second;
      noteUnmatched(m, unmatched == 0 ? opOf(m) : nullptr);
      out.unmatched.push_back(m);
      continue;
    }
    out.matchedOps += 2;
    SimCollective c;
    c.members = {*pair.first, *pair.second};
    c.pointToPoint = true;
    c.collective = "send_recv";
    c.bytes = bytesOf(c.members);
    out.collectives.push_back(std::move(c));
  }
  if (unmatched && ranks.size() > 1)
    out.problems.add(
        Severity::Warning,
        "communication op with no matching op on another loaded rank (keeps its own duration)",
        unmatched, unmatchedExample);
  return out;
}

std::vector<TimeNs> estimateClockOffsets(std::span<const SimGraph* const> graphs,
                                         const CollectiveMatching& matching,
                                         const std::vector<bool>& measured) {
  return estimateClockOffsets(graphs.size(), matching, measured,
                              [&](std::uint32_t rank, std::uint32_t node) {
                                const SimNode& n = graphs[rank]->nodes[node];
                                return n.measured + n.span;
                              });
}

std::vector<TimeNs> estimateClockOffsets(
    std::size_t n, const CollectiveMatching& matching, const std::vector<bool>& measured,
    const std::function<TimeNs(std::uint32_t rank, std::uint32_t node)>& endOf) {
  std::vector<TimeNs> offsets(n, 0);
  // Differences of measured ends, per pair of ranks (b's end minus a's, a < b).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<TimeNs>> deltas;
  for (const auto& c : matching.collectives) {
    if (c.pointToPoint) continue;  // a send ends on its own
    for (std::size_t i = 0; i < c.members.size(); ++i)
      for (std::size_t j = i + 1; j < c.members.size(); ++j) {
        auto a = c.members[i], b = c.members[j];
        if (a.rank == b.rank || !measured[a.rank] || !measured[b.rank]) continue;
        if (a.rank > b.rank) std::swap(a, b);
        deltas[{a.rank, b.rank}].push_back(endOf(b.rank, b.node) - endOf(a.rank, a.node));
      }
  }
  std::vector<std::vector<std::pair<std::uint32_t, TimeNs>>> links(
      n);  // to, (to's end - from's end)
  for (auto& [pair, d] : deltas) {
    auto mid = d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2);
    std::nth_element(d.begin(), mid, d.end());
    links[pair.first].push_back({pair.second, *mid});
    links[pair.second].push_back({pair.first, -*mid});
  }
  std::vector<char> placed(n, 0);
  for (std::uint32_t root = 0; root < n; ++root) {
    if (placed[root]) continue;
    placed[root] = 1;
    std::vector<std::uint32_t> stack{root};
    while (!stack.empty()) {
      const auto a = stack.back();
      stack.pop_back();
      for (const auto& [b, delta] : links[a]) {
        if (placed[b]) continue;
        placed[b] = 1;
        offsets[b] = offsets[a] - delta;  // b's end + its offset = a's end + a's offset
        stack.push_back(b);
      }
    }
  }
  return offsets;
}

std::vector<KinetoCommKernel> kinetoCommKernels(const Trace& trace, const LaunchIndex& launches) {
  struct Issued {
    TimeNs at;
    KinetoCommKernel kernel;
  };
  std::vector<Issued> issued;
  for (const auto& l : launches.launches()) {
    const EventId kernel = l.deviceOp;
    if (kernel >= trace.events.size() ||
        !chakra::isCommKernelName(trace.name(trace.events[kernel])))
      continue;
    RankCommOp op;
    // The op that issued it: the nearest enclosing host op that names its collective.
    for (EventId e = l.runtimeCall; e != kNoEvent; e = trace.events[e].parent) {
      const std::string_view text = trace.argsJson(trace.events[e]);
      if (text.find("Collective name") == std::string_view::npos) continue;
      const auto args = nlohmann::json::parse(text, nullptr, false);
      if (!args.is_object()) continue;
      op.collective = stringArg(args, "Collective name");
      op.processGroup = stringArg(args, "Process Group Name");
      if (op.processGroup.empty()) op.processGroup = stringArg(args, "pg_name");
      op.seq = integerArg(args, "Seq");
      if (!op.seq) op.seq = integerArg(args, "seq");
      op.bytes = commMessageBytes(args);
      break;
    }
    if (op.collective.empty()) {
      const auto c = chakra::collectiveFromName(trace.name(trace.events[kernel]));
      op.collective = c ? std::string(chakra::collectiveName(*c))
                        : std::string(trace.name(trace.events[kernel]));
    }
    const TimeNs at =
        l.runtimeCall != kNoEvent ? trace.events[l.runtimeCall].start : trace.events[kernel].start;
    issued.push_back({at, {kernel, std::move(op)}});
  }
  // A CPU backend's collectives (gloo): the worker thread's annotation is the work, issued when it
  // starts; no op above it names the process group, so the ranks pair them by collective and
  // order.
  for (EventId e = 0; e < trace.events.size(); ++e) {
    const Event& ev = trace.events[e];
    if (ev.klass != CategoryClass::UserAnnotation || !chakra::isCommWorkerName(trace.name(ev)))
      continue;
    RankCommOp op;
    const auto c = chakra::collectiveFromName(trace.name(ev));
    op.collective = c ? std::string(chakra::collectiveName(*c)) : std::string(trace.name(ev));
    if (const std::string_view text = trace.argsJson(ev); !text.empty())
      op.bytes = commMessageBytes(nlohmann::json::parse(text, nullptr, false));
    issued.push_back({ev.start, {e, std::move(op)}});
  }
  std::stable_sort(issued.begin(), issued.end(),
                   [](const Issued& a, const Issued& b) { return a.at < b.at; });
  std::vector<KinetoCommKernel> out;
  out.reserve(issued.size());
  for (auto& i : issued) out.push_back(std::move(i.kernel));
  return out;
}

std::vector<RankCommOp> kinetoCommOps(const Trace& trace, const LaunchIndex& launches,
                                      const SimGraph& graph) {
  std::vector<RankCommOp> out;
  for (auto& k : kinetoCommKernels(trace, launches)) {
    const auto node =
        k.kernel < graph.nodeOfDeviceOp.size() ? graph.nodeOfDeviceOp[k.kernel] : kNoNode;
    if (node == kNoNode) continue;
    k.op.node = node;
    out.push_back(std::move(k.op));
  }
  return out;
}

}  // namespace sutra
