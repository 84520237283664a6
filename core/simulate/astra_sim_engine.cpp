// SPDX-License-Identifier: MIT
#include "simulate/astra_sim_engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "chakra/astra_sim_config.h"

extern char** environ;

namespace sutra {
namespace fs = std::filesystem;

namespace {

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string howToPoint() {
  return std::string("set ") + kAstraSimEnvironment + "=/path/to/" + kAstraSimBinaryName +
         " or put " + kAstraSimBinaryName +
         " on PATH (ASTRA-sim's build/astra_analytical/build.sh -t congestion_unaware builds it)";
}

// The lines of the log that say why a run went wrong, the first few.
std::string reasonsIn(const std::string& output) {
  static const std::regex why(R"(error|Error|ERROR|not found|terminate|abort|Abort|exception)");
  std::string out;
  std::size_t start = 0, quoted = 0;
  while (start < output.size() && quoted < 3) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, std::min<std::size_t>(end - start, 300));
    if (std::regex_search(line, why)) {
      out += (out.empty() ? "" : " | ") + line;
      ++quoted;
    }
    start = end + 1;
  }
  return out;
}

std::string lastLines(const std::string& output, int count) {
  std::size_t pos = output.size();
  while (pos > 0 && output[pos - 1] == '\n') --pos;
  for (int i = 0; i < count && pos > 0; ++i) {
    const std::size_t nl = output.rfind('\n', pos - 1);
    pos = nl == std::string::npos ? 0 : nl;
  }
  return output.substr(pos == 0 ? 0 : pos + 1);
}

// A directory for ASTRA-sim's log files, removed when it goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "sutra-astra-sim-XXXXXX").string();
    if (ec) pattern = "/tmp/sutra-astra-sim-XXXXXX";
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

Result<std::string> findAstraSimBinary() {
  if (const char* env = std::getenv(kAstraSimEnvironment); env && *env) {
    if (isExecutableFile(env)) return std::string(env);
    return makeError(env, std::string("named by ") + kAstraSimEnvironment +
                              ", is not an executable file: " + howToPoint());
  }
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    std::size_t start = 0;
    while (start <= dirs.size()) {
      std::size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      const std::string dir = dirs.substr(start, end - start);
      const std::string candidate =
          (dir.empty() ? std::string(".") : dir) + "/" + kAstraSimBinaryName;
      if (isExecutableFile(candidate)) return candidate;
      start = end + 1;
    }
  }
  return Error{std::string("ASTRA-sim not found: ") + howToPoint()};
}

Result<AstraSimInputs> astraSimInputsForExport(const std::string& prefixOrFolder) {
  std::string prefix = prefixOrFolder;
  std::error_code ec;
  if (fs::is_directory(prefixOrFolder, ec)) {
    // The folder's exports: every "<stem>.0.et"; those with a network.yml beside them first.
    std::set<std::string> stems, configured;
    for (const auto& entry : fs::directory_iterator(prefixOrFolder, ec)) {
      const std::string name = entry.path().filename().string();
      static const std::string kFirst = ".0.et";
      if (name.size() <= kFirst.size() ||
          name.compare(name.size() - kFirst.size(), kFirst.size(), kFirst) != 0)
        continue;
      const std::string stem =
          (fs::path(prefixOrFolder) / name.substr(0, name.size() - kFirst.size())).string();
      stems.insert(stem);
      if (fs::exists(chakra::astraSimConfigPaths(stem).network, ec)) configured.insert(stem);
    }
    const std::set<std::string>& pick = configured.empty() ? stems : configured;
    if (pick.empty())
      return makeError(prefixOrFolder, "no Chakra export in the folder (no <prefix>.0.et)");
    if (pick.size() > 1) {
      std::string names;
      for (const auto& s : pick) names += (names.empty() ? "" : ", ") + s;
      return makeError(prefixOrFolder,
                       "more than one export in the folder (" + names + "): give its prefix");
    }
    prefix = *pick.begin();
  }
  AstraSimInputs inputs;
  inputs.workload = prefix;
  while (fs::is_regular_file(prefix + "." + std::to_string(inputs.npus) + ".et", ec)) ++inputs.npus;
  if (inputs.npus == 0)
    return makeError(prefix + ".0.et",
                     "not found: give the prefix of a `sutra-cli convert` export");
  const chakra::AstraSimConfigPaths configs = chakra::astraSimConfigPaths(prefix);
  inputs.network = configs.network;
  inputs.system = configs.system;
  inputs.memory = configs.memory;
  for (const auto& path : configs.all())
    if (!fs::is_regular_file(path, ec))
      return makeError(path,
                       "not found: ASTRA-sim's configurations are written by `sutra-cli "
                       "convert` beside the .et files; convert again to write them");
  return inputs;
}

std::vector<AstraSimRankFinish> parseAstraSimLog(std::string_view log) {
  // Workload::report(): "sys[{}] finished, {} cycles, exposed communication {} cycles."
  static const std::regex finished(
      R"(sys\[(\d+)\] finished, (\d+) cycles(?:, exposed communication (\d+) cycles)?)");
  static const std::regex ansi("\x1b\\[[0-9;]*m");
  const std::string text = std::regex_replace(std::string(log), ansi, "");
  std::map<int, AstraSimRankFinish> byRank;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), finished);
       it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    AstraSimRankFinish f;
    try {
      f.rank = std::stoi(m[1].str());
      f.cycles = std::stoll(m[2].str());
      if (m[3].matched) f.exposedComm = std::stoll(m[3].str());
    } catch (...) {
      continue;  // a number too large for its type: not a line ASTRA-sim printed
    }
    byRank[f.rank] = f;
  }
  std::vector<AstraSimRankFinish> out;
  for (const auto& [rank, f] : byRank) out.push_back(f);
  return out;
}

Result<AstraSimRun> runAstraSim(const std::string& binary, const AstraSimInputs& inputs,
                                const AstraSimRunOptions& options) {
  TempDir logs;
  if (logs.path().empty())
    return Error{std::string("cannot create a temporary folder for ASTRA-sim's logs: ") +
                 std::strerror(errno)};
  const std::vector<std::string> args = {binary,
                                         "--workload-configuration=" + inputs.workload,
                                         "--system-configuration=" + inputs.system,
                                         "--network-configuration=" + inputs.network,
                                         "--remote-memory-configuration=" + inputs.memory,
                                         "--logging-folder=" + logs.path()};
  AstraSimRun run;
  for (const auto& a : args) run.commandLine += (run.commandLine.empty() ? "" : " ") + a;

  std::array<int, 2> pipeFds{-1, -1};
  if (::pipe2(pipeFds.data(), O_CLOEXEC) != 0)
    return Error{std::string("cannot start ASTRA-sim: pipe: ") + std::strerror(errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeFds[1]);
  if (spawned != 0) {
    ::close(pipeFds[0]);
    return makeError(binary, std::string("cannot start ASTRA-sim: ") + std::strerror(spawned));
  }

  // Read until the pipe closes or the time is up.
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  bool timedOut = false, canceled = false;
  std::array<char, 65536> buffer{};
  for (;;) {
    if (options.keepGoing && !options.keepGoing()) {
      canceled = true;
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd fd{pipeFds[0], POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(pipeFds[0], buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (run.output.size() < options.maxOutputBytes)
      run.output.append(buffer.data(), std::min(static_cast<std::size_t>(n),
                                                options.maxOutputBytes - run.output.size()));
  }
  ::close(pipeFds[0]);
  if (timedOut || canceled) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (canceled) return Error{"ASTRA-sim was cancelled: " + run.commandLine};
  if (timedOut)
    return Error{"ASTRA-sim ran past the time limit of " +
                 std::to_string(options.timeout.count() / 1000) +
                 " s and was stopped: " + run.commandLine};
  if (WIFSIGNALED(status))
    return Error{"ASTRA-sim was killed by signal " + std::to_string(WTERMSIG(status)) + ": " +
                 run.commandLine + "\n" + lastLines(run.output, 5)};
  if (WEXITSTATUS(status) != 0)
    return Error{"ASTRA-sim exited with status " + std::to_string(WEXITSTATUS(status)) + ": " +
                 run.commandLine + "\n" + lastLines(run.output, 5)};

  // Exit 0 is not success unless every rank finished: a rank whose graph ASTRA-sim could not
  // run (a node without num_ops in roofline mode, a collective it rejects) just never reports.
  const std::vector<AstraSimRankFinish> finished = parseAstraSimLog(run.output);
  std::string missing;
  int missingCount = 0;
  for (int rank = 0; rank < inputs.npus; ++rank) {
    const bool found = std::any_of(finished.begin(), finished.end(),
                                   [&](const AstraSimRankFinish& f) { return f.rank == rank; });
    if (found) continue;
    ++missingCount;
    if (missingCount <= 16) missing += (missing.empty() ? "" : ", ") + std::to_string(rank);
  }
  if (missingCount > 0) {
    if (missingCount > 16) missing += ", ...";
    const std::string why = reasonsIn(run.output);
    return Error{"ASTRA-sim exited 0 but rank" + std::string(missingCount > 1 ? "s " : " ") +
                 missing + " never finished" + (why.empty() ? "" : ": " + why)};
  }
  for (const auto& f : finished)
    if (f.rank >= 0 && f.rank < inputs.npus) run.ranks.push_back(f);
  return run;
}

}  // namespace sutra
