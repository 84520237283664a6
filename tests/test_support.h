// SPDX-License-Identifier: MIT
#pragma once
// Paths to test data: the project's own fixtures (tests/data) and the real traces in ../shared;
// and the temporary files a test writes, in folders of its own.
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace sutra::test {

inline std::string fixture(const std::string& relative) {
  return std::string(SUTRA_TEST_DATA) + "/" + relative;
}

inline bool sharedTracesPresent() { return std::filesystem::is_directory(SUTRA_SHARED_TRACES); }

inline std::string sharedTrace(const std::string& relative) {
  return std::string(SUTRA_SHARED_TRACES) + "/" + relative;
}

// A new folder that nothing else names: mkdtemp's random part after `stem` and this process's
// id, in the system's temporary folder ($TMPDIR, else /tmp).
inline std::filesystem::path makeUniqueDir(const std::filesystem::path& parent,
                                           const std::string& stem) {
  std::string pattern = (parent / (stem + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp failed under " + parent.string());
  return pattern;
}

// The running test's name as a file name: "Suite.Name", parameters' slashes made underscores.
inline std::string currentTestFileName() {
  std::string name = "no-test";
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info())
    name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (name.size() > 150) name.resize(150);
  return name;
}

// This process's temporary folder, made on first use and removed, with everything in it, when the
// process ends. ctest runs each test in a process of its own and several at once (-j), and two
// checkouts may run their tests on one machine at the same time: no file of a test is named by
// another, whatever the order or the overlap.
inline const std::filesystem::path& processTempDir() {
  struct Owned {
    std::filesystem::path path = makeUniqueDir(std::filesystem::temp_directory_path(),
                                               "sutra-test-" + std::to_string(::getpid()));
    ~Owned() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Owned dir;
  return dir.path;
}

// A path for `name` in a folder of the running test's own (under processTempDir(), so removed
// when the process ends): a test run twice in one process, or after another test that wrote the
// same name, starts from nothing of theirs.
inline std::string tempPath(const std::string& name) {
  struct Folder {
    std::string test;
    std::filesystem::path path;
  };
  static Folder current;
  const std::string test = currentTestFileName();
  if (current.path.empty() || current.test != test)
    current = {test, makeUniqueDir(processTempDir(), test)};
  return (current.path / name).string();
}

// A temporary folder of a test's own (under processTempDir()), removed with what is in it when it
// goes out of scope.
class TempDir {
 public:
  TempDir() : path_(makeUniqueDir(processTempDir(), currentTestFileName())) {}
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// What `read` returns, read as a user whom a file's permission bits bind: in this process where it
// is not root's; where it is (CI, a container), in a child process that gives root up for the user
// nobody (65534), since root reads every file whatever its permissions. `dir`, the test's folder
// (and the process's above it), is opened to others, so that only the file's own bits forbid.
template <typename Read>
std::string asUnprivileged(const std::filesystem::path& dir, Read read) {
  if (::geteuid() != 0) return read();
  namespace fs = std::filesystem;
  for (const fs::path& d : {processTempDir(), dir})
    fs::permissions(d, fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
  int pipeFds[2];
  if (::pipe(pipeFds) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipeFds[0]);
    std::string out;
    constexpr uid_t kNobody = 65534;
    if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
      out = "could not become the user nobody";
    } else {
      try {
        out = read();
      } catch (const std::exception& e) {
        out = std::string("threw: ") + e.what();
      }
    }
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t n = ::write(pipeFds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  std::string out;
  std::array<char, 4096> buffer{};
  for (ssize_t n; (n = ::read(pipeFds[0], buffer.data(), buffer.size())) > 0;)
    out.append(buffer.data(), static_cast<std::size_t>(n));
  ::close(pipeFds[0]);
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status))
    return "the unprivileged reader did not finish";
  return out;
}

// What `command` (a shell command line) writes to its standard output.
inline std::string commandOutput(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
      out.append(buffer.data(), n);
    pclose(pipe);
  }
  return out;
}

}  // namespace sutra::test

// Skips the current test when ../shared/traces is not beside the project (a user's fresh clone).
#define SUTRA_REQUIRE_SHARED_TRACES()                                        \
  do {                                                                       \
    if (!::sutra::test::sharedTracesPresent())                               \
      GTEST_SKIP() << "../shared/traces is absent: real-trace test skipped"; \
  } while (0)
