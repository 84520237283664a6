// SPDX-License-Identifier: MIT
#pragma once
// The tables a query session registers, each made over the session's RunModel (which outlives
// them). Perfetto's tables (named and shaped as Perfetto's trace processor has them) in
// slice_table.cpp, track_tables.cpp, counter_tables.cpp, flow_args_tables.cpp; Sutra's own in
// op_tables.cpp (op, et_node, op_table), device_tables.cpp (kernel, launch, sync, collective,
// memory_event) and run_tables.cpp (rank, step).
#include <memory>
#include <vector>

#include "sql/run_model.h"
#include "sql/virtual_table.h"

namespace sutra::sql {

std::unique_ptr<Table> makeSliceTable(const RunModel& model);
// thread, process, thread_track, track
std::vector<std::unique_ptr<Table>> makeTrackTables(const RunModel& model);
// counter, counter_track
std::vector<std::unique_ptr<Table>> makeCounterTables(const RunModel& model);
// flow, args
std::vector<std::unique_ptr<Table>> makeFlowArgsTables(const RunModel& model);
// op, et_node, op_table
std::vector<std::unique_ptr<Table>> makeOpTables(const RunModel& model);
// kernel, launch, sync, collective, memory_event
std::vector<std::unique_ptr<Table>> makeDeviceTables(const RunModel& model);
// rank, step
std::vector<std::unique_ptr<Table>> makeRunTables(const RunModel& model);

// extract_arg(arg_set_id, key): one value of a slice's args, as Perfetto's EXTRACT_ARG.
int registerExtractArg(sqlite3* db, const RunModel& model);

}  // namespace sutra::sql
