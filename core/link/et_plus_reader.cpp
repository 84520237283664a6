// SPDX-License-Identifier: MIT
#include "link/et_plus_reader.h"

#include <algorithm>
#include <set>

#include "io/et_plus_fields.h"

namespace sutra {
Result<LinkedTrace> readLinkedEt(const std::string& path) {
  LinkedTrace linked;
  std::size_t unreadable = 0;
  std::vector<bool> timed;  // by ET node: whether it has a "ts" (matched to a Kineto op)
  // Each op is built as the reader merges its node (no list of every node's ET+ fields is held):
  // the CPU nodes stay in the ET model, device nodes are ops alone.
  EtPlusSink sink;
  sink.expect = [&](std::size_t expected) { linked.ops.reserve(expected); };
  sink.node = [&](const EtNode& node, EtPlusFields&& f, std::int64_t etIndex) {
    unreadable += f.unreadable;
    LinkedOp& op = linked.ops.emplace_back();
    op.id = node.id;
    op.name = node.name;
    op.parent = node.parent;
    op.ts = f.ts;
    op.inclusiveDur = f.inclusiveDur;
    op.exclusiveDur = f.exclusiveDur;
    op.blockedDur = std::min(op.exclusiveDur, f.blockedDur);
    op.syncDeps = std::move(f.syncDeps);
    if (f.hasInterThreadDep) op.interThreadDeps.push_back(f.interThreadDep);
    op.tid = node.tid;
    op.annotation = f.annotation;
    if (etIndex < 0) {
      op.kind = LinkedOpKind::DeviceOp;
      op.category = f.cat;
      op.stream = f.stream;
      op.pgName = f.pgName;
    } else {
      op.etIndex = static_cast<std::int32_t>(etIndex);
      const auto slot = static_cast<std::size_t>(etIndex);
      if (timed.size() <= slot) timed.resize(slot + 1);
      timed[slot] = f.hasTs;  // a later node with the same id takes the slot, as in the model
    }
  };
  auto read = readPytorchEtWithPlusFields(path, sink);
  if (!read.ok()) return read.error();
  EtTrace& all = read.value();
  linked.problems.merge(all.problems);
  // In id order; of two nodes with one id the later in the file is kept (as the ET reader keeps
  // the later of two CPU nodes, which it has warned of).
  // Files are written in id order, so the sort (and its buffer of half the ops) is rarely needed.
  auto byId = [](const LinkedOp& a, const LinkedOp& b) { return a.id < b.id; };
  if (!std::is_sorted(linked.ops.begin(), linked.ops.end(), byId))
    std::stable_sort(linked.ops.begin(), linked.ops.end(), byId);
  std::size_t kept = 0, deviceTwice = 0;
  for (std::size_t i = 0; i < linked.ops.size(); ++i) {
    if (i + 1 < linked.ops.size() && linked.ops[i + 1].id == linked.ops[i].id) {
      deviceTwice += linked.ops[i].isDevice() || linked.ops[i + 1].isDevice();
      continue;
    }
    if (kept != i) linked.ops[kept] = std::move(linked.ops[i]);
    ++kept;
  }
  linked.ops.erase(linked.ops.begin() + static_cast<std::ptrdiff_t>(kept), linked.ops.end());
  if (deviceTwice)
    linked.problems.add(Severity::Warning, "ET+ device node id used twice (the later is kept)",
                        deviceTwice, path);
  for (LinkedOp& op : linked.ops) {
    if (op.isDevice()) {
      ++linked.report.deviceOps;
      ++linked.report.linkedDeviceOps;
    } else if (all.nodes[static_cast<std::size_t>(op.etIndex)].isOperator()) {
      ++linked.report.etOps;
      linked.report.matchedEtOps += timed[static_cast<std::size_t>(op.etIndex)];
    }
    linked.report.interThreadDeps += op.interThreadDeps.size();
    linked.report.syncDeps += op.syncDeps.size();
  }
  auto et = std::make_shared<EtTrace>(std::move(all));
  if (unreadable)
    linked.problems.add(Severity::Warning, "ET+ node whose JSON could not be re-read", unreadable,
                        path);
  // Device ops take their launcher's thread; streams for the report.
  linked.reindex();
  // The ET reader checks the CPU nodes' parents; a device node's must be a CPU op.
  std::set<std::int64_t> streams;
  std::size_t orphans = 0, deviceParents = 0;
  std::string orphanExample, deviceParentExample;
  auto example = [](const LinkedOp& op) {
    return "node " + std::to_string(op.id) + " (" + std::string(op.name) + "): parent " +
           std::to_string(op.parent);
  };
  for (auto& op : linked.ops) {
    if (!op.isDevice()) continue;
    streams.insert(op.stream);
    const LinkedOp* parent = linked.find(op.parent);
    if (!parent) {
      if (op.parent >= 0 && orphans++ == 0) orphanExample = example(op);
      continue;
    }
    op.tid = parent->tid;
    if (parent->isDevice() && deviceParents++ == 0) deviceParentExample = example(op);
  }
  if (orphans)
    linked.problems.add(Severity::Warning, "ET node whose parent is not in the file", orphans,
                        orphanExample);
  if (deviceParents)
    linked.problems.add(Severity::Warning,
                        "ET+ device node whose parent is a device node, not the CPU op that "
                        "launched it",
                        deviceParents, deviceParentExample);
  linked.report.streams.assign(streams.begin(), streams.end());
  linked.report.matching = "et_plus";
  linked.et = std::move(et);
  return linked;
}

}  // namespace sutra
