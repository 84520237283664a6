// SPDX-License-Identifier: MIT
#pragma once
// Reading trace files into the model. Every reader streams (a multi-gigabyte file never becomes a
// DOM), accepts .json and .json.gz (detected by content, not name), counts recoverable problems in
// the result's ProblemLog and returns an Error naming the file and the problem otherwise.
#include <atomic>
#include <functional>
#include <string>

#include "model/et_trace.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra {

// Progress: bytes of the file consumed so far, and its size; return false to cancel.
using ProgressFn = std::function<bool(std::uint64_t done, std::uint64_t total)>;

Result<Trace> readKinetoTrace(const std::string& path, const ProgressFn& progress = {});
// The same, reading `chunkBytes` at a time instead of 512 KB: for tests and fuzzing, where small
// chunks make a small input take the paths of a large one (batches cut by guessing, buffers
// handed over, elements across chunk ends).
Result<Trace> readKinetoTraceInChunks(const std::string& path, std::size_t chunkBytes);
Result<EtTrace> readPytorchEt(const std::string& path, const ProgressFn& progress = {});
// Each node of the file `et` was read from, as its JSON text, with its id (a node the reader
// skipped is left out; of two with one id, the later comes last). The model keeps no node's
// text, so the ET+ writer reads it here again; an error where the file changed since.
Status readEtNodeTexts(const EtTrace& et,
                       const std::function<void(std::int64_t id, std::string_view json)>& node);

}  // namespace sutra
