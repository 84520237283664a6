// SPDX-License-Identifier: MIT
#pragma once
// What a Chakra communication node with no measured duration costs on Sutra's network model:
// a collective by its comm_type and comm_size over the dimensions its involved_dim marks (as
// ASTRA-sim reads it), else over its process group (the group's size from the GlobalMetadata
// pg_config where the node's pg_name is listed there, else the world), a send or
// a recv as one message between its two ranks. Kept apart from the graph building so that the
// rules can be tested on their own.
#include <cstdint>
#include <map>
#include <string>

#include "chakra/et_file.h"
#include "chakra/network_model.h"

namespace sutra {

// pg_name -> number of ranks, from the GlobalMetadata attribute pg_config (PyTorch's process
// group records, as Sutra's converter keeps them; a group with an empty rank list is the world).
// Nothing readable: empty (every collective then spans the world).
std::map<std::string, std::int64_t> processGroupSizes(const ChakraProtoMsg::GlobalMetadata& meta,
                                                      std::int64_t worldSize);

// The node's time on the network (COMM_COLL_NODE, COMM_SEND_NODE, COMM_RECV_NODE of rank
// `rank`), or why it has none (a collective the model does not know, a peer outside the
// network, no comm_size).
Result<TimeNs> chakraCommCost(const ChakraProtoMsg::Node& node, int rank,
                              const std::map<std::string, std::int64_t>& groupSizes,
                              std::int64_t worldSize, const NetworkModel& network);

}  // namespace sutra
