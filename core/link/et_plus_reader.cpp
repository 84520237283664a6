// SPDX-License-Identifier: MIT
#include "link/et_plus_reader.h"

#include <algorithm>
#include <set>

#include "io/et_plus_fields.h"

namespace sutra {
Result<LinkedTrace> readLinkedEt(const std::string& path) {
  std::vector<EtPlusFields> plusFields;
  auto read = readPytorchEtWithPlusFields(path, plusFields);
  if (!read.ok()) return read.error();
  EtTrace& all = read.value();

  LinkedTrace linked;
  linked.problems.merge(all.problems);
  std::size_t unreadable = 0;
  linked.ops.reserve(all.nodes.size());
  // The CPU nodes stay in `all`, moved down over the device nodes in place (moving them to a
  // fresh vector cost a move and a page fault per node), and its id index is rebuilt for them.
  std::size_t cpuNodes = 0;
  all.indexById.clear();
  for (std::size_t i = 0; i < all.nodes.size(); ++i) {
    EtNode& node = all.nodes[i];
    EtPlusFields& f = plusFields[i];
    unreadable += f.unreadable;
    LinkedOp op;
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
    if (f.hasCat) {
      op.kind = LinkedOpKind::DeviceOp;
      op.category = f.cat;
      op.stream = f.stream;
      op.pgName = f.pgName;
      ++linked.report.deviceOps;
      ++linked.report.linkedDeviceOps;
    } else {
      op.etIndex = static_cast<std::int32_t>(cpuNodes);
      all.indexById.emplace(node.id, static_cast<std::uint32_t>(cpuNodes));
      if (node.isOperator()) {
        ++linked.report.etOps;
        if (f.hasTs) ++linked.report.matchedEtOps;
      }
      if (cpuNodes != i) all.nodes[cpuNodes] = std::move(node);
      ++cpuNodes;
    }
    linked.report.interThreadDeps += op.interThreadDeps.size();
    linked.report.syncDeps += op.syncDeps.size();
    linked.ops.push_back(std::move(op));
  }
  all.nodes.erase(all.nodes.begin() + static_cast<std::ptrdiff_t>(cpuNodes), all.nodes.end());
  std::vector<EtPlusFields>().swap(plusFields);  // freed before the ops' sort and index
  auto et = std::make_shared<EtTrace>(std::move(all));
  if (unreadable)
    linked.problems.add(Severity::Warning, "ET+ node whose JSON could not be re-read", unreadable,
                        path);
  std::sort(linked.ops.begin(), linked.ops.end(),
            [](const LinkedOp& a, const LinkedOp& b) { return a.id < b.id; });
  // Device ops take their launcher's thread; streams for the report.
  linked.reindex();
  std::set<std::int64_t> streams;
  for (auto& op : linked.ops) {
    if (!op.isDevice()) continue;
    if (const LinkedOp* parent = linked.find(op.parent)) op.tid = parent->tid;
    streams.insert(op.stream);
  }
  linked.report.streams.assign(streams.begin(), streams.end());
  linked.report.matching = "et_plus";
  linked.et = std::move(et);
  return linked;
}

}  // namespace sutra
