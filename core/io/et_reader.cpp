// SPDX-License-Identifier: MIT
// PyTorch execution trace (ExecutionTraceObserver JSON) -> EtTrace, any schema version: the flat
// 1.0.1 layout ("parent", "inputs" as a list, "input_shapes", "input_types") and the attrs layout
// of 1.0.2-chakra.0.0.4 and later ("ctrl_deps", "inputs": {values, shapes, types[, strides]},
// "attrs": [{name, type, value}]). The "nodes" array is streamed like Kineto's traceEvents.
#include <simdjson.h>

#include <nlohmann/json.hpp>

#include "io/byte_source.h"
#include "io/json_numbers.h"
#include "io/json_stream.h"
#include "io/readers.h"

namespace sutra {
namespace {

namespace od = simdjson::ondemand;
using nlohmann::json;

// Schema versions whose layout Sutra knows; others are read by shape with a warning.
bool knownSchema(std::string_view schema) {
  for (std::string_view v : {"1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.1.0", "1.1.1"})
    if (schema.starts_with(v)) return true;
  return false;
}

std::int64_t asInt(const json& v, std::int64_t fallback) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_unsigned()) return static_cast<std::int64_t>(v.get<std::uint64_t>());
  if (v.is_number_float()) return static_cast<std::int64_t>(v.get<double>());
  if (v.is_string()) return integerText(v.get<std::string>()).value_or(fallback);
  return fallback;
}

std::string asString(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return {};
  return v.dump();
}

// A tensor value: [tensor_id, storage_id, offset, numel, itemsize, device].
bool readTensor(const json& v, EtTensor& t) {
  if (!v.is_array() || v.size() < 6 || !v[5].is_string()) return false;
  for (int k = 0; k < 5; ++k)
    if (!v[k].is_number()) return false;
  t.tensorId = asInt(v[0], 0);
  t.storageId = asInt(v[1], 0);
  t.offset = asInt(v[2], 0);
  t.numel = asInt(v[3], 0);
  t.itemsize = asInt(v[4], 0);
  t.device = v[5].get<std::string>();
  return true;
}

void collectTensors(const json& value, const std::string& type, std::vector<EtTensor>& out) {
  EtTensor t;
  if (type.starts_with("Tensor(") && readTensor(value, t)) {
    out.push_back(std::move(t));
  } else if (type.find("Tensor") != std::string::npos && value.is_array()) {
    // GenericList[Tensor(float),...], TensorList: lists of tensors, possibly nested.
    for (const auto& item : value) {
      if (readTensor(item, t)) out.push_back(t);
      else if (item.is_array()) collectTensors(item, type, out);
    }
  }
}

// Fills one side of a node from its values, shapes, types (and strides) JSON texts.
void fillArgs(EtArgs& args, std::string_view values, std::string_view shapes, std::string_view types,
              std::string_view strides, ProblemLog& problems, std::int64_t nodeId) {
  args.valuesJson.assign(values.empty() ? "[]" : values);
  args.shapesJson.assign(shapes.empty() ? "[]" : shapes);
  args.stridesJson.assign(strides);
  json v = json::parse(args.valuesJson, nullptr, false);
  json s = json::parse(args.shapesJson, nullptr, false);
  json t = types.empty() ? json::array() : json::parse(types, nullptr, false);
  if (v.is_discarded() || s.is_discarded() || t.is_discarded() || !v.is_array()) {
    problems.add(Severity::Warning, "ET node with unreadable inputs or outputs", "node " + std::to_string(nodeId));
    return;
  }
  if (t.is_array())
    for (const auto& type : t) args.types.push_back(asString(type));
  if (s.is_array()) {
    for (const auto& shape : s) {
      std::vector<std::int64_t> dims;
      if (shape.is_array())
        for (const auto& d : shape) {
          if (!d.is_number()) {  // a list of shapes (TensorList): no single shape
            dims.clear();
            break;
          }
          dims.push_back(asInt(d, 0));
        }
      args.shapes.push_back(std::move(dims));
    }
  }
  for (std::size_t k = 0; k < v.size(); ++k)
    collectTensors(v[k], k < args.types.size() ? args.types[k] : std::string(), args.tensors);
}

class EtReader {
 public:
  explicit EtReader(const std::string& path) { trace_.path = path; }
  Result<EtTrace> read(ByteSource& source, const ProgressFn& progress);

 private:
  Status parseBatch(const JsonBatch& batch);
  Status parseNode(od::object& object, std::uint64_t where);
  void setAttr(EtNode& node, std::string_view name, const json& value, std::string_view rawAttr);

  EtTrace trace_;
  od::parser parser_;
  std::vector<std::pair<std::string, std::string>> members_;
};

void EtReader::setAttr(EtNode& node, std::string_view name, const json& value, std::string_view rawAttr) {
  auto comm = [&]() -> EtComm& {
    if (!node.comm) node.comm.emplace();
    return *node.comm;
  };
  if (name == "rf_id") node.rfId = asInt(value, -1);
  else if (name == "fw_parent") node.fwParent = asInt(value, 0);
  else if (name == "seq_id") node.seqId = asInt(value, -1);
  else if (name == "scope") node.scope = asInt(value, 0);
  else if (name == "tid") node.tid = asInt(value, 0);
  else if (name == "fw_tid") node.fwTid = asInt(value, 0);
  else if (name == "op_schema") node.opSchema = asString(value);
  else if (name == "kernel_backend") node.kernelBackend = asString(value);
  else if (name == "kernel_file") node.kernelFile = asString(value);
  else if (name == "collective_name") comm().collectiveName = asString(value);
  else if (name == "dtype") comm().dtype = asString(value);
  else if (name == "in_msg_nelems") comm().inMsgNelems = asInt(value, 0);
  else if (name == "out_msg_nelems") comm().outMsgNelems = asInt(value, 0);
  else if (name == "in_split_size") comm().inSplitSize = asString(value);
  else if (name == "out_split_size") comm().outSplitSize = asString(value);
  else if (name == "pg_name") comm().pgName = asString(value);
  else if (name == "pg_desc") comm().pgDesc = asString(value);
  else if (name == "pg_size") comm().pgSize = asInt(value, 0);
  else if (name == "global_rank_start") comm().globalRankStart = asInt(value, 0);
  else if (name == "global_rank_stride") comm().globalRankStride = asInt(value, 1);
  else if (!rawAttr.empty()) node.extraAttrsJson.emplace_back(rawAttr);
}

Status EtReader::parseNode(od::object& object, std::uint64_t where) {
  EtNode node;
  std::string_view raw;
  if (auto err = object.raw_json().get(raw))
    return makeError(trace_.path, "malformed ET node near byte " + std::to_string(where) + ": " + simdjson::error_message(err));
  node.rawJson.assign(raw);
  // Nodes are small and few next to Kineto events: the node is re-read as a DOM, which keeps the
  // two layouts' handling plain.
  json n = json::parse(node.rawJson, nullptr, false);
  if (n.is_discarded() || !n.is_object())
    return makeError(trace_.path, "malformed ET node near byte " + std::to_string(where));
  if (!n.contains("id")) {
    trace_.problems.add(Severity::Warning, "ET node without an id, skipped", n.value("name", std::string()));
    return Ok{};
  }
  node.id = asInt(n["id"], -1);
  node.name = n.contains("name") ? asString(n["name"]) : std::string();
  if (n.contains("parent")) node.parent = asInt(n["parent"], -1);
  else if (n.contains("ctrl_deps")) node.parent = asInt(n["ctrl_deps"], -1);

  // Flat layout: attributes are members of the node.
  for (const char* key : {"rf_id", "fw_parent", "seq_id", "scope", "tid", "fw_tid", "op_schema",
                          "kernel_backend", "kernel_file"})
    if (n.contains(key)) setAttr(node, key, n[key], {});
  // Attrs layout.
  if (n.contains("attrs") && n["attrs"].is_array()) {
    for (const auto& attr : n["attrs"]) {
      if (!attr.is_object() || !attr.contains("name")) continue;
      setAttr(node, asString(attr["name"]), attr.contains("value") ? attr["value"] : json(), attr.dump());
    }
  }
  auto side = [&](EtArgs& args, const char* key, const char* shapesKey, const char* typesKey) {
    if (!n.contains(key)) return;
    const json& v = n[key];
    if (v.is_object()) {  // {values, shapes, types[, strides]}
      fillArgs(args, v.contains("values") ? v["values"].dump() : "[]", v.contains("shapes") ? v["shapes"].dump() : "[]",
               v.contains("types") ? v["types"].dump() : "[]", v.contains("strides") ? v["strides"].dump() : "",
               trace_.problems, node.id);
    } else {
      fillArgs(args, v.dump(), n.contains(shapesKey) ? n[shapesKey].dump() : "[]",
               n.contains(typesKey) ? n[typesKey].dump() : "[]", "", trace_.problems, node.id);
    }
  };
  side(node.inputs, "inputs", "input_shapes", "input_types");
  side(node.outputs, "outputs", "output_shapes", "output_types");

  if (trace_.indexById.count(node.id)) {
    trace_.problems.add(Severity::Warning, "ET node id used twice (the later node is kept)",
                        "id " + std::to_string(node.id));
    trace_.nodes[trace_.indexById[node.id]] = std::move(node);
    return Ok{};
  }
  trace_.indexById.emplace(node.id, static_cast<std::uint32_t>(trace_.nodes.size()));
  trace_.nodes.push_back(std::move(node));
  return Ok{};
}

Status EtReader::parseBatch(const JsonBatch& batch) {
  od::document doc;
  auto fail = [&](simdjson::error_code code) -> Status {
    return makeError(trace_.path, "malformed JSON near byte " + std::to_string(batch.fileOffset) +
                                      " in nodes: " + simdjson::error_message(code));
  };
  if (auto err = parser_.iterate(batch.data, batch.size, batch.capacity).get(doc)) return fail(err);
  od::array nodes;
  if (auto err = doc.get_array().get(nodes)) return fail(err);
  for (auto element : nodes) {
    od::object object;
    if (auto err = element.get_object().get(object)) {
      if (err != simdjson::INCORRECT_TYPE) return fail(err);
      trace_.problems.add(Severity::Warning, "ET node that is not a JSON object, skipped");
      continue;
    }
    if (auto s = parseNode(object, batch.fileOffset); !s) return s;
  }
  return Ok{};
}

Result<EtTrace> EtReader::read(ByteSource& source, const ProgressFn& progress) {
  JsonStreamHandlers handlers;
  handlers.onBatch = [this](const JsonBatch& batch) { return parseBatch(batch); };
  handlers.onMember = [this](std::string_view key, std::string_view raw) {
    members_.emplace_back(std::string(key), std::string(raw));
  };
  const std::uint64_t total = source.fileSize();
  if (progress) handlers.onProgress = [&](std::uint64_t) { return progress(source.fileBytesRead(), total); };
  auto summary = streamJsonArray(source, "nodes", handlers);
  if (!summary) return summary.error();
  bool hasSchema = false;
  for (auto& [key, raw] : members_) {
    json v = json::parse(raw, nullptr, false);
    if (v.is_discarded()) continue;
    if (key == "schema") trace_.schema = asString(v), hasSchema = true;
    else if (key == "pid") trace_.pid = asInt(v, 0);
    else if (key == "time") trace_.time = asString(v);
    else if (key == "start_ts") trace_.startTs = asInt(v, 0);
    else if (key == "finish_ts") trace_.finishTs = asInt(v, 0);
    else if (key == "distributedInfo") trace_.distributedInfoJson = raw;
  }
  if (summary->topLevelArray || !summary->foundArray) {
    if (summary->topLevelArray)
      return makeError(source.path(), "not a PyTorch execution trace: the document is an array, not an object with \"nodes\"");
    return makeError(source.path(), "not a PyTorch execution trace: no \"nodes\" array");
  }
  if (!hasSchema) trace_.problems.add(Severity::Warning, "ET without a \"schema\" version; read by shape");
  else if (!knownSchema(trace_.schema))
    trace_.problems.add(Severity::Warning, "ET schema version Sutra does not know; read by shape", trace_.schema);
  return std::move(trace_);
}

}  // namespace

Result<EtTrace> readPytorchEt(const std::string& path, const ProgressFn& progress) {
  auto source = ByteSource::open(path);
  if (!source) return source.error();
  EtReader reader(path);
  return reader.read(**source, progress);
}

}  // namespace sutra
