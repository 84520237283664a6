// SPDX-License-Identifier: MIT
#include "link/et_plus_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "io/readers.h"
#include "util/atomic_file.h"

namespace sutra {
namespace {

using ojson = nlohmann::ordered_json;

// Times go out as Kineto wrote them, in microseconds, exact to the nanosecond. A double cannot hold
// an epoch timestamp with three decimals, so the number is written as text: the JSON value is a
// marked string that writeNumbers() turns into the bare number after dumping.
constexpr char kMark = '\x01';

std::string microsText(TimeNs ns) {
  std::string text;
  if (ns < 0) {
    text.push_back('-');
    ns = -ns;
  }
  text += std::to_string(ns / 1000);
  if (const TimeNs frac = ns % 1000; frac != 0) {
    char digits[5];
    std::snprintf(digits, sizeof digits, ".%03lld", static_cast<long long>(frac));
    text += digits;
  }
  return text;
}

ojson micros(TimeNs ns) { return ojson(std::string(1, kMark) + microsText(ns)); }

// Replaces every "\u0001<number>" string in dumped JSON by <number>.
void appendWithNumbers(std::string& out, const std::string& dumped) {
  static const std::string open = "\"\\u0001";
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = dumped.find(open, pos);
    if (at == std::string::npos) break;
    out.append(dumped, pos, at - pos);
    const std::size_t begin = at + open.size();
    const std::size_t end = dumped.find('"', begin);
    out.append(dumped, begin, end - begin);
    pos = end + 1;
  }
  out.append(dumped, pos, std::string::npos);
}

ojson idOrNull(const std::vector<std::int64_t>& ids) {
  // The reference keeps one inter-thread dependency per op: the latest op of the other threads.
  return ids.empty() ? ojson(nullptr) : ojson(ids.front());
}

bool hasTimes(const LinkedTrace& linked, const LinkedOp& op) {
  if (op.kinetoEvent != kNoEvent) return true;
  const EtNode* n = linked.etNode(op);
  return n && !n->isOperator() && op.inclusiveDur > 0;
}

void addTimes(ojson& j, const LinkedOp& op) {
  j["inclusive_dur"] = micros(op.inclusiveDur);
  j["exclusive_dur"] = micros(op.exclusiveDur);
  if (op.blockedDur > 0) j["blocked_dur"] = micros(op.blockedDur);  // read back by Sutra only
  if (op.annotation) j["user_annotation"] = true;
  j["ts"] = micros(op.ts);
}

ojson emptyArgs() {
  return ojson{{"values", ojson::array()}, {"shapes", ojson::array()}, {"types", ojson::array()}};
}

// A node for a CPU op of a trace linked from Kineto alone, in the 1.0.3-chakra.0.0.4 layout.
ojson syntheticNode(const LinkedOp& op) {
  ojson j;
  j["id"] = op.id;
  j["name"] = op.name;
  j["ctrl_deps"] = op.parent;
  j["inputs"] = emptyArgs();
  j["outputs"] = emptyArgs();
  auto attr = [](const char* name, const char* type, ojson value) {
    return ojson{{"name", name}, {"type", type}, {"value", std::move(value)}};
  };
  j["attrs"] = ojson::array({attr("rf_id", "uint64", 0), attr("fw_parent", "uint64", 0),
                             attr("seq_id", "int64", -1), attr("scope", "uint64", 0),
                             attr("tid", "uint64", op.tid), attr("fw_tid", "uint64", 0),
                             attr("op_schema", "string", "")});
  return j;
}

}  // namespace

Result<std::string> etPlusJson(const LinkedTrace& linked) {
  std::string out;
  out.reserve(1 << 20);
  ojson head;
  if (linked.et) {
    const EtTrace& et = *linked.et;
    head["schema"] = et.schema;
    head["pid"] = et.pid;
    head["time"] = et.time;
    head["start_ts"] = et.startTs;
    head["finish_ts"] = et.finishTs;
    if (!et.distributedInfoJson.empty()) {
      auto info = ojson::parse(et.distributedInfoJson, nullptr, false);
      if (!info.is_discarded()) head["distributedInfo"] = std::move(info);
    }
  } else {
    head = {{"schema", "1.0.3-chakra.0.0.4"},
            {"pid", 0},
            {"time", ""},
            {"start_ts", 0},
            {"finish_ts", 0}};
  }
  std::string headText = head.dump(-1, ' ', false, ojson::error_handler_t::replace);
  headText.pop_back();  // the closing brace: the nodes follow
  out += headText;
  out += headText.size() > 1 ? ",\"nodes\":[" : "\"nodes\":[";

  // Each ET node's own JSON, read again from its file: fields Sutra does not model go out as read.
  std::unordered_map<std::int64_t, std::string> nodeJson;
  if (linked.et) {
    nodeJson.reserve(linked.et->nodes.size());
    auto read = readEtNodeTexts(*linked.et, [&](std::int64_t id, std::string_view json) {
      nodeJson.insert_or_assign(id, std::string(json));
    });
    if (!read) return read.error();
  }
  ojson lastCpu;  // the node the following device ops copy
  bool first = true;
  auto emit = [&](const ojson& j) {
    if (!first) out += ",\n";
    first = false;
    appendWithNumbers(out, j.dump(-1, ' ', false, ojson::error_handler_t::replace));
  };
  for (const auto& op : linked.ops) {
    if (op.isCpu()) {
      const EtNode* node = linked.etNode(op);
      const auto text = node ? nodeJson.find(node->id) : nodeJson.end();
      ojson j =
          text != nodeJson.end() ? ojson::parse(text->second, nullptr, false) : syntheticNode(op);
      if (j.is_discarded() || !j.is_object()) j = syntheticNode(op);
      j["id"] = op.id;
      if (j.contains("parent")) j["parent"] = op.parent;
      if (j.contains("ctrl_deps") || !j.contains("parent")) j["ctrl_deps"] = op.parent;
      if (hasTimes(linked, op)) {
        addTimes(j, op);
        j["inter_thread_dep"] = idOrNull(op.interThreadDeps);
      }
      lastCpu = j;
      if (!op.syncDeps.empty()) j["sync_dep"] = op.syncDeps;
      emit(j);
    } else {
      ojson j = lastCpu;  // the reference's device node: a copy of its launcher's node
      j.erase("inter_thread_dep");
      j["id"] = op.id;
      if (j.contains("parent")) j["parent"] = op.parent;
      j["ctrl_deps"] = op.parent;
      j["cat"] = op.category;
      j["name"] = op.name;
      j["ph"] = "X";
      addTimes(j, op);
      j["stream"] = op.stream;
      if (!op.pgName.empty()) j["pg_name"] = op.pgName;
      if (!op.syncDeps.empty()) j["sync_dep"] = op.syncDeps;
      emit(j);
    }
  }
  out += "]}\n";
  return out;
}

Status writeEtPlus(const LinkedTrace& linked, const std::string& path,
                   const std::vector<std::string>& protectedPaths) {
  AtomicFileOptions options;
  options.protectedPaths = protectedPaths;
  auto json = etPlusJson(linked);
  if (!json) return json.error();
  return writeFileAtomically(path, *json, options);
}

}  // namespace sutra
