// SPDX-License-Identifier: MIT
#pragma once
// Which collective a communication op or kernel performs, from its name: NCCL/RCCL kernels
// ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclKernel_Broadcast_..."), c10d and
// record_param_comms names ("c10d::allreduce_", "nccl:all_reduce"), and the ET's collective_name
// ("all_gather").
#include <optional>
#include <string_view>

#include "et_def.pb.h"

namespace sutra::chakra {

enum class Collective {
  AllReduce,
  Reduce,
  AllGather,
  Gather,
  Scatter,
  Broadcast,
  AllToAll,
  ReduceScatter,
  Barrier,
  Send,
  Recv,
  SendRecv,  // NCCL's point-to-point kernel: send or recv is told by the op that launched it
};

// The collective named, or nullopt when the name names none.
std::optional<Collective> collectiveFromName(std::string_view name);
// A device op that is communication work: an NCCL or RCCL kernel.
bool isCommKernelName(std::string_view name);
// A host op that issues communication (c10d::*, nccl:*, record_param_comms).
bool isCommHostOpName(std::string_view name);
// The work of a collective as a CPU backend runs it on its own worker thread: gloo's
// "gloo:all_reduce", "gloo:broadcast" ... annotations (torch.distributed over gloo), which play
// the part an NCCL kernel plays on a GPU.
bool isCommWorkerName(std::string_view name);
std::string_view collectiveName(Collective c);
// The Chakra enum for a collective (Send, Recv and SendRecv have none).
std::optional<ChakraProtoMsg::CollectiveCommType> chakraCommType(Collective c);
// What ASTRA-sim simulates: all-reduce, all-gather, all-to-all, reduce-scatter, and broadcast
// (whose measured duration it replays); it rejects the others.
bool astraSimSupports(Collective c);

}  // namespace sutra::chakra
