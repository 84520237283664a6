// SPDX-License-Identifier: MIT
#include "run_handle.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace sutra::python {
namespace {

// What the worker thread tells the waiting one.
struct JobState {
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  bool progressPending = false;
  int percent = 0;
  std::string what;
  std::exception_ptr failure;  // a C++ exception the job threw (bad_alloc ...)
};

std::optional<RunStage> stageNamed(const std::string& name) {
  if (name == "read") return RunStage::Read;
  if (name == "link") return RunStage::Link;
  if (name == "analyse" || name == "analyze") return RunStage::Analyse;
  if (name == "simulate") return RunStage::Simulate;
  return std::nullopt;
}

RunOptions runOptions(const std::string& until, bool linkEt, bool eventArgs, bool chakraGraphs,
                      std::optional<int> onlyRank) {
  auto stage = stageNamed(until);
  if (!stage)
    throw nb::value_error(
        ("until: unknown stage '" + until + "' (read, link, analyse, simulate)").c_str());
  RunOptions options = RunOptions::upTo(*stage);
  options.linkEt = linkEt;
  options.eventArgs = eventArgs;
  options.chakraGraphs = chakraGraphs;
  options.onlyRank = onlyRank;
  return options;
}

// Opens with progress and cancel; `open` is openRun or openRankFiles bound to its inputs.
std::shared_ptr<RunHandle> openWith(
    const std::function<Result<Run>(const RunCallbacks&, const CancelToken&)>& open,
    const RunOptions& options, nb::handle progress) {
  std::optional<Result<Run>> opened;
  runCancellable(
      [&](const CancelToken& cancel, const ProgressSink& sink) {
        RunCallbacks callbacks;
        callbacks.progress = sink;
        opened.emplace(open(callbacks, cancel));
      },
      progress);
  auto handle = std::make_shared<RunHandle>();
  handle->run = valueOr(std::move(*opened));
  handle->options = options;
  return handle;
}

nb::dict rankInfo(const RankRun& rank) {
  nb::dict info;
  info["rank"] = rank.rank;
  info["kineto_path"] = rank.kinetoPath;
  info["et_path"] = rank.etPath;
  info["chakra_path"] = rank.chakraPath;
  info["et_link"] = describeEtLink(rank);
  info["events"] = rank.trace ? rank.trace->events.size() : 0;
  info["simulated"] = rank.simulation != nullptr;
  info["start_ns"] = rank.trace ? rank.trace->startNs : 0;
  info["end_ns"] = rank.trace ? rank.trace->endNs : 0;
  info["device"] = rank.trace ? rank.trace->meta.deviceBackend : std::string();
  nb::list problems;
  auto addProblems = [&](const ProblemLog& log, const char* where) {
    for (const Problem& p : log.all()) {
      nb::dict row;
      row["rank"] = rank.rank;
      row["where"] = where;
      row["severity"] = std::string(severityName(p.severity));
      row["problem"] = p.what;
      row["count"] = p.count;
      row["example"] = p.example;
      problems.append(row);
    }
  };
  if (rank.trace) addProblems(rank.trace->problems, "read");
  addProblems(rank.linkProblems(), "link");
  info["problems"] = problems;
  return info;
}

}  // namespace

void runCancellable(const std::function<void(const CancelToken&, const ProgressSink&)>& job,
                    nb::handle progress) {
  auto state = std::make_shared<JobState>();
  CancelToken cancel;
  const ProgressSink sink = [state](int percent, const std::string& what) {
    std::lock_guard lock(state->mutex);
    state->percent = percent;
    state->what = what;
    state->progressPending = true;
    state->changed.notify_all();
  };
  std::optional<nb::python_error> raised;
  {
    nb::gil_scoped_release release;
    std::thread worker([&job, &cancel, &sink, state] {
      try {
        job(cancel, sink);
      } catch (...) {
        state->failure = std::current_exception();
      }
      std::lock_guard lock(state->mutex);
      state->done = true;
      state->changed.notify_all();
    });
    std::unique_lock lock(state->mutex);
    while (!state->done) {
      state->changed.wait_for(lock, std::chrono::milliseconds(100));
      const bool report = state->progressPending && !raised;
      const int percent = state->percent;
      const std::string what = state->what;
      state->progressPending = false;
      lock.unlock();
      if (!raised) {
        nb::gil_scoped_acquire acquire;
        try {
          if (PyErr_CheckSignals() != 0) throw nb::python_error();
          if (report && progress.is_valid() && !progress.is_none()) progress(percent, what);
        } catch (nb::python_error& e) {
          raised.emplace(std::move(e));
          cancel.cancel();
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (raised) throw std::move(*raised);
  if (state->failure) std::rethrow_exception(state->failure);
}

void bindRun(nb::module_& m) {
  nb::class_<RunHandle>(m, "RunHandle")
      .def_prop_ro("paths", [](const RunHandle& h) { return h.run.paths; })
      .def_prop_ro("notes", [](const RunHandle& h) { return h.run.notes; })
      .def_prop_ro("rank_count", [](const RunHandle& h) { return h.run.ranks.size(); })
      .def(
          "rank_info",
          [](const RunHandle& h, std::size_t index) {
            if (index >= h.run.ranks.size()) throw nb::index_error("no such rank index");
            return rankInfo(*h.run.ranks[index]);
          },
          nb::arg("index"));

  m.def(
      "open_run",
      [](const std::vector<std::string>& paths, const std::string& until, bool linkEt,
         bool eventArgs, bool chakraGraphs, std::optional<int> onlyRank, nb::object progress) {
        const RunOptions options = runOptions(until, linkEt, eventArgs, chakraGraphs, onlyRank);
        return openWith(
            [&](const RunCallbacks& callbacks, const CancelToken& cancel) {
              return openRun(paths, options, callbacks, cancel);
            },
            options, progress);
      },
      nb::arg("paths"), nb::arg("until"), nb::arg("link_et"), nb::arg("event_args"),
      nb::arg("chakra_graphs"), nb::arg("only_rank").none(), nb::arg("progress").none(),
      "Opens files and folders through core's run API (openRun).");

  m.def(
      "open_rank_files",
      [](const std::vector<nb::dict>& ranks, const std::string& until, bool linkEt, bool eventArgs,
         nb::object progress) {
        std::vector<RankFiles> files;
        for (const nb::dict& d : ranks) {
          RankFiles f;
          auto text = [&](const char* key) {
            return d.contains(key) && !d[key].is_none() ? nb::cast<std::string>(d[key])
                                                        : std::string();
          };
          if (d.contains("rank") && !d["rank"].is_none()) f.rank = nb::cast<int>(d["rank"]);
          f.kineto = text("kineto");
          f.et = text("et");
          f.chakra = text("chakra");
          files.push_back(std::move(f));
        }
        const RunOptions options = runOptions(until, linkEt, eventArgs, true, std::nullopt);
        return openWith(
            [&](const RunCallbacks& callbacks, const CancelToken& cancel) {
              return openRankFiles(files, options, callbacks, cancel);
            },
            options, progress);
      },
      nb::arg("ranks"), nb::arg("until"), nb::arg("link_et"), nb::arg("event_args"),
      nb::arg("progress").none(), "Opens ranks given file by file (openRankFiles).");

  m.def(
      "advance_run",
      [](const RunHandle& handle, const std::string& until, nb::object progress) {
        RunOptions options = handle.options;
        options.until = runOptions(until, options.linkEt, options.eventArgs, options.chakraGraphs,
                                   options.onlyRank)
                            .until;
        return openWith(
            [&](const RunCallbacks& callbacks, const CancelToken& cancel) {
              return advanceRun(handle.run, options.until, options, callbacks, cancel);
            },
            options, progress);
      },
      nb::arg("handle"), nb::arg("until"), nb::arg("progress").none(),
      "The run continued up to a later stage (advanceRun): what it has is reused, not read again.");
}

}  // namespace sutra::python
