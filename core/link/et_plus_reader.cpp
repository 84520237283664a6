// SPDX-License-Identifier: MIT
#include "link/et_plus_reader.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "io/json_numbers.h"
#include "io/readers.h"

namespace sutra {
namespace {

// The ET+ fields of one node, read from its JSON text with a SAX pass so that times keep their
// exact decimal text.
struct EtPlusFields {
  std::optional<TimeNs> ts, inclusiveDur, exclusiveDur, blockedDur;
  std::optional<std::int64_t> interThreadDep;
  std::vector<std::int64_t> syncDeps;
  std::optional<std::string> cat;
  std::optional<std::int64_t> stream;
  std::string pgName;
  bool annotation = false;  // Sutra's own field "user_annotation"
};

class FieldsSax {
 public:
  using json = nlohmann::json;
  explicit FieldsSax(EtPlusFields& out) : out_(out) {}

  bool null() { return true; }
  bool boolean(bool v) {
    if (depth_ == 1 && key_ == "user_annotation") out_.annotation = v;
    return true;
  }
  bool number_integer(json::number_integer_t v) { return integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return integer(static_cast<std::int64_t>(v)); }
  bool number_float(json::number_float_t, const json::string_t& text) {
    if (depth_ == 1) {
      if (auto ns = microsTextToNanos(text)) time(*ns);
      if (key_ == "stream" || key_ == "inter_thread_dep")
        if (auto v = integerText(text)) integer(*v);
    }
    return true;
  }
  bool string(json::string_t& s) {
    if (depth_ != 1) return true;
    if (key_ == "cat")
      out_.cat = s;
    else if (key_ == "pg_name")
      out_.pgName = s;
    return true;
  }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) {
    ++depth_;
    return true;
  }
  bool end_object() {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) {
    inSyncDeps_ = depth_ == 1 && key_ == "sync_dep";
    ++depth_;
    return true;
  }
  bool end_array() {
    --depth_;
    if (depth_ == 1) inSyncDeps_ = false;
    return true;
  }
  bool key(json::string_t& k) {
    if (depth_ == 1) key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

 private:
  bool integer(std::int64_t v) {
    if (depth_ == 2 && inSyncDeps_) {
      out_.syncDeps.push_back(v);
    } else if (depth_ == 1) {
      time(v * 1000);
      if (key_ == "stream")
        out_.stream = v;
      else if (key_ == "inter_thread_dep")
        out_.interThreadDep = v;
    }
    return true;
  }
  void time(TimeNs ns) {
    if (key_ == "ts")
      out_.ts = ns;
    else if (key_ == "inclusive_dur")
      out_.inclusiveDur = ns;
    else if (key_ == "exclusive_dur")
      out_.exclusiveDur = ns;
    else if (key_ == "blocked_dur")  // Sutra's own field: chakra_trace_link writes none
      out_.blockedDur = ns;
  }

  EtPlusFields& out_;
  int depth_ = 0;
  std::string key_;
  bool inSyncDeps_ = false;
};

}  // namespace

Result<LinkedTrace> readLinkedEt(const std::string& path) {
  auto read = readPytorchEt(path);
  if (!read.ok()) return read.error();
  EtTrace& all = read.value();

  LinkedTrace linked;
  linked.problems.merge(all.problems);
  auto et = std::make_shared<EtTrace>();
  et->path = all.path;
  et->schema = all.schema;
  et->pid = all.pid;
  et->time = all.time;
  et->startTs = all.startTs;
  et->finishTs = all.finishTs;
  et->distributedInfoJson = all.distributedInfoJson;
  et->problems = all.problems;

  std::size_t malformed = 0;
  for (auto& node : all.nodes) {
    EtPlusFields f;
    FieldsSax sax(f);
    if (!nlohmann::json::sax_parse(node.rawJson, &sax)) ++malformed;
    LinkedOp op;
    op.id = node.id;
    op.name = node.name;
    op.parent = node.parent;
    op.ts = f.ts.value_or(0);
    op.inclusiveDur = f.inclusiveDur.value_or(0);
    op.exclusiveDur = f.exclusiveDur.value_or(0);
    op.blockedDur = std::min(op.exclusiveDur, f.blockedDur.value_or(0));
    op.syncDeps = f.syncDeps;
    if (f.interThreadDep) op.interThreadDeps.push_back(*f.interThreadDep);
    op.tid = node.tid;
    op.annotation = f.annotation;
    if (f.cat) {
      op.kind = LinkedOpKind::DeviceOp;
      op.category = *f.cat;
      op.stream = f.stream.value_or(-1);
      op.pgName = f.pgName;
      ++linked.report.deviceOps;
      ++linked.report.linkedDeviceOps;
    } else {
      op.etIndex = static_cast<std::int32_t>(et->nodes.size());
      et->indexById.emplace(node.id, static_cast<std::uint32_t>(et->nodes.size()));
      if (node.isOperator()) {
        ++linked.report.etOps;
        if (f.ts) ++linked.report.matchedEtOps;
      }
      et->nodes.push_back(std::move(node));
    }
    linked.report.interThreadDeps += op.interThreadDeps.size();
    linked.report.syncDeps += op.syncDeps.size();
    linked.ops.push_back(std::move(op));
  }
  if (malformed)
    linked.problems.add(Severity::Warning, "ET+ node whose JSON could not be re-read", malformed,
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
