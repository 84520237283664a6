// SPDX-License-Identifier: MIT
#pragma once
// The fast path for a batch of trace events. Kineto writes its events in one plain shape: objects
// of scalar fields and one flat-ish "args" object, ASCII, few escapes. For that shape a direct walk
// of the bytes gives the same RawEvents as simdjson On Demand (kineto_simdjson_parse.h) at a
// fraction of the cost: no separate structural index, one walk of the args instead of a skip and
// a walk. Wherever the batch holds anything else (escapes in a string that is read, a value of an
// unexpected type, invalid UTF-8, a syntax error, deep nesting) the scan gives up and the caller
// parses the batch again with simdjson, so messages and results stay exactly simdjson's.
#include "io/json_stream.h"
#include "io/kineto_event_fields.h"

namespace sutra {

// Hands each event of `batch` ("[{...}, ...]", padded as json_stream.h pads it) to `sink`, in
// file order. False where the batch is not exactly a list of plain events; the events handed
// over before that are then to be thrown away.
bool scanPlainKinetoEvents(const JsonBatch& batch, RawEventSink& sink);

}  // namespace sutra
