// SPDX-License-Identifier: MIT
#include "chakra/collective.h"

#include <array>
#include <string>
#include <utility>

namespace sutra::chakra {
namespace {

std::string normalise(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '_' || c == '-' || c == ':' || c == ' ') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// Longest names first: "allreduce" before "reduce", "reducescatter" before "scatter".
constexpr std::array<std::pair<std::string_view, Collective>, 13> kNames = {{
    {"reducescatter", Collective::ReduceScatter},
    {"allreduce", Collective::AllReduce},
    {"allgather", Collective::AllGather},
    {"alltoall", Collective::AllToAll},
    {"broadcast", Collective::Broadcast},
    {"barrier", Collective::Barrier},
    {"sendrecv", Collective::SendRecv},
    {"send", Collective::Send},
    {"recv", Collective::Recv},
    {"reduce", Collective::Reduce},
    {"gather", Collective::Gather},
    {"scatter", Collective::Scatter},
    {"bcast", Collective::Broadcast},
}};

}  // namespace

std::optional<Collective> collectiveFromName(std::string_view name) {
  const std::string n = normalise(name);
  for (const auto& [key, c] : kNames)
    if (n.find(key) != std::string::npos) return c;
  return std::nullopt;
}

// "nccl" or "rccl" in the normalised name, found without building it: the converter asks this of
// every device op, and kernel names are long.
bool isCommKernelName(std::string_view name) {
  char last[4] = {0, 0, 0, 0};  // the last four characters kept by normalise, oldest first
  for (const char c : name) {
    if (c == '_' || c == '-' || c == ':' || c == ' ') continue;
    last[0] = last[1];
    last[1] = last[2];
    last[2] = last[3];
    last[3] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;  // only ASCII matters
    if (last[3] == 'l' && last[2] == 'c' && last[1] == 'c' && (last[0] == 'n' || last[0] == 'r'))
      return true;
  }
  return false;
}

bool isCommHostOpName(std::string_view name) {
  return name.starts_with("c10d::") || name.starts_with("nccl:") ||
         name.find("record_param_comms") != std::string_view::npos;
}

bool isCommWorkerName(std::string_view name) { return name.starts_with("gloo:"); }

std::string_view collectiveName(Collective c) {
  switch (c) {
    case Collective::AllReduce:
      return "all_reduce";
    case Collective::Reduce:
      return "reduce";
    case Collective::AllGather:
      return "all_gather";
    case Collective::Gather:
      return "gather";
    case Collective::Scatter:
      return "scatter";
    case Collective::Broadcast:
      return "broadcast";
    case Collective::AllToAll:
      return "all_to_all";
    case Collective::ReduceScatter:
      return "reduce_scatter";
    case Collective::Barrier:
      return "barrier";
    case Collective::Send:
      return "send";
    case Collective::Recv:
      return "recv";
    case Collective::SendRecv:
      return "send_recv";
  }
  return "unknown";
}

std::optional<ChakraProtoMsg::CollectiveCommType> chakraCommType(Collective c) {
  switch (c) {
    case Collective::AllReduce:
      return ChakraProtoMsg::ALL_REDUCE;
    case Collective::Reduce:
      return ChakraProtoMsg::REDUCE;
    case Collective::AllGather:
      return ChakraProtoMsg::ALL_GATHER;
    case Collective::Gather:
      return ChakraProtoMsg::GATHER;
    case Collective::Scatter:
      return ChakraProtoMsg::SCATTER;
    case Collective::Broadcast:
      return ChakraProtoMsg::BROADCAST;
    case Collective::AllToAll:
      return ChakraProtoMsg::ALL_TO_ALL;
    case Collective::ReduceScatter:
      return ChakraProtoMsg::REDUCE_SCATTER;
    case Collective::Barrier:
      return ChakraProtoMsg::BARRIER;
    default:
      return std::nullopt;
  }
}

bool astraSimSupports(Collective c) {
  return c == Collective::AllReduce || c == Collective::AllGather || c == Collective::AllToAll ||
         c == Collective::ReduceScatter || c == Collective::Broadcast;
}

}  // namespace sutra::chakra
