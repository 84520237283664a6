// SPDX-License-Identifier: MIT
// sutra-bench-load: load throughput and peak memory of the Kineto reader on a large trace, side by
// side with a naive nlohmann::json DOM parse of the same file.
//
// The trace is made by repeating a real trace (default
// ../shared/traces/param/linear_kineto.json.gz) with shifted times and ids until it reaches the
// requested size, written as plain JSON. Each measurement runs in a child process of its own, so
// its peak RSS (wait4's ru_maxrss) is its own and not the generator's. Prints one JSON document.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "io/readers.h"
#include "io/trace_cache.h"
#include "trace_digest.h"
#include "util/huge_pages.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kHelp =
    "Usage: sutra-bench-load [--size-mb N] [--source TRACE] [--file BIG.json] [--out PATH]\n"
    "                        [--keep] [--pretty] [--dom | --no-dom] [--cache]\n"
    "                        [--generate-only]\n"
    "Generates a Kineto trace of N MB (default 1024) by repeating TRACE with shifted times, loads\n"
    "it with Sutra's reader and with a naive nlohmann::json DOM parse, each in its own process,\n"
    "and prints MB/s of uncompressed JSON and peak RSS as JSON.\n"
    "  --file BIG.json  measure an existing file instead of generating one\n"
    "  --out PATH       where to write the generated file (default: the temp directory)\n"
    "  --keep           keep the generated file\n"
    "  --pretty         write each event over several indented lines, as torch.profiler does\n"
    "                   (default: one compact line an event, keys sorted)\n"
    "  --digest         print the digest of Sutra's model of --file "
    "(tests/support/trace_digest.h)\n"
    "                   and exit: the reader's output before and after a change, compared\n"
    "  --dom / --no-dom force or skip the DOM comparison (default: only up to 512 MB, as a DOM\n"
    "                   takes about ten times the file's size in memory)\n"
    "  --cache          also the trace cache (io/trace_cache.h), side by side with the parse:\n"
    "                   the first open both ways (the parse into memory + the cache written;\n"
    "                   the streaming load into the cache) and a reopen after each, each with\n"
    "                   its time, peak RSS and RSS just after the open (a cache folder of its\n"
    "                   own in the temp directory, removed afterwards)\n"
    "  --repeat N       with --cache: the streaming first open N times (default 3), each into an\n"
    "                   empty folder; the median run is reported, with every run's seconds\n"
    "  --generate-only  write the trace (--out, kept) and measure nothing\n";

std::string readGzipOrPlain(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return {};
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::int64_t intOf(const json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) return static_cast<std::int64_t>(v.get<double>());
  return 0;
}

// One event as torch.profiler (Kineto's ChromeTraceLogger) writes it: ph, cat, name, pid and tid
// on one line, the other scalars on the next, args one level deeper, each indented.
std::string prettyEvent(const json& e) {
  std::string out = "  {\n    ";
  bool first = true;
  auto field = [&](const std::string& key, const json& value) {
    if (!first) out += ", ";
    first = false;
    out += json(key).dump() + ": " + value.dump();
  };
  for (const char* key : {"ph", "cat", "name", "pid", "tid"})
    if (e.contains(key)) field(key, e[key]);
  const auto onFirstLine = [](const std::string& key) {
    return key == "ph" || key == "cat" || key == "name" || key == "pid" || key == "tid";
  };
  bool second = false;
  auto secondLine = [&](const std::string& key, const json& value) {
    if (!second && !first) {
      out += ",\n    ";
      first = true;
    }
    second = true;
    field(key, value);
  };
  for (const char* key : {"ts", "dur"})
    if (e.contains(key)) secondLine(key, e[key]);
  for (const auto& [key, value] : e.items())
    if (!onFirstLine(key) && key != "ts" && key != "dur" && key != "args") secondLine(key, value);
  if (e.contains("args")) {
    out += ",\n    \"args\": {\n      ";
    bool firstArg = true;
    for (const auto& [key, value] : e["args"].items()) {
      out += (firstArg ? "" : ",") + json(key).dump() + ": " + value.dump();
      firstArg = false;
    }
    out += "\n    }";
  }
  return out + "\n  }";
}

// Writes `targetBytes` of Kineto JSON: the source's top-level members, then its events repeated,
// each copy shifted after the previous one in time, with flow ids, correlations and External ids
// shifted so they stay unique. Metadata events are written once.
std::optional<std::uint64_t> generate(const std::string& source, const std::string& out,
                                      std::uint64_t targetBytes, bool pretty,
                                      std::uint64_t& eventsWritten) {
  json doc = json::parse(readGzipOrPlain(source), nullptr, false);
  if (doc.is_discarded() || !doc.contains("traceEvents")) {
    std::fprintf(stderr, "sutra-bench-load: %s: not a Kineto trace\n", source.c_str());
    return std::nullopt;
  }
  json events = std::move(doc["traceEvents"]);
  doc.erase("traceEvents");
  std::int64_t first = INT64_MAX, last = INT64_MIN, maxId = 0;
  for (const auto& e : events) {
    if (!e.contains("ts")) continue;
    const std::int64_t ts = intOf(e["ts"]);
    first = std::min(first, ts);
    last = std::max(last, ts + (e.contains("dur") ? intOf(e["dur"]) : 0));
    if (e.contains("id")) maxId = std::max(maxId, intOf(e["id"]));
    if (e.contains("args")) {
      const auto& a = e["args"];
      for (const char* k : {"correlation", "External id"})
        if (a.contains(k)) maxId = std::max(maxId, intOf(a[k]));
    }
  }
  const std::int64_t period = (last - first) + 1000;  // 1 ms gap between copies
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  if (!f) {
    std::fprintf(stderr, "sutra-bench-load: %s: cannot write\n", out.c_str());
    return std::nullopt;
  }
  std::string head = doc.dump(1);  // "{\n ... \n}"
  head.pop_back();
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  f << head << (doc.empty() ? "" : ",") << "\n\"traceEvents\": [\n";
  std::uint64_t written = head.size() + 20;
  bool firstEvent = true;
  for (std::int64_t copy = 0; written < targetBytes; ++copy) {
    for (auto e : events) {
      if (e.value("ph", "") == "M" && copy > 0) continue;
      if (e.contains("ts")) e["ts"] = intOf(e["ts"]) + copy * period;
      const std::int64_t idShift = copy * (maxId + 1);
      if (e.contains("id") && e["id"].is_number()) e["id"] = intOf(e["id"]) + idShift;
      if (e.contains("args") && e["args"].is_object()) {
        auto& a = e["args"];
        for (const char* k : {"correlation", "External id"})
          if (a.contains(k) && a[k].is_number() && intOf(a[k]) > 0) a[k] = intOf(a[k]) + idShift;
      }
      std::string line = pretty ? prettyEvent(e) : e.dump();
      if (!firstEvent) f << ",\n";
      firstEvent = false;
      f << line;
      written += line.size() + 2;
      ++eventsWritten;
      if (written >= targetBytes) break;
    }
  }
  f << "\n]\n}\n";
  f.close();
  if (!f) return std::nullopt;
  return fs::file_size(out);
}

struct Measure {
  bool ok = false;
  double seconds = 0;
  double peakRssMb = 0;
  double cpuSeconds = 0;    // user + system time of the child, all its threads
  std::uint64_t items = 0;  // events (Sutra) or traceEvents elements (DOM)
  double residentMb = 0;    // VmRSS just after the load, before anything else is built
  std::string error;
};

struct Outcome {
  std::uint64_t items = 0;
  std::string error;
  double seconds = 0;    // the load alone, measured in the child (not its teardown)
  long residentKiB = 0;  // VmRSS just after the load
};

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Measures one loader in a fresh process (this program re-run with --child), so the peak RSS
// (wait4's ru_maxrss) is the loader's alone, not the generator's heap inherited through fork.
Measure inChild(const std::string& mode, const std::string& file) {
  int pipeFd[2];
  if (pipe(pipeFd) != 0) return {false, 0, 0, 0, 0, 0, "pipe failed"};
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipeFd[0]);
    dup2(pipeFd[1], STDOUT_FILENO);
    execl("/proc/self/exe", "sutra-bench-load", "--child", mode.c_str(), file.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipeFd[1]);
  std::string msg;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipeFd[0], buf, sizeof buf)) > 0) msg.append(buf, static_cast<std::size_t>(n));
  close(pipeFd[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  Measure m;
  m.peakRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
  m.cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  const auto nl = msg.find('\n');
  if (nl != std::string::npos) {
    std::istringstream first(msg.substr(0, nl));
    double residentKiB = 0;
    first >> m.items >> m.seconds >> residentKiB;
    m.residentMb = residentKiB / 1024.0;
  }
  m.error = nl == std::string::npos ? "child died (signal or out of memory)" : msg.substr(nl + 1);
  m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return m;
}

// This process's resident memory now (VmRSS, KiB): mapped pages it touched included.
long residentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

// The child's side: load, print "items seconds resident-KiB" and any error, exit without tearing
// down.
int runChild(const std::string& mode, const std::string& file) {
  Outcome o;
  const auto start = std::chrono::steady_clock::now();
  if (mode == "cache-first" || mode == "cache-reopen") {
    // The cache folder comes from SUTRA_CACHE_DIR, set by the parent.
    sutra::TraceCacheOptions cache = sutra::TraceCacheOptions::fromEnvironment();
    cache.enabled = true;  // whatever SUTRA_CACHE says (make bench turns it off for the rest)
    cache.minFileBytes = 0;
    auto read = sutra::readKinetoTraceCached(file, sutra::KinetoReadOptions{}, {}, cache);
    o.seconds = since(start);
    o.residentKiB = residentKiB();  // before the model goes out of scope
    if (!read.trace)
      o.error = read.trace.error().message;
    else if (read.fromCache != (mode == "cache-reopen"))
      o.error = read.fromCache ? "read from a cache that should not exist"
                               : "not read from the cache: " + read.note;
    else
      o.items = read.trace->events.size() + read.trace->instants.size();
  } else if (mode == "sutra") {
    auto trace = sutra::readKinetoTrace(file);
    o.seconds = since(start);
    o.residentKiB = residentKiB();  // before the model goes out of scope
    if (trace)
      o.items = trace->events.size() + trace->instants.size();
    else
      o.error = trace.error().message;
  } else {
    std::ifstream in(file, std::ios::binary);
    json doc = json::parse(in, nullptr, false);
    o.seconds = since(start);
    o.residentKiB = residentKiB();  // before the model goes out of scope
    if (doc.is_discarded())
      o.error = "nlohmann: parse error";
    else
      o.items = doc["traceEvents"].size();
  }
  std::printf("%llu %.6f %ld\n%s", static_cast<unsigned long long>(o.items), o.seconds,
              o.residentKiB, o.error.c_str());
  std::fflush(stdout);
  std::_Exit(o.error.empty() ? 0 : 1);  // the teardown of a big model is not part of loading
}

json report(const Measure& m, double mb) {
  json j;
  j["ok"] = m.ok;
  if (!m.ok) j["error"] = m.error;
  j["seconds"] = m.seconds;
  j["mb_per_s"] = m.seconds > 0 ? mb / m.seconds : 0;
  j["cpu_seconds"] = m.cpuSeconds;
  j["mb_per_cpu_s"] = m.cpuSeconds > 0 ? mb / m.cpuSeconds : 0;
  j["peak_rss_mb"] = m.peakRssMb;
  j["peak_rss_over_file_size"] = m.peakRssMb / mb;
  j["resident_after_open_mb"] = m.residentMb;
  j["resident_after_open_over_file_size"] = m.residentMb / mb;
  j["items"] = m.items;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  // Huge pages for malloc, as sutra-cli and the window have (the children inherit them).
  sutra::useHugePagesForMalloc(argv);
  if (argc == 4 && std::string(argv[1]) == "--child") return runChild(argv[2], argv[3]);
  std::uint64_t sizeMb = 1024;
  std::string source = std::string(SUTRA_SHARED_TRACES) + "/param/linear_kineto.json.gz";
  std::string file, out;
  bool keep = false, digest = false, pretty = false, cache = false, generateOnly = false;
  int repeats = 3;
  std::optional<bool> dom;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sutra-bench-load: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--size-mb")
      sizeMb = std::stoull(next());
    else if (a == "--source")
      source = next();
    else if (a == "--file")
      file = next();
    else if (a == "--out")
      out = next();
    else if (a == "--keep")
      keep = true;
    else if (a == "--pretty")
      pretty = true;
    else if (a == "--digest")
      digest = true;
    else if (a == "--dom")
      dom = true;
    else if (a == "--no-dom")
      dom = false;
    else if (a == "--cache")
      cache = true;
    else if (a == "--repeat")
      repeats = std::max(1, std::stoi(next()));
    else if (a == "--generate-only")
      generateOnly = keep = true;
    else if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "sutra-bench-load: unknown option %s\n%s", a.c_str(), kHelp);
      return 2;
    }
  }

  if (digest) {
    auto trace = sutra::readKinetoTrace(file);
    if (!trace) {
      std::fprintf(stderr, "sutra-bench-load: %s\n", trace.error().message.c_str());
      return 2;
    }
    std::printf("%016llx %zu events %zu flows %zu args\n",
                static_cast<unsigned long long>(sutra::test::traceDigest(*trace)),
                trace->events.size(), trace->flows.size(), trace->args.size());
    return 0;
  }

  json result;
  std::uint64_t generatedEvents = 0;
  const bool generated = file.empty();
  if (generated) {
    file = out.empty() ? (fs::temp_directory_path() /
                          ("sutra-bench-load-" + std::to_string(sizeMb) + "MB.json"))
                             .string()
                       : out;
    const auto start = std::chrono::steady_clock::now();
    auto bytes = generate(source, file, sizeMb << 20, pretty, generatedEvents);
    if (!bytes) return 2;
    result["generated_from"] = source;
    result["generate_seconds"] = since(start);
  }
  std::error_code ec;
  const std::uint64_t bytes = fs::file_size(file, ec);
  if (ec) {
    std::fprintf(stderr, "sutra-bench-load: %s: no such file or directory\n", file.c_str());
    return 2;
  }
  const double mb = static_cast<double>(bytes) / (1024.0 * 1024.0);
  result["file"] = file;
  result["file_mb"] = mb;
  if (generated) result["events_written"] = generatedEvents;
  if (generateOnly) {
    std::printf("%s\n", result.dump(2).c_str());
    return 0;
  }

  const Measure sutra = inChild("sutra", file);
  result["sutra"] = report(sutra, mb);
  if (cache) {
    // A folder of its own, so the first open finds no cache and nothing of the user's is touched.
    const fs::path folder =
        fs::temp_directory_path() / ("sutra-bench-load-cache-" + std::to_string(::getpid()));
    fs::remove_all(folder, ec);
    ::setenv("SUTRA_CACHE_DIR", folder.c_str(), 1);
    // The first open both ways (the parse into memory, then the cache written; the streaming
    // load straight into the cache), each followed by a reopen of what it wrote.
    ::setenv("SUTRA_CACHE_STREAM", "0", 1);
    const Measure inMemory = inChild("cache-first", file);
    const Measure reopenInMemory = inChild("cache-reopen", file);
    std::uint64_t cacheBytes = 0;
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.is_regular_file()) cacheBytes += entry.file_size();
    fs::remove_all(folder, ec);
    ::setenv("SUTRA_CACHE_STREAM", "1", 1);
    // The figure the goal is about, several times: this machine's speed moves by a third within
    // minutes, and one run said more about the minute than about the load.
    std::vector<Measure> runs;
    for (int r = 0; r < repeats; ++r) {
      fs::remove_all(folder, ec);
      runs.push_back(inChild("cache-first", file));
    }
    const Measure reopen = inChild("cache-reopen", file);
    json eachSeconds = json::array();
    for (const Measure& run : runs) eachSeconds.push_back(run.seconds);
    // The median run, or the first that failed.
    std::stable_sort(runs.begin(), runs.end(), [](const Measure& a, const Measure& b) {
      return a.ok != b.ok ? !a.ok : a.seconds < b.seconds;
    });
    const Measure streamed = runs.front().ok ? runs[runs.size() / 2] : runs.front();
    ::unsetenv("SUTRA_CACHE_STREAM");
    result["cache_first_open_in_memory"] = report(inMemory, mb);
    result["cache_reopen_after_in_memory"] = report(reopenInMemory, mb);
    result["cache_first_open"] = report(streamed, mb);
    result["cache_first_open"]["runs"] = repeats;
    result["cache_first_open"]["seconds_each"] = eachSeconds;
    result["cache_reopen"] = report(reopen, mb);
    const Measure& first = streamed;
    result["cache_mb"] = static_cast<double>(cacheBytes) / (1024.0 * 1024.0);
    result["cache_goal"] = {
        {"first_open_mb_per_s_at_least", 1000},
        {"first_open_peak_over_file_at_most", 0.5},
        {"reopen_seconds_at_most", 0.5},
        {"reopen_resident_over_file_at_most", 0.1},
        {"met_first_open_speed", first.ok && first.seconds > 0 && mb / first.seconds >= 1000},
        {"met_first_open_peak", first.ok && first.peakRssMb <= 0.5 * mb},
        {"met_reopen_seconds", reopen.ok && reopen.seconds <= 0.5},
        {"met_reopen_resident", reopen.ok && reopen.residentMb <= 0.1 * mb}};
    fs::remove_all(folder, ec);
  }

  const bool runDom = dom.value_or(mb <= 512);
  if (runDom) {
    const Measure naive = inChild("dom", file);
    result["nlohmann_dom"] = report(naive, mb);
    if (sutra.ok && naive.ok) {
      result["speedup_vs_dom"] = naive.seconds / sutra.seconds;
      result["memory_vs_dom"] = sutra.peakRssMb / naive.peakRssMb;
    }
  } else {
    result["nlohmann_dom"] = "skipped (a DOM of this size needs ~10x the file in memory; --dom)";
  }
  result["goal"] = {{"mb_per_s_at_least", 500},
                    {"met_mb_per_s", sutra.ok && sutra.seconds > 0 && mb / sutra.seconds >= 500},
                    {"met_peak_rss_le_file", sutra.ok && sutra.peakRssMb <= mb}};
  result["cpus"] = sysconf(_SC_NPROCESSORS_ONLN);
  std::printf("%s\n", result.dump(2).c_str());
  if (generated && !keep) fs::remove(file, ec);
  return sutra.ok ? 0 : 1;
}
