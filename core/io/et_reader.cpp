// SPDX-License-Identifier: MIT
// PyTorch execution trace (ExecutionTraceObserver JSON) -> EtTrace, any schema version: the flat
// 1.0.1 layout ("parent", "inputs" as a list, "input_shapes", "input_types") and the attrs layout
// of 1.0.2-chakra.0.0.4 and later ("ctrl_deps", "inputs": {values, shapes, types[, strides]},
// "attrs": [{name, type, value}]). The "nodes" array is streamed like Kineto's traceEvents and its
// chunks parsed on worker threads (batch_pipeline.h) with simdjson: On Demand for the node, the
// DOM for the small values/shapes arrays whose tensors and shapes Sutra extracts.
#include <simdjson.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>

#include "io/batch_pipeline.h"
#include "io/byte_source.h"
#include "io/et_plus_fields.h"
#include "io/json_numbers.h"
#include "io/json_stream.h"
#include "io/readers.h"

namespace sutra {
namespace {

namespace od = simdjson::ondemand;
namespace dom = simdjson::dom;

// Schema versions whose layout Sutra knows; others are read by shape with a warning.
bool knownSchema(std::string_view schema) {
  for (std::string_view v : {"1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.1.0", "1.1.1"})
    if (schema.starts_with(v)) return true;
  return false;
}

// A value as read: a string's content or a scalar's token, and the raw JSON of anything.
struct AttrValue {
  std::string_view text;  // string content, or number/literal token; empty for arrays and objects
  std::string_view raw;   // the value's JSON text
  bool isString = false;
};

bool readValue(od::value v, AttrValue& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) {
    out.isString = true;
    out.raw = trimJsonToken(v.raw_json_token());
    return !v.get_string().get(out.text);
  }
  if (type == od::json_type::array) {
    od::array a;
    return !v.get_array().get(a) && !a.raw_json().get(out.raw);
  }
  if (type == od::json_type::object) {
    od::object o;
    return !v.get_object().get(o) && !o.raw_json().get(out.raw);
  }
  out.text = out.raw = trimJsonToken(v.raw_json_token());
  return true;
}

std::int64_t asInt(const AttrValue& v, std::int64_t fallback) {
  return integerText(v.text).value_or(fallback);
}
std::string_view asText(const AttrValue& v) {
  return v.isString || !v.text.empty() ? v.text : v.raw;
}

// What an id field holds where it is no id (a non-negative integer that fits in 63 bits).
enum class IdFault : std::uint8_t { None, String, Fraction, Negative, TooLarge, NotANumber };

IdFault readId(const AttrValue& v, std::int64_t& out) {
  if (v.isString) return IdFault::String;
  const std::string_view t = trimJsonToken(v.text);
  if (t.empty()) return IdFault::NotANumber;  // an array or an object
  if (auto n = integerText(t)) {
    if (*n < 0) return IdFault::Negative;
    out = *n;
    return IdFault::None;
  }
  if (t.front() == '-') return IdFault::Negative;
  if (t.find_first_not_of("0123456789") == std::string_view::npos) return IdFault::TooLarge;
  if (t.front() >= '0' && t.front() <= '9') return IdFault::Fraction;  // 1.5, 2e3
  return IdFault::NotANumber;                                          // null, true
}

std::string_view idFaultText(IdFault f) {
  switch (f) {
    case IdFault::String:
      return "a string";
    case IdFault::Fraction:
      return "not a whole number";
    case IdFault::Negative:
      return "negative";
    case IdFault::TooLarge:
      return "beyond 2^63";
    case IdFault::NotANumber:
    case IdFault::None:
      break;
  }
  return "not a number";
}

struct EtBatch {
  std::shared_ptr<EtStorage> storage;  // the nodes' views' target: their parser's
  std::vector<EtNode> nodes;
  std::vector<EtPlusFields> plus;  // beside nodes, when the ET+ fields are read
  ProblemLog problems;
  std::size_t bytes = 0;  // of the batch's JSON
};

// The member and attribute names the reader knows, looked up once per key (a chain of string
// compares per key was a tenth of the flat layout's read).
enum class Field : std::uint8_t {
  Other,
  // node members
  Id,
  Name,
  Parent,
  Inputs,
  Outputs,
  InputShapes,
  InputTypes,
  InputStrides,
  OutputShapes,
  OutputTypes,
  OutputStrides,
  Attrs,
  // attributes (node members in the flat layout)
  RfId,
  FwParent,
  SeqId,
  Scope,
  Tid,
  FwTid,
  OpSchema,
  KernelBackend,
  KernelFile,
  CollectiveName,
  Dtype,
  InMsgNelems,
  OutMsgNelems,
  InSplitSize,
  OutSplitSize,
  PgName,
  PgDesc,
  PgSize,
  GlobalRankStart,
  GlobalRankStride,
  // ET+ members
  Ts,
  InclusiveDur,
  ExclusiveDur,
  BlockedDur,
  InterThreadDep,
  SyncDep,
  Cat,
  Stream,
  UserAnnotation
};

Field fieldOf(std::string_view key) {
  static const std::unordered_map<std::string_view, Field> fields = {
      {"id", Field::Id},
      {"name", Field::Name},
      {"parent", Field::Parent},
      {"ctrl_deps", Field::Parent},
      {"inputs", Field::Inputs},
      {"outputs", Field::Outputs},
      {"input_shapes", Field::InputShapes},
      {"input_types", Field::InputTypes},
      {"input_strides", Field::InputStrides},
      {"output_shapes", Field::OutputShapes},
      {"output_types", Field::OutputTypes},
      {"output_strides", Field::OutputStrides},
      {"attrs", Field::Attrs},
      {"rf_id", Field::RfId},
      {"fw_parent", Field::FwParent},
      {"seq_id", Field::SeqId},
      {"scope", Field::Scope},
      {"tid", Field::Tid},
      {"fw_tid", Field::FwTid},
      {"op_schema", Field::OpSchema},
      {"kernel_backend", Field::KernelBackend},
      {"kernel_file", Field::KernelFile},
      {"collective_name", Field::CollectiveName},
      {"dtype", Field::Dtype},
      {"in_msg_nelems", Field::InMsgNelems},
      {"out_msg_nelems", Field::OutMsgNelems},
      {"in_split_size", Field::InSplitSize},
      {"out_split_size", Field::OutSplitSize},
      {"pg_name", Field::PgName},
      {"pg_desc", Field::PgDesc},
      {"pg_size", Field::PgSize},
      {"global_rank_start", Field::GlobalRankStart},
      {"global_rank_stride", Field::GlobalRankStride},
      {"ts", Field::Ts},
      {"inclusive_dur", Field::InclusiveDur},
      {"exclusive_dur", Field::ExclusiveDur},
      {"blocked_dur", Field::BlockedDur},
      {"inter_thread_dep", Field::InterThreadDep},
      {"sync_dep", Field::SyncDep},
      {"cat", Field::Cat},
      {"stream", Field::Stream},
      {"user_annotation", Field::UserAnnotation},
  };
  const auto it = fields.find(key);
  return it == fields.end() ? Field::Other : it->second;
}

// An ET+ field of a node (a top-level member) as readLinkedEt read them before with a SAX pass over
// each node's JSON, kept exactly: integers (as int64, or uint64 cast to it) are microseconds times
// 1000 (wrapping as it did), other numbers go through their decimal text, "sync_dep" takes the
// integers of its array up to a nested array, and a repeated member overrides (sync_dep appends).
void readPlusField(Field key, const AttrValue& value, EtPlusFields& f, EtStorage& storage) {
  if (f.unreadable) return;
  auto time = [&](TimeNs ns) {
    if (key == Field::Ts)
      f.ts = ns, f.hasTs = true;
    else if (key == Field::InclusiveDur)
      f.inclusiveDur = ns;
    else if (key == Field::ExclusiveDur)
      f.exclusiveDur = ns;
    else if (key == Field::BlockedDur)  // Sutra's own field: chakra_trace_link writes none
      f.blockedDur = ns;
  };
  auto integer = [&](std::int64_t v) {
    time(static_cast<std::int64_t>(static_cast<std::uint64_t>(v) * 1000u));
    if (key == Field::Stream)
      f.stream = v;
    else if (key == Field::InterThreadDep)
      f.interThreadDep = v, f.hasInterThreadDep = true;
  };
  if (value.isString) {
    if (key == Field::Cat)
      f.cat = storage.intern(value.text), f.hasCat = true;
    else if (key == Field::PgName)
      f.pgName = storage.intern(value.text);
    return;
  }
  const std::string_view t = trimJsonToken(value.text);
  if (t.empty()) {  // an array or an object
    if (key != Field::SyncDep || !value.raw.starts_with("[")) return;
    const char* p = value.raw.data() + 1;
    const char* end = value.raw.data() + value.raw.size() - 1;  // at the ']'
    while (p < end) {  // "[1, 2, [3], {...}]": the integers until a nested array
      while (p < end && (*p == ' ' || *p == ',' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
      if (p >= end || *p == '[') break;
      const char* q = p;
      if (*p == '{' || *p == '"') return;  // sync_dep as Sutra and chakra write it has neither
      while (q < end && *q != ',' && *q != ' ' && *q != '\n' && *q != '\r' && *q != '\t') ++q;
      std::int64_t v = 0;
      std::uint64_t u = 0;
      if (std::from_chars(p, q, v).ptr == q)
        f.syncDeps.push_back(v);
      else if (std::from_chars(p, q, u).ptr == q)
        f.syncDeps.push_back(static_cast<std::int64_t>(u));
      p = q;
    }
    return;
  }
  if (t == "true" || t == "false") {
    if (key == Field::UserAnnotation) f.annotation = t == "true";
    return;
  }
  if (t == "null") return;
  std::int64_t v = 0;
  std::uint64_t u = 0;
  const char* e = t.data() + t.size();
  if (std::from_chars(t.data(), e, v).ptr == e) return integer(v);
  if (t.front() != '-' && std::from_chars(t.data(), e, u).ptr == e)
    return integer(static_cast<std::int64_t>(u));
  if (const std::string copy(t); !std::isfinite(std::strtod(copy.c_str(), nullptr))) {
    f.unreadable = true;
    return;
  }
  if (auto ns = microsTextToNanos(t)) time(*ns);
  if (key == Field::Stream || key == Field::InterThreadDep)
    if (auto n = integerText(t)) integer(*n);
}

class NodeParser {
 public:
  NodeParser(const std::string& path, bool plus) : path_(path), plus_(plus) {}
  Result<EtBatch> parse(const JsonBatch& batch);
  // Every batch is read: frees the lookup tables of the parser's storage.
  void finish() { storage_->forgetShared(); }

 private:
  Status parseNode(od::object& object, std::uint64_t where, EtBatch& out);
  void fillArgs(EtArgs& args, EtArgsSignature& sig, std::string_view values,
                std::string_view shapes, std::string_view types, std::string_view strides,
                std::string_view& stridesJson, EtBatch& out, std::int64_t nodeId);
  bool fillFromElements(EtArgs& args, EtArgsSignature& sig, const dom::element* types,
                        const dom::element* shapes, const dom::element* values, EtStorage& storage);
  void collectTensors(dom::element value, std::string_view type, EtStorage& storage);

  const std::string& path_;
  const bool plus_;
  // One arena per parser (thread), not per batch: the texts and lists of the whole file are
  // shared, and a few arenas leave less of their last block empty than hundreds.
  std::shared_ptr<EtStorage> storage_ = std::make_shared<EtStorage>();
  od::parser parser_;
  dom::parser dom_;
  // Lists are gathered here, then copied into the batch's storage at their exact size.
  std::vector<std::string_view> types_, extraAttrs_;
  std::vector<EtShape> shapes_;
  std::vector<std::int64_t> dims_;
  std::vector<EtTensor> tensors_;
  std::string minified_;
};

// Sets the attribute Sutra knows by `name` (texts kept in `storage`, communication attributes in
// `comm`); false for any other (the caller keeps it raw).
bool setAttr(EtNode& node, EtNodeDetails& details, std::optional<EtComm>& commAttrs,
             EtStorage& storage, Field name, const AttrValue& value) {
  auto comm = [&]() -> EtComm& {
    if (!commAttrs) commAttrs.emplace();
    return *commAttrs;
  };
  auto asString = [&](const AttrValue& v) { return storage.intern(asText(v)); };
  switch (name) {
    case Field::RfId:
      node.rfId = asInt(value, -1);
      break;
    case Field::FwParent:
      node.fwParent = asInt(value, 0);
      break;
    case Field::SeqId:
      node.seqId = asInt(value, -1);
      break;
    case Field::Scope:
      node.scope = asInt(value, 0);
      break;
    case Field::Tid:
      node.tid = asInt(value, 0);
      break;
    case Field::FwTid:
      node.fwTid = asInt(value, 0);
      break;
    case Field::OpSchema:
      node.opSchema = asString(value);
      break;
    case Field::KernelBackend:
      details.kernelBackend = asString(value);
      break;
    case Field::KernelFile:
      details.kernelFile = asString(value);
      break;
    case Field::CollectiveName:
      comm().collectiveName = asString(value);
      break;
    case Field::Dtype:
      comm().dtype = asString(value);
      break;
    case Field::InMsgNelems:
      comm().inMsgNelems = asInt(value, 0);
      break;
    case Field::OutMsgNelems:
      comm().outMsgNelems = asInt(value, 0);
      break;
    case Field::InSplitSize:
      comm().inSplitSize = asString(value);
      break;
    case Field::OutSplitSize:
      comm().outSplitSize = asString(value);
      break;
    case Field::PgName:
      comm().pgName = asString(value);
      break;
    case Field::PgDesc:
      comm().pgDesc = asString(value);
      break;
    case Field::PgSize:
      comm().pgSize = asInt(value, 0);
      break;
    case Field::GlobalRankStart:
      comm().globalRankStart = asInt(value, 0);
      break;
    case Field::GlobalRankStride:
      comm().globalRankStride = asInt(value, 1);
      break;
    default:
      return false;
  }
  return true;
}

// A tensor value: [tensor_id, storage_id, offset, numel, itemsize, device].
bool readTensor(dom::element v, EtTensor& t, EtStorage& storage) {
  dom::array a;
  if (v.get_array().get(a) || a.size() < 6) return false;
  std::int64_t fields[5];
  for (std::size_t k = 0; k < 5; ++k) {
    auto item = a.at(k);
    if (item.error()) return false;
    if (item.is_int64())
      fields[k] = item.get_int64().value_unsafe();
    else if (item.is_uint64())
      fields[k] = static_cast<std::int64_t>(item.get_uint64().value_unsafe());
    else
      return false;
  }
  std::string_view device;
  if (a.at(5).get_string().get(device)) return false;
  t = EtTensor{fields[0], fields[1], fields[2], fields[3], fields[4], storage.intern(device)};
  return true;
}

void NodeParser::collectTensors(dom::element value, std::string_view type, EtStorage& storage) {
  EtTensor t;
  if (type.starts_with("Tensor(") && readTensor(value, t, storage)) {
    tensors_.push_back(t);
  } else if (type.find("Tensor") != std::string_view::npos && value.is_array()) {
    // GenericList[Tensor(float),...], TensorList: lists of tensors, possibly nested.
    dom::array valueItems = value.get_array().value_unsafe();
    for (dom::element item : valueItems) {
      if (readTensor(item, t, storage))
        tensors_.push_back(t);
      else if (item.is_array())
        collectTensors(item, type, storage);
    }
  }
}

// types, shapes and values of one side, each given as a parsed element or absent (nullptr):
// false where one is there but no array (the caller warns; what was read before stays).
// Each list is added to what the side holds already (a repeated member adds to it) and kept.
bool NodeParser::fillFromElements(EtArgs& args, EtArgsSignature& sig, const dom::element* types,
                                  const dom::element* shapes, const dom::element* values,
                                  EtStorage& storage) {
  if (types) {
    if (!types->is_array()) return false;
    dom::array tItems = types->get_array().value_unsafe();
    types_.assign(sig.types.begin(), sig.types.end());
    for (dom::element type : tItems) {
      std::string_view s;
      types_.push_back(type.get_string().get(s) ? std::string_view() : storage.intern(s));
    }
    sig.types = storage.copyShared(std::span<const std::string_view>(types_));
  }
  if (shapes) {
    if (!shapes->is_array()) return false;
    dom::array sItems = shapes->get_array().value_unsafe();
    shapes_.assign(sig.shapes.begin(), sig.shapes.end());
    for (dom::element shape : sItems) {
      dims_.clear();
      if (shape.is_array()) {
        dom::array shapeItems = shape.get_array().value_unsafe();
        for (dom::element d : shapeItems) {
          if (!d.is_int64()) {  // a list of shapes (TensorList): no single shape
            dims_.clear();
            break;
          }
          dims_.push_back(d.get_int64().value_unsafe());
        }
      }
      shapes_.push_back(storage.copyShared(std::span<const std::int64_t>(dims_)));
    }
    sig.shapes = storage.copyShared(std::span<const EtShape>(shapes_));
  }
  if (values) {
    if (!values->is_array()) return false;
    std::size_t k = 0;
    tensors_.assign(args.tensors.begin(), args.tensors.end());
    dom::array vItems = values->get_array().value_unsafe();
    for (dom::element value : vItems) {
      collectTensors(value, k < sig.types.size() ? sig.types[k] : std::string_view(), storage);
      ++k;
    }
    args.tensors = storage.copyRecent(std::span<const EtTensor>(tensors_));
  }
  return true;
}

// The flat layout (1.0.1): values, shapes and types are separate members of the node, as raw text.
void NodeParser::fillArgs(EtArgs& args, EtArgsSignature& sig, std::string_view values,
                          std::string_view shapes, std::string_view types, std::string_view strides,
                          std::string_view& stridesJson, EtBatch& out, std::int64_t nodeId) {
  EtStorage& storage = *out.storage;
  args.valuesJson = values.empty() ? std::string_view("[]") : storage.copyRecent(values);
  sig.shapesJson = shapes.empty() ? std::string_view("[]") : storage.intern(shapes);
  stridesJson = storage.intern(strides);
  auto unreadable = [&] {
    out.problems.add(Severity::Warning, "ET node with unreadable inputs or outputs",
                     "node " + std::to_string(nodeId));
  };
  // One text at a time: the parser holds one document.
  dom::element e;
  if (!types.empty() && (dom_.parse(types.data(), types.size()).get(e) ||
                         !fillFromElements(args, sig, &e, nullptr, nullptr, storage)))
    return unreadable();
  if (dom_.parse(sig.shapesJson.data(), sig.shapesJson.size()).get(e) ||
      !fillFromElements(args, sig, nullptr, &e, nullptr, storage))
    return unreadable();
  if (dom_.parse(args.valuesJson.data(), args.valuesJson.size()).get(e) ||
      !fillFromElements(args, sig, nullptr, nullptr, &e, storage))
    return unreadable();
}

Status NodeParser::parseNode(od::object& object, std::uint64_t where, EtBatch& out) {
  // Parsed in place: an EtNode is large, and moving each into the batch cost a tenth of the read.
  EtNode& node = out.nodes.emplace_back();
  EtPlusFields* plus = plus_ ? &out.plus.emplace_back() : nullptr;
  auto skip = [&] {
    out.nodes.pop_back();
    if (plus_) out.plus.pop_back();
  };
  EtStorage& storage = *out.storage;
  std::optional<EtComm> comm;
  EtNodeDetails details;
  EtArgsSignature inSig, outSig;  // shared in the storage once the node is read
  extraAttrs_.clear();
  auto malformed = [&](simdjson::error_code err) {
    return makeError(path_, "malformed ET node near byte " + std::to_string(where) + ": " +
                                simdjson::error_message(err));
  };
  bool hasId = false;
  IdFault idFault = IdFault::None, parentFault = IdFault::None;
  std::string_view badId, badParent;
  // Either layout: values in {values, shapes, types} objects, or flat lists beside the node's keys.
  std::string_view inValues, inShapes, inTypes, inStrides, outValues, outShapes, outTypes,
      outStrides;
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return malformed(err);
    const Field k = fieldOf(key);  // before the value is read: that ends the key's view
    AttrValue value;
    if (!readValue(field.value(), value)) return malformed(simdjson::INCORRECT_TYPE);
    if (k == Field::Id) {
      idFault = readId(value, node.id);
      badId = value.raw;
      hasId = true;
    } else if (k == Field::Name)
      node.name = storage.intern(asText(value));
    else if (k == Field::Parent) {
      if (const IdFault f = readId(value, node.parent); f != IdFault::None) {
        node.parent = -1;
        parentFault = f;
        badParent = value.raw;
      }
    } else if (k == Field::Inputs || k == Field::Outputs) {
      const bool in = k == Field::Inputs;
      if (value.raw.starts_with("{")) {
        // {values, shapes, types[, strides]}: a small object, read as a DOM (a second On Demand
        // document on the same parser would end the node's iteration), once: its members' text
        // is kept minified and their items read from the same DOM.
        dom::element e;
        if (auto err = dom_.parse(value.raw.data(), value.raw.size()).get(e)) return malformed(err);
        EtArgs& args = in ? node.inputs : node.outputs;
        EtArgsSignature& sig = in ? inSig : outSig;
        std::string_view& stridesJson = in ? details.inputStridesJson : details.outputStridesJson;
        dom::element values, shapes, types, strides;
        const bool hasValues = !e.at_key("values").get(values),
                   hasShapes = !e.at_key("shapes").get(shapes),
                   hasTypes = !e.at_key("types").get(types),
                   hasStrides = !e.at_key("strides").get(strides);
        // Shapes and strides repeat from op to op; values (tensor ids) from step to step.
        auto minified = [&](const dom::element& element, bool shared) {
          minified_ = simdjson::minify(element);
          return shared ? storage.intern(minified_) : storage.copyRecent(minified_);
        };
        args.valuesJson = hasValues ? minified(values, false) : std::string_view("[]");
        sig.shapesJson = hasShapes ? minified(shapes, true) : std::string_view("[]");
        if (hasStrides) stridesJson = minified(strides, true);
        if (!fillFromElements(args, sig, hasTypes ? &types : nullptr, hasShapes ? &shapes : nullptr,
                              hasValues ? &values : nullptr, storage))
          out.problems.add(Severity::Warning, "ET node with unreadable inputs or outputs",
                           "node " + std::to_string(node.id));
      } else {
        (in ? inValues : outValues) = value.raw;
      }
    } else if (k == Field::InputShapes)
      inShapes = value.raw;
    else if (k == Field::InputTypes)
      inTypes = value.raw;
    else if (k == Field::InputStrides)
      inStrides = value.raw;
    else if (k == Field::OutputShapes)
      outShapes = value.raw;
    else if (k == Field::OutputTypes)
      outTypes = value.raw;
    else if (k == Field::OutputStrides)
      outStrides = value.raw;
    else if (k == Field::Attrs) {
      dom::element attrs;
      if (auto err = dom_.parse(value.raw.data(), value.raw.size()).get(attrs))
        return malformed(err);
      if (!attrs.is_array()) continue;
      dom::array attrsItems = attrs.get_array().value_unsafe();
      for (dom::element attr : attrsItems) {
        std::string_view name;
        if (attr.at_key("name").get_string().get(name)) continue;
        dom::element v;
        AttrValue av;
        std::string rawValue;
        if (!attr.at_key("value").get(v)) {
          if (v.is_string()) {  // its text is all a known attribute reads
            av.isString = true, av.text = v.get_string().value_unsafe();
          } else {
            rawValue = simdjson::minify(v);
            av.raw = rawValue;
            if (!v.is_array() && !v.is_object()) av.text = rawValue;
          }
        }
        if (!setAttr(node, details, comm, storage, fieldOf(name), av)) {
          minified_ = simdjson::minify(attr);
          extraAttrs_.push_back(storage.copy(minified_));
        }
      }
    } else {
      if (plus) readPlusField(k, value, *plus, storage);
      if (k == Field::Cat && value.isString) details.category = storage.intern(value.text);
      // The flat layout: rf_id, tid ... are node members.
      setAttr(node, details, comm, storage, k, value);
    }
  }
  if (comm) node.comm = storage.make(*comm);
  details.extraAttrsJson = storage.copy(std::span<const std::string_view>(extraAttrs_));
  if (!inValues.empty())
    fillArgs(node.inputs, inSig, inValues, inShapes, inTypes, inStrides, details.inputStridesJson,
             out, node.id);
  if (!outValues.empty())
    fillArgs(node.outputs, outSig, outValues, outShapes, outTypes, outStrides,
             details.outputStridesJson, out, node.id);
  // Empty views and spans are all zero bytes: a node without details keeps the shared empty one.
  auto share = [&](const EtArgsSignature& sig) {
    if (std::memcmp(&sig, &kNoEtArgsSignature, sizeof sig) == 0) return &kNoEtArgsSignature;
    return storage.copyShared(std::span<const EtArgsSignature>(&sig, 1)).data();
  };
  node.inputs.signature = share(inSig);
  node.outputs.signature = share(outSig);
  if (std::memcmp(&details, &kNoEtNodeDetails, sizeof details) != 0)
    node.details = storage.copyShared(std::span<const EtNodeDetails>(&details, 1)).data();
  if (!hasId) {
    out.problems.add(Severity::Warning, "ET node without an id, skipped", std::string(node.name));
    skip();
    return Ok{};
  }
  if (idFault != IdFault::None) {
    out.problems.add(Severity::Warning,
                     "ET node id that is " + std::string(idFaultText(idFault)) + ", node skipped",
                     "id " + std::string(badId) + " (" + std::string(node.name) + ")");
    skip();
    return Ok{};
  }
  if (parentFault != IdFault::None)
    out.problems.add(
        Severity::Warning,
        "ET node parent id that is " + std::string(idFaultText(parentFault)) + ", taken as none",
        "node " + std::to_string(node.id) + " (" + std::string(node.name) + "): parent " +
            std::string(badParent));
  return Ok{};
}

Result<EtBatch> NodeParser::parse(const JsonBatch& batch) {
  EtBatch out;
  out.storage = storage_;
  out.nodes.reserve(batch.size / 512 + 16);  // real ETs hold 500-1,000 bytes a node
  if (plus_) out.plus.reserve(batch.size / 512 + 16);
  out.bytes = batch.size;
  auto fail = [&](simdjson::error_code code) -> Error {
    return makeError(path_, "malformed JSON near byte " + std::to_string(batch.fileOffset) +
                                " in nodes: " + simdjson::error_message(code));
  };
  od::document doc;
  if (auto err = parser_.iterate(batch.data, batch.size, batch.capacity).get(doc)) return fail(err);
  od::array nodes;
  if (auto err = doc.get_array().get(nodes)) return fail(err);
  for (auto element : nodes) {
    od::object object;
    if (auto err = element.get_object().get(object)) {
      if (err != simdjson::INCORRECT_TYPE) return fail(err);
      out.problems.add(Severity::Warning, "ET node that is not a JSON object, skipped");
      continue;
    }
    if (auto s = parseNode(object, batch.fileOffset, out); !s) return s.error();
  }
  return out;
}

// Merges the batches in file order into trace.nodes, reserved ahead from the first batch's bytes
// per node where the file's size is its content's: growing it node by node moved every node about
// once more and touched its memory twice (with the page faults, a third of the read). With a sink
// (ET+), each node's ET+ fields go to it as the node is merged, and device nodes are not kept.
class EtMerger {
 public:
  EtMerger(EtTrace& trace, const EtPlusSink* sink, std::uint64_t contentBytes)
      : trace_(trace), sink_(sink), contentBytes_(contentBytes) {}

  void add(EtBatch&& batch) {
    trace_.problems.merge(batch.problems);
    if (std::find(trace_.storage.begin(), trace_.storage.end(), batch.storage) ==
        trace_.storage.end())
      trace_.storage.push_back(std::move(batch.storage));
    if (!reserved_ && !batch.nodes.empty()) {
      reserved_ = true;
      std::size_t expected = 0;
      if (contentBytes_ > 0) {
        const double perNode = static_cast<double>(batch.bytes) / batch.nodes.size();
        expected = static_cast<std::size_t>(1.25 * contentBytes_ / perNode) + 16;
        trace_.nodes.reserve(expected);  // untouched pages of an overestimate cost no memory
      }
      if (sink_ && sink_->expect) sink_->expect(expected);
    }
    for (std::size_t i = 0; i < batch.nodes.size(); ++i) {
      EtNode& node = batch.nodes[i];
      if (sink_ && batch.plus[i].hasCat) {
        sink_->node(node, std::move(batch.plus[i]), -1);
        continue;
      }
      auto index = static_cast<std::uint32_t>(trace_.nodes.size());
      if (auto [at, fresh] = trace_.indexById.insert(node.id, index); !fresh) {
        trace_.problems.add(Severity::Warning, "ET node id used twice (the later node is kept)",
                            "id " + std::to_string(node.id));
        index = at;
        trace_.nodes[index] = std::move(node);
      } else {
        trace_.nodes.push_back(std::move(node));
      }
      if (sink_) sink_->node(trace_.nodes[index], std::move(batch.plus[i]), index);
    }
  }

 private:
  EtTrace& trace_;
  const EtPlusSink* sink_;
  std::uint64_t contentBytes_;  // 0 where unknown (gzip)
  bool reserved_ = false;
};

// The parent links of the whole file: parents absent from it, nodes that are their own parent
// (only the process root may be: torch writes it so), and cycles of parents.
void checkParents(EtTrace& trace) {
  const auto& nodes = trace.nodes;
  auto isRoot = [](const EtNode& n) {
    return n.name.starts_with("[pytorch|profiler|execution_") && n.name.ends_with("|process]");
  };
  std::uint64_t missing = 0, selfParent = 0, onCycle = 0;
  std::string missingExample, selfExample, cycleExample;
  std::vector<std::uint32_t> parentIndex(nodes.size(), UINT32_MAX);
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    const EtNode& n = nodes[i];
    if (n.parent < 0) continue;
    if (n.parent == n.id) {
      if (!isRoot(n) && selfParent++ == 0)
        selfExample = "node " + std::to_string(n.id) + " (" + std::string(n.name) + ")";
      continue;
    }
    const std::uint32_t parent = trace.indexById.find(n.parent);
    if (parent == IdIndex::kNone) {
      if (missing++ == 0)
        missingExample = "node " + std::to_string(n.id) + " (" + std::string(n.name) +
                         "): parent " + std::to_string(n.parent);
      continue;
    }
    parentIndex[i] = parent;
  }
  // Walk each chain of parents once: 0 not seen, 1 on the chain being walked, 2 done.
  std::vector<std::uint8_t> state(nodes.size(), 0);
  std::vector<std::uint32_t> chain;
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    chain.clear();
    std::uint32_t j = i;
    while (j != UINT32_MAX && state[j] == 0) {
      state[j] = 1;
      chain.push_back(j);
      j = parentIndex[j];
    }
    if (j != UINT32_MAX && state[j] == 1) {  // back on this chain: a cycle from j
      const auto from = std::find(chain.begin(), chain.end(), j);
      if (onCycle == 0) {
        for (auto k = from; k != chain.end(); ++k)
          cycleExample += (k == from ? "ids " : " -> ") + std::to_string(nodes[*k].id);
        cycleExample += " -> " + std::to_string(nodes[j].id);
      }
      onCycle += static_cast<std::uint64_t>(chain.end() - from);
    }
    for (std::uint32_t k : chain) state[k] = 2;
  }
  if (missing > 0)
    trace.problems.add(Severity::Warning, "ET node whose parent is not in the file", missing,
                       missingExample);
  if (selfParent > 0)
    trace.problems.add(Severity::Warning, "ET node that is its own parent (not the process root)",
                       selfParent, selfExample);
  if (onCycle > 0)
    trace.problems.add(Severity::Warning, "ET nodes on a cycle of parents", onCycle, cycleExample);
}

}  // namespace

namespace {

// A file's size and modification time, to tell whether it changed since it was read.
std::optional<std::pair<std::uint64_t, std::int64_t>> fileIdentity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::pair{static_cast<std::uint64_t>(st.st_size),
                   static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

Result<EtTrace> readEt(const std::string& path, const ProgressFn& progress,
                       const EtPlusSink* plus) {
  auto opened = ByteSource::open(path);
  if (!opened) return opened.error();
  ByteSource& source = **opened;
  EtTrace trace;
  trace.path = path;
  if (const auto when = fileIdentity(path)) std::tie(trace.fileSize, trace.fileModifiedNs) = *when;
  std::vector<std::pair<std::string, std::string>> members;

  const unsigned workers = parseWorkerCount();
  std::vector<NodeParser> parsers;
  for (unsigned w = 0; w < BatchPipeline<EtBatch>::parserCount(workers); ++w)
    parsers.emplace_back(path, plus != nullptr);
  EtMerger merger(trace, plus, source.compressed() ? 0 : source.fileSize());
  BatchPipeline<EtBatch> pipeline(
      workers, [&](unsigned w, const JsonBatch& batch) { return parsers[w].parse(batch); },
      [&](EtBatch&& batch) { merger.add(std::move(batch)); });
  JsonStreamHandlers handlers;
  handlers.onBatch = [&](const JsonBatch& batch) { return pipeline.submit(batch); };
  handlers.onMember = [&](std::string_view key, std::string_view raw) {
    members.emplace_back(key, raw);
  };
  if (progress)
    handlers.onProgress = [&](std::uint64_t) {
      return progress(source.fileBytesRead(), source.fileSize());
    };
  // Half-megabyte batches: each parser's buffers grow to its largest batch (simdjson's structural
  // index alone takes 4 bytes a byte), and with 1 MB ones the parsers and the batches in flight
  // held ~14 MiB more at the read's peak for no CPU time saved (100 MB ETs, side by side).
  auto summary = streamJsonArray(source, "nodes", handlers, 512 << 10);
  auto finished = pipeline.finish();
  for (NodeParser& parser : parsers) parser.finish();
  // A batch that failed lies before wherever the scanner stopped: its error comes first in the
  // file, and taking it first makes the message the same whichever thread noticed its error first.
  if (!finished) return finished.error();
  if (!summary) return summary.error();
  if (summary->topLevelArray)
    return makeError(
        path,
        "not a PyTorch execution trace: the document is an array, not an object with \"nodes\"");
  if (!summary->foundArray) {
    for (const auto& [k, v] : members)
      if (k == "nodes")
        return makeError(path, "not a PyTorch execution trace: nodes is not an array (found " +
                                   std::string(jsonValueKind(v)) + ")");
    return makeError(path, "not a PyTorch execution trace: no \"nodes\" array");
  }

  checkParents(trace);
  bool hasSchema = false;
  for (auto& [key, raw] : members) {
    auto v = nlohmann::json::parse(raw, nullptr, false);
    if (v.is_discarded()) continue;
    // integerText, not nlohmann's get: a float out of int64's range (1e68 in a fuzzed "pid")
    // would be undefined behaviour to convert.
    const std::string_view text = raw;  // a structured binding older clangs cannot capture
    auto integer = [&](std::int64_t fallback) {
      return integerText(trimJsonToken(text)).value_or(fallback);
    };
    if (key == "schema")
      trace.schema = v.is_string() ? v.get<std::string>() : v.dump(), hasSchema = true;
    else if (key == "pid")
      trace.pid = integer(0);
    else if (key == "time")
      trace.time = v.is_string() ? v.get<std::string>() : v.dump();
    else if (key == "start_ts")
      trace.startTs = integer(0);
    else if (key == "finish_ts")
      trace.finishTs = integer(0);
    else if (key == "distributedInfo")
      trace.distributedInfoJson = raw;
  }
  if (summary->controlCharactersReplaced > 0)
    trace.problems.add(
        Severity::Warning, "raw control characters in strings (replaced with spaces)",
        summary->controlCharactersReplaced, controlCharacterExample(*summary, "nodes"));
  if (!hasSchema)
    trace.problems.add(Severity::Warning, "ET without a \"schema\" version; read by shape");
  else if (!knownSchema(trace.schema))
    trace.problems.add(Severity::Warning, "ET schema version Sutra does not know; read by shape",
                       trace.schema);
  return trace;
}

}  // namespace

Result<EtTrace> readPytorchEt(const std::string& path, const ProgressFn& progress) {
  return readEt(path, progress, nullptr);
}

Result<EtTrace> readPytorchEtWithPlusFields(const std::string& path, const EtPlusSink& sink,
                                            const ProgressFn& progress) {
  return readEt(path, progress, &sink);
}

}  // namespace sutra

namespace sutra {

Status readEtNodeTexts(const EtTrace& et,
                       const std::function<void(std::int64_t id, std::string_view json)>& node) {
  const auto now = fileIdentity(et.path);
  if (!now || now->first != et.fileSize || now->second != et.fileModifiedNs)
    return makeError(et.path, now ? "changed since it was read: open it again"
                                  : "is no longer there: it was read from this path");
  auto opened = ByteSource::open(et.path);
  if (!opened) return opened.error();
  od::parser parser;
  JsonStreamHandlers handlers;
  handlers.onBatch = [&](const JsonBatch& batch) -> Status {
    auto fail = [&](simdjson::error_code code) -> Error {
      return makeError(et.path, "malformed JSON near byte " + std::to_string(batch.fileOffset) +
                                    " in nodes: " + simdjson::error_message(code));
    };
    od::document doc;
    if (auto err = parser.iterate(batch.data, batch.size, batch.capacity).get(doc))
      return fail(err);
    od::array nodes;
    if (auto err = doc.get_array().get(nodes)) return fail(err);
    for (auto element : nodes) {
      od::object object;
      std::string_view raw;
      if (element.get_object().get(object) || object.raw_json().get(raw)) continue;
      if (auto err = object.reset().error()) return fail(err);
      // The reader keeps the last "id" member of a node: so does this.
      bool found = false;
      std::int64_t id = 0;
      for (auto field : object) {
        std::string_view key;
        if (auto err = field.unescaped_key().get(key)) return fail(err);
        if (key != "id") continue;
        AttrValue value;
        if (!readValue(field.value(), value)) return fail(simdjson::INCORRECT_TYPE);
        found = readId(value, id) == IdFault::None;
      }
      if (found) node(id, raw);
    }
    return Ok{};
  };
  auto summary = streamJsonArray(**opened, "nodes", handlers, 1 << 20);
  if (!summary) return summary.error();
  return Ok{};
}

}  // namespace sutra
