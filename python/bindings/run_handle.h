// SPDX-License-Identifier: MIT
#pragma once
// What the Python module holds of an opened run, and how a long core job runs under Python: on a
// worker thread with the GIL released, while the calling thread wakes a few times a second to
// hand progress to the Python callback and to let Python see Ctrl-C; a callback that raises (or
// KeyboardInterrupt) cancels the job through core's CancelToken and the exception goes on.
#include <nanobind/nanobind.h>

#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "session/run.h"
#include "sql/query_session.h"
#include "util/cancel_token.h"
#include "util/result.h"

namespace sutra::python {

namespace nb = nanobind;

// A core Result's error, raised in Python as sutra.SutraError with core's message (the file and
// the problem).
struct CoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An opened run, shared by the Python Run object and anything derived from it.
struct RunHandle {
  Run run;
  RunOptions options;
  // The SQL session over the run, opened by the first run.sql() and kept (its name order and row
  // lists are built once).
  std::mutex sqlOpening;
  std::unique_ptr<sql::QuerySession> sql;
};

// Reports progress from the worker thread: a percentage and what is being done.
using ProgressSink = std::function<void(int percent, const std::string& what)>;

// Runs `job` on a worker thread (GIL released) and waits for it, calling `progress(percent,
// what)` (a Python callable, or None) on this thread as the job reports, and checking for
// signals. A Python exception there cancels the job and is raised once the job has stopped.
void runCancellable(const std::function<void(const CancelToken&, const ProgressSink&)>& job,
                    nb::handle progress);

// The value of a Result, or CoreError with its message.
template <class T>
T valueOr(Result<T>&& result) {
  if (!result.ok()) throw CoreError(result.error().message);
  return std::move(result).value();
}

void bindRun(nb::module_& m);
void bindColumns(nb::module_& m);
void bindAnalyses(nb::module_& m);
void bindRankOverview(nb::module_& m);
void bindExports(nb::module_& m);
void bindQuery(nb::module_& m);
void bindAdvice(nb::module_& m);
void bindTimeline(nb::module_& m);

}  // namespace sutra::python
