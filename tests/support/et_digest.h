// SPDX-License-Identifier: MIT
#pragma once
// A 64-bit digest of everything the ET readers put in an EtTrace (every EtNode field, raw JSON
// texts of arguments and attributes included, the id index and the problems) and in a LinkedTrace
// read from an ET+ file (every LinkedOp field, the report and the ET it keeps). Two reads have the
// same digest exactly when their models are the same field by field: the ET readers' speed work is
// checked with it.
#include <algorithm>
#include <vector>

#include "link/linked_trace.h"
#include "model/et_trace.h"
#include "trace_digest.h"

namespace sutra::test {

inline void digestProblems(Digest& d, const ProblemLog& log) {
  for (const Problem& p : log.all()) {
    d.value(p.severity);
    d.text(p.what);
    d.value(p.count);
    d.text(p.example);
  }
}

inline void digestArgs(Digest& d, const EtArgs& a, std::string_view stridesJson) {
  d.text(a.valuesJson);
  d.text(a.shapesJson());
  d.text(stridesJson);
  d.value(a.types().size());
  for (const auto& t : a.types()) d.text(t);
  d.value(a.shapes().size());
  for (const auto& s : a.shapes()) {
    d.value(s.size());
    for (auto v : s) d.value(v);
  }
  d.value(a.tensors.size());
  for (const EtTensor& t : a.tensors) {
    d.value(t.tensorId);
    d.value(t.storageId);
    d.value(t.offset);
    d.value(t.numel);
    d.value(t.itemsize);
    d.text(t.device);
  }
}

inline void digestEt(Digest& d, const EtTrace& et) {
  d.text(et.path);
  d.text(et.schema);
  d.value(et.pid);
  d.text(et.time);
  d.value(et.startTs);
  d.value(et.finishTs);
  d.text(et.distributedInfoJson);
  d.value(et.nodes.size());
  for (const EtNode& n : et.nodes) {
    d.value(n.id);
    d.text(n.name);
    d.value(n.parent);
    d.value(n.rfId);
    d.value(n.fwParent);
    d.value(n.seqId);
    d.value(n.scope);
    d.value(n.tid);
    d.value(n.fwTid);
    d.text(n.opSchema);
    d.text(n.details->kernelBackend);
    d.text(n.details->kernelFile);
    digestArgs(d, n.inputs, n.details->inputStridesJson);
    digestArgs(d, n.outputs, n.details->outputStridesJson);
    d.value(n.comm != nullptr);
    if (n.comm) {
      const EtComm& c = *n.comm;
      d.text(c.collectiveName);
      d.text(c.dtype);
      d.value(c.inMsgNelems);
      d.value(c.outMsgNelems);
      d.text(c.inSplitSize);
      d.text(c.outSplitSize);
      d.text(c.pgName);
      d.text(c.pgDesc);
      d.value(c.pgSize);
      d.value(c.globalRankStart);
      d.value(c.globalRankStride);
    }
    d.value(n.details->extraAttrsJson.size());
    for (const auto& a : n.details->extraAttrsJson) d.text(a);
  }
  for (auto [id, i] : et.indexById.entries()) d.value(id), d.value(i);
  digestProblems(d, et.problems);
}

inline std::uint64_t etDigest(const EtTrace& et) {
  Digest d;
  digestEt(d, et);
  return d.result();
}

inline std::uint64_t linkedDigest(const LinkedTrace& t) {
  Digest d;
  d.value(t.kineto != nullptr);
  d.value(t.et != nullptr);
  if (t.et) digestEt(d, *t.et);
  d.value(t.rank);
  d.value(t.ops.size());
  for (const LinkedOp& op : t.ops) {
    d.value(op.id);
    d.value(op.kind);
    d.text(op.name);
    d.value(op.parent);
    d.value(op.etIndex);
    d.value(op.kinetoEvent);
    d.value(op.launchEvent);
    d.value(op.ts);
    d.value(op.inclusiveDur);
    d.value(op.exclusiveDur);
    d.value(op.blockedDur);
    d.value(op.annotation);
    d.value(op.tid);
    d.value(op.device);
    d.value(op.stream);
    d.text(op.category);
    d.text(op.pgName);
    d.value(op.interThreadDeps.size());
    for (auto v : op.interThreadDeps) d.value(v);
    d.value(op.syncDeps.size());
    for (auto v : op.syncDeps) d.value(v);
  }
  for (auto [id, i] : t.indexById.entries()) d.value(id), d.value(i);
  const LinkReport& r = t.report;
  d.text(r.matching);
  d.value(r.etOps);
  d.value(r.matchedEtOps);
  d.value(r.deviceOps);
  d.value(r.linkedDeviceOps);
  d.value(r.interThreadDeps);
  d.value(r.syncDeps);
  d.value(r.streams.size());
  for (auto s : r.streams) d.value(s);
  digestProblems(d, t.problems);
  return d.result();
}

}  // namespace sutra::test
