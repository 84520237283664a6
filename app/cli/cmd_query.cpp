// SPDX-License-Identifier: MIT
// sutra-cli query: SQL over a loaded run (core/sql): Perfetto's tables where they mean the same
// (slice, thread, process, thread_track, counter, flow, args ...) and Sutra's own (op, kernel,
// launch, sync, step, rank, et_node, memory_event, collective, op_table).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli_args.h"
#include "command.h"
#include "session/run.h"
#include "sql/query_session.h"
#include "sql/result_format.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli query PATH... [SQL | --file Q.sql] [--csv | --json] [--simulate]\n"
    "Runs SQL over the run in PATH (files or directories, as the window opens them) and prints\n"
    "the rows of the last statement. Without SQL or --file: an interactive shell where stdin is\n"
    "a terminal (statements end with ';', .tables lists the tables, .quit leaves), else the\n"
    "query is read from stdin. A query may only read: writes, ATTACH and most PRAGMAs are\n"
    "refused.\n\n"
    "Tables named and shaped as Perfetto's trace processor has them (its documented queries run\n"
    "unchanged on these): slice (id, ts, dur, category, name, track_id, depth, parent_id,\n"
    "arg_set_id), thread, process, thread_track, track, counter, counter_track,\n"
    "process_counter_track, flow, args, and EXTRACT_ARG(arg_set_id, 'args.<key>').\n"
    "Sutra's own: op, kernel, launch, sync, step, rank, et_node, memory_event, collective,\n"
    "op_table. Times are nanoseconds on the trace's clock.\n\n"
    "  SQL            the query (the last argument where no --file is given)\n"
    "  --file Q.sql   read the query from a file\n"
    "  --csv          the rows as CSV\n"
    "  --json         the rows as a JSON array of objects\n"
    "  --simulate     also build the simulation (needed by the collective table of a\n"
    "                 multi-rank run; slower to open)\n\n"
    "Example:\n"
    "  sutra-cli query run/ 'SELECT name, count(*), sum(dur) FROM slice GROUP BY name'\n\n"
    "Exit status: 0 success, 2 bad input or a bad query (the message says where).\n";

enum class Format { Table, Csv, Json };

void print(const sql::QueryResult& result, Format format) {
  switch (format) {
    case Format::Table:
      std::cout << sql::resultTable(result);
      break;
    case Format::Csv:
      std::cout << sql::resultCsv(result);
      break;
    case Format::Json:
      std::cout << sql::resultJson(result);
      break;
  }
  std::cout.flush();
}

// Reads statements line by line until each is complete, runs it and prints its rows; a bad query
// is reported and the shell goes on.
int shell(sql::QuerySession& session, Format format) {
  std::fputs(
      "Sutra SQL over the loaded run. End statements with ';'. .tables lists the tables, "
      ".quit leaves.\n",
      stdout);
  std::string statement, line;
  while (true) {
    std::fputs(statement.empty() ? "sutra> " : "  ...> ", stdout);
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    if (statement.empty() && (line == ".quit" || line == ".exit")) break;
    if (statement.empty() && line == ".tables") {
      for (const auto& t : sql::tableDocs())
        std::printf("  %-22s %s\n", t.name.c_str(), t.about.c_str());
      continue;
    }
    statement += line + "\n";
    if (!sql::completeStatement(statement)) continue;
    auto result = session.run(statement);
    if (result)
      print(*result, format);
    else
      std::fprintf(stderr, "%s\n", result.error().message.c_str());
    statement.clear();
  }
  std::fputs("\n", stdout);
  return kExitOk;
}

int runQuery(int argc, char** argv) {
  std::string error;
  auto args =
      Args::parse(argc, argv, {"--file"}, {"--csv", "--json", "--simulate", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli query: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->flag("--json") && args->flag("--csv"))
    return fail("query", "choose --json or --csv, not both");
  const Format format = args->flag("--json")  ? Format::Json
                        : args->flag("--csv") ? Format::Csv
                                              : Format::Table;
  std::vector<std::string> paths = args->positional();
  std::optional<std::string> query;
  if (auto file = args->value("--file")) {
    std::ifstream in(*file, std::ios::binary);
    if (!in) return fail("query", displayPath(*file) + ": cannot read the query file");
    std::ostringstream text;
    text << in.rdbuf();
    query = text.str();
  } else if (paths.size() >= 2) {
    query = paths.back();
    paths.pop_back();
  }
  if (paths.empty())
    return fail("query", "give the run to query: a trace file or directory (see --help)");
  const bool interactive = !query && isatty(STDIN_FILENO);
  if (!query && !interactive) {
    std::ostringstream text;
    text << std::cin.rdbuf();
    query = text.str();
  }

  RunOptions options =
      RunOptions::upTo(args->flag("--simulate") ? RunStage::Simulate : RunStage::Analyse);
  auto run = openRun(paths, options);
  if (!run) return fail("query", run.error().message);
  auto session = sql::QuerySession::open(*run);
  if (!session) return fail("query", session.error().message);
  if (interactive) return shell(**session, format);
  auto result = (*session)->run(*query);
  if (!result) return fail("query", result.error().message);
  print(*result, format);
  return kExitOk;
}

RegisterCommand reg{{"query",
                     "SQL over a run: Perfetto's slice/thread/counter tables and Sutra's own", 47,
                     &runQuery}};

}  // namespace
}  // namespace sutra::cli
