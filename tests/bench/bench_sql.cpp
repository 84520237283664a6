// SPDX-License-Identifier: MIT
// sutra-bench-sql: SQL over a loaded run (core/sql), the two queries timed in-process on
// one loaded trace, and the memory the SQL layer adds beside the model's.
//   sutra-bench-sql RUN [--rounds N] [--windows N] [--export DIR] [--no-baseline]
// Q1 is `SELECT name, count(*), sum(dur) FROM slice GROUP BY name` (goal < 1 s on 3 M slices); Q2
// a 1 ms time window, `SELECT id, ts, dur, name FROM slice WHERE ts >= T AND ts < T + 1000000`,
// at N window starts spread over the trace (goal < 10 ms). Medians of CPU and wall time.
// Memory: resident memory after loading (the model), then after the session is opened and Q1
// and Q2 ran (the name order built), against the model's (goal < 5 %). Then, for comparison, the
// same queries where the table cannot narrow or order (GROUP BY +name, WHERE +ts: SQLite sorts or
// scans every slice; the sort's working memory comes and goes with the query); --no-baseline
// leaves them out.
// --export DIR writes the same events (id, ts, dur, name, track_id) as DIR/slices.csv and the
// window starts as DIR/windows.txt, for tests/bench/sql_duckdb.py to time the same queries in
// DuckDB over a pandas frame. Make a 3 M-slice run with tools/reference/scale_kineto.py.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench_process.h"
#include "session/run.h"
#include "sql/query_session.h"
#include "util/csv.h"

namespace {

using namespace sutra::bench;

// Resident memory now (not the peak), from /proc/self/statm.
double residentMiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sutra-bench-sql RUN [--rounds N] [--windows N] [--export DIR]\n");
    return 2;
  }
  const std::string path = argv[1];
  int rounds = 5, windows = 20;
  bool baseline = true;
  std::string exportDir;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool valued = flag == "--rounds" || flag == "--windows" || flag == "--export";
    if (flag == "--no-baseline") {
      baseline = false;
    } else if (!valued || i + 1 >= argc) {
      std::fprintf(stderr, "sutra-bench-sql: %s: unknown, or its value is missing\n", flag.c_str());
      return 2;
    } else if (flag == "--rounds") {
      rounds = std::stoi(argv[++i]);
    } else if (flag == "--windows") {
      windows = std::stoi(argv[++i]);
    } else {
      exportDir = argv[++i];
    }
  }

  const double base = residentMiB();
  double cpu = cpuSeconds(), wall = wallSeconds();
  auto run = sutra::openRun({path}, sutra::RunOptions::upTo(sutra::RunStage::Analyse));
  if (!run) {
    std::fprintf(stderr, "%s\n", run.error().message.c_str());
    return 2;
  }
  const double loaded = residentMiB();
  std::size_t slices = 0;
  for (const auto& r : run->ranks) slices += r->trace ? r->trace->events.size() : 0;
  std::printf("loaded %zu slices in %.2f s CPU, %.2f s wall; model %.1f MiB resident\n", slices,
              cpuSeconds() - cpu, wallSeconds() - wall, loaded - base);

  cpu = cpuSeconds();
  wall = wallSeconds();
  auto opened = sutra::sql::QuerySession::open(*run);
  if (!opened) {
    std::fprintf(stderr, "%s\n", opened.error().message.c_str());
    return 2;
  }
  sutra::sql::QuerySession& session = **opened;
  std::printf("session opened in %.3f ms\n", (wallSeconds() - wall) * 1e3);

  auto timed = [&](const std::string& sql, std::size_t& rows) {
    const double c0 = cpuSeconds(), w0 = wallSeconds();
    auto result = session.run(sql);
    const double c = cpuSeconds() - c0, w = wallSeconds() - w0;
    if (!result) {
      std::fprintf(stderr, "%s\n", result.error().message.c_str());
      std::exit(2);
    }
    rows = result->rows.size();
    return std::pair{c, w};
  };

  const std::string groupBy = "SELECT name, count(*), sum(dur) FROM slice GROUP BY name";
  std::vector<double> cpus, walls;
  std::size_t rows = 0;
  for (int r = 0; r < rounds; ++r) {
    auto [c, w] = timed(groupBy, rows);
    cpus.push_back(c);
    walls.push_back(w);
    std::printf("  Q1 round %d: %.3f s CPU, %.3f s wall, %zu rows\n", r + 1, c, w, rows);
  }
  std::printf("Q1 GROUP BY name: median %.3f s CPU, %.3f s wall (%zu names)\n", median(cpus),
              median(walls), rows);

  const sutra::Trace& trace = *run->ranks[0]->trace;
  std::vector<std::int64_t> starts;
  for (int k = 0; k < windows; ++k)
    starts.push_back(trace.startNs +
                     (trace.endNs - trace.startNs - 1'000'000) * (2 * k + 1) / (2 * windows));
  cpus.clear();
  walls.clear();
  std::size_t windowRows = 0;
  for (const std::int64_t t : starts) {
    auto [c, w] = timed("SELECT id, ts, dur, name FROM slice WHERE ts >= " + std::to_string(t) +
                            " AND ts < " + std::to_string(t + 1'000'000),
                        rows);
    cpus.push_back(c);
    walls.push_back(w);
    windowRows += rows;
  }
  std::printf("Q2 1 ms window: median %.3f ms CPU, %.3f ms wall (%d windows, %.0f rows each)\n",
              median(cpus) * 1e3, median(walls) * 1e3, windows,
              static_cast<double>(windowRows) / windows);

  const double after = residentMiB();
  std::printf(
      "memory: model %.1f MiB; SQL layer %.1f MiB resident (%.2f %%), %.1f MiB by its "
      "own count\n",
      loaded - base, after - loaded, 100.0 * (after - loaded) / (loaded - base),
      static_cast<double>(session.memoryBytes()) / (1 << 20));

  // The same two queries where the table cannot help: `+name` and `+ts` are expressions, so
  // SQLite sorts every slice for the GROUP BY and scans every slice for the window.
  if (baseline) {
    std::vector<double> c1, w1;
    for (int r = 0; r < std::min(rounds, 3); ++r) {
      auto [c, w] = timed("SELECT name, count(*), sum(dur) FROM slice GROUP BY +name", rows);
      c1.push_back(c);
      w1.push_back(w);
    }
    std::printf("Q1 without the name order (GROUP BY +name): median %.3f s CPU, %.3f s wall\n",
                median(c1), median(w1));
    c1.clear();
    w1.clear();
    for (int k = 0; k < std::min(windows, 3); ++k) {
      const std::int64_t t = starts[static_cast<std::size_t>(k)];
      auto [c, w] = timed("SELECT id, ts, dur, name FROM slice WHERE +ts >= " + std::to_string(t) +
                              " AND +ts < " + std::to_string(t + 1'000'000),
                          rows);
      c1.push_back(c);
      w1.push_back(w);
    }
    std::printf("Q2 without the lanes' search (WHERE +ts ...): median %.3f ms CPU, %.3f ms wall\n",
                median(c1) * 1e3, median(w1) * 1e3);
  }

  if (!exportDir.empty()) {
    std::error_code made;
    std::filesystem::create_directories(exportDir, made);
    std::ofstream csv(exportDir + "/slices.csv");
    if (made || !csv) {
      std::fprintf(stderr, "sutra-bench-sql: %s: cannot write slices.csv there\n",
                   exportDir.c_str());
      return 1;
    }
    csv << "id,ts,dur,name,track_id\n";
    std::int64_t id = 0;
    for (const auto& r : run->ranks) {
      if (!r->trace) continue;
      for (const sutra::Event& e : r->trace->events)
        csv << id++ << ',' << e.start << ',' << e.dur << ',' << sutra::csvField(r->trace->name(e))
            << ',' << e.lane << '\n';
    }
    std::ofstream out(exportDir + "/windows.txt");
    for (const std::int64_t t : starts) out << t << '\n';
    csv.close();
    out.close();
    if (!csv || !out) {
      std::fprintf(stderr, "sutra-bench-sql: %s: writing the export failed\n", exportDir.c_str());
      return 1;
    }
    std::printf("exported %lld slices to %s\n", static_cast<long long>(id), exportDir.c_str());
  }
  return 0;
}
