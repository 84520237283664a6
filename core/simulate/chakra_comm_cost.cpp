// SPDX-License-Identifier: MIT
#include "simulate/chakra_comm_cost.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace sutra {
namespace {

using ChakraProtoMsg::Node;

// Walks PyTorch's process-group records wherever they sit: a list of objects, or a JSON text
// inside a string (how an ET records an op's input values).
void collectGroups(const nlohmann::json& j, std::int64_t worldSize,
                   std::map<std::string, std::int64_t>& out, int depth) {
  if (depth > 8) return;
  if (j.is_string()) {
    const auto inner = nlohmann::json::parse(j.get<std::string>(), nullptr, false);
    if (!inner.is_discarded() && (inner.is_array() || inner.is_object()))
      collectGroups(inner, worldSize, out, depth + 1);
    return;
  }
  if (j.is_array()) {
    for (const auto& item : j) collectGroups(item, worldSize, out, depth + 1);
    return;
  }
  if (!j.is_object()) return;
  const auto name = j.find("pg_name");
  if (name == j.end()) return;
  std::string key;
  if (name->is_string()) key = name->get<std::string>();
  if (name->is_number_integer()) key = std::to_string(name->get<std::int64_t>());
  if (key.empty()) return;
  std::int64_t size = 0;
  if (const auto ranks = j.find("ranks"); ranks != j.end() && ranks->is_array())
    size = static_cast<std::int64_t>(ranks->size());
  for (const char* sizeKey : {"pg_size", "group_size", "size"})
    if (const auto it = j.find(sizeKey); size == 0 && it != j.end() && it->is_number_integer())
      size = it->get<std::int64_t>();
  out[key] = size > 0 ? size : worldSize;
}

std::optional<CollectiveKind> collectiveKindOf(std::int64_t commType) {
  switch (commType) {
    case ChakraProtoMsg::ALL_REDUCE:
      return CollectiveKind::AllReduce;
    case ChakraProtoMsg::ALL_GATHER:
      return CollectiveKind::AllGather;
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK:
      return CollectiveKind::ReduceScatter;
    case ChakraProtoMsg::ALL_TO_ALL:
      return CollectiveKind::AllToAll;
    case ChakraProtoMsg::BROADCAST:
      return CollectiveKind::Broadcast;
    default:
      return std::nullopt;
  }
}

std::string commTypeText(std::int64_t type) {
  if (ChakraProtoMsg::CollectiveCommType_IsValid(static_cast<int>(type)))
    return ChakraProtoMsg::CollectiveCommType_Name(
        static_cast<ChakraProtoMsg::CollectiveCommType>(type));
  return "comm_type " + std::to_string(type);
}

}  // namespace

std::map<std::string, std::int64_t> processGroupSizes(const ChakraProtoMsg::GlobalMetadata& meta,
                                                      std::int64_t worldSize) {
  std::map<std::string, std::int64_t> out;
  for (const auto& attr : meta.attr()) {
    if (attr.name() != "pg_config" || !attr.has_string_val()) continue;
    const auto j = nlohmann::json::parse(attr.string_val(), nullptr, false);
    if (!j.is_discarded()) collectGroups(j, worldSize, out, 0);
  }
  return out;
}

Result<TimeNs> chakraCommCost(const Node& node, int rank,
                              const std::map<std::string, std::int64_t>& groupSizes,
                              std::int64_t worldSize, const NetworkModel& network) {
  const std::int64_t bytes = chakra::attrInt(node, "comm_size", -1);
  if (bytes < 0) return Error{"no comm_size"};
  const auto size = static_cast<std::uint64_t>(bytes);
  if (node.type() == ChakraProtoMsg::COMM_SEND_NODE) {
    const std::int64_t src = chakra::attrInt(node, "comm_src", rank);
    const std::int64_t dst = chakra::attrInt(node, "comm_dst", -1);
    return network.messageNs(src, dst, size);
  }
  if (node.type() == ChakraProtoMsg::COMM_RECV_NODE) {
    const std::int64_t src = chakra::attrInt(node, "comm_src", -1);
    const std::int64_t dst = chakra::attrInt(node, "comm_dst", rank);
    return network.messageNs(src, dst, size);
  }
  const std::int64_t type = chakra::attrInt(node, "comm_type", -1);
  const auto kind = collectiveKindOf(type);
  if (!kind) return Error{commTypeText(type) + " is not in the network model"};
  // ASTRA-sim's involved_dim, where the node has one, says which dimensions it spans.
  if (const auto* involved = chakra::findAttr(node, "involved_dim");
      involved && involved->has_bool_list()) {
    const auto& values = involved->bool_list().values();
    return network.collectiveOnDimensionsNs(*kind, size,
                                            std::vector<bool>(values.begin(), values.end()));
  }
  std::int64_t ranks = worldSize;
  if (const std::string pg = chakra::attrString(node, "pg_name"); !pg.empty())
    if (const auto it = groupSizes.find(pg); it != groupSizes.end()) ranks = it->second;
  if (ranks < 2) return TimeNs{0};  // a group of one moves nothing
  return network.collectiveNs(*kind, size, ranks);
}

}  // namespace sutra
