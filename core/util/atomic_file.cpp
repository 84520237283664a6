// SPDX-License-Identifier: MIT
#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

namespace sutra {
namespace fs = std::filesystem;

namespace {

// Temporary files being written, so that SIGINT / SIGTERM (Ctrl-C during an export) remove them
// instead of leaving half an output behind: fixed slots, as a signal handler may only read memory
// and call unlink(). A process writes a handful of files at a time at most.
struct PendingSlot {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};
  std::array<char, 4096> path{};
};
std::array<PendingSlot, 32> gPending;
std::atomic<bool> gHandlersInstalled{false};
struct sigaction gPreviousInt {};
struct sigaction gPreviousTerm {};

void removePendingAndReraise(int sig) {
  for (auto& slot : gPending)
    if (slot.ready.load()) ::unlink(slot.path.data());
  ::sigaction(sig, sig == SIGINT ? &gPreviousInt : &gPreviousTerm, nullptr);
  ::raise(sig);
}

void installSignalCleanup() {
  if (gHandlersInstalled.exchange(true)) return;
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction previous {};
    ::sigaction(sig, nullptr, &previous);
    // Only where nobody else handles the signal (the GUI's own handlers stay as they are).
    if (previous.sa_handler != SIG_DFL) continue;
    (sig == SIGINT ? gPreviousInt : gPreviousTerm) = previous;
    struct sigaction action {};
    action.sa_handler = &removePendingAndReraise;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
  }
}

int registerPending(const std::string& tmp) {
  if (tmp.size() >= PendingSlot{}.path.size()) return -1;
  for (std::size_t i = 0; i < gPending.size(); ++i) {
    bool expected = false;
    if (!gPending[i].used.compare_exchange_strong(expected, true)) continue;
    std::memcpy(gPending[i].path.data(), tmp.c_str(), tmp.size() + 1);
    gPending[i].ready.store(true);
    return static_cast<int>(i);
  }
  return -1;
}

void unregisterPending(int slot) {
  if (slot < 0) return;
  gPending[static_cast<std::size_t>(slot)].ready.store(false);
  gPending[static_cast<std::size_t>(slot)].used.store(false);
}

// What an existing non-regular file is, for "is a character device, not a regular file".
const char* fileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The target may be absent (it is created) or a regular file (it is replaced); anything else
// (a device such as /dev/null, a FIFO, a symbolic link, a directory) is refused, so a rename
// never replaces it.
Status checkReplaceable(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Ok{};
    if (errno == ENOTDIR) return makeError(path, "a component of the path is not a directory");
    return makeError(path, std::string("cannot check the output: ") + std::strerror(errno));
  }
  if (S_ISREG(st.st_mode)) return Ok{};
  if (S_ISDIR(st.st_mode)) return makeError(path, "is a directory");
  if (S_ISLNK(st.st_mode))
    return makeError(path,
                     "is a symbolic link: refusing to replace it (name the file it points to)");
  return makeError(path, std::string("is ") + fileTypeName(st.st_mode) +
                             ", not a regular file: refusing to replace it");
}

std::string errnoText(const char* what, int err) {
  return std::string(what) + ": " + std::strerror(err);
}

}  // namespace

struct AtomicFile::State {
  bool durable = true;  // AtomicFileOptions::durable
  std::string path;
  std::string tmp;          // the temporary file's name, while it has one
  std::string tmpTemplate;  // ".NAME.tmp-XXXXXX" beside the target
  // Made with O_TMPFILE: the file has no name until commit(), so a writer killed before it (a
  // crash, an out-of-memory kill during a long streaming load) leaves nothing in the folder.
  bool unnamed = false;
  int fd = -1;
  gzFile gz = nullptr;   // writes through a dup of fd
  int pendingSlot = -1;  // in gPending while the temporary file exists
  bool failed = false;
  std::string failure;

  void discard() {
    if (gz) gzclose(gz);
    if (fd >= 0) ::close(fd);
    gz = nullptr;
    fd = -1;
    if (!tmp.empty()) ::unlink(tmp.c_str());
    tmp.clear();
    unregisterPending(pendingSlot);
    pendingSlot = -1;
  }

  // An unnamed file's temporary name, given at commit (linkat through /proc/self/fd): an error,
  // or empty.
  std::string nameTheUnnamedFile() {
    tmp = tmpTemplate;
    const int placeholder = ::mkstemp(tmp.data());  // a name nobody else has
    if (placeholder < 0) {
      tmp.clear();
      return errnoText("cannot name the temporary file", errno);
    }
    ::close(placeholder);
    ::unlink(tmp.c_str());
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      tmp.clear();
      return errnoText("cannot name the temporary file", errno);
    }
    pendingSlot = registerPending(tmp);
    return {};
  }

  // The first failure, remembered: every later write and the commit give it again.
  Status fail(std::string why) {
    failed = true;
    failure = std::move(why);
    return makeError(path, failure);
  }

  // All of `bytes` at the file's end (write(2)), or at `offset` (pwrite(2)).
  Status writeAll(std::string_view bytes, std::optional<std::uint64_t> offset) {
    while (!bytes.empty()) {
      const ssize_t n = offset
                            ? ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(*offset))
                            : ::write(fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return fail(errnoText("write failed", errno));
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
      if (offset) *offset += static_cast<std::uint64_t>(n);
    }
    return Ok{};
  }

  // gzwrite / gzclose failed: zlib's reason, or the system's when it was a write error.
  std::string gzipFailure(int errnoAfter) const {
    int code = Z_OK;
    const char* message = gz ? gzerror(gz, &code) : nullptr;
    if (code == Z_ERRNO && message && *message) return std::string("write failed: ") + message;
    if (code == Z_ERRNO || !message || !*message) return errnoText("write failed", errnoAfter);
    return std::string("write failed (gzip): ") + message;
  }
};

bool hasGzipSuffix(std::string_view path) {
  return path.size() >= 3 && path.substr(path.size() - 3) == ".gz";
}

bool isOneOfInputs(const std::string& output, const std::vector<std::string>& inputs) {
  std::error_code ec;
  if (!fs::exists(output, ec)) return false;
  for (const auto& input : inputs)
    if (fs::exists(input, ec) && fs::equivalent(output, input, ec)) return true;
  return false;
}

AtomicFile::AtomicFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
AtomicFile::AtomicFile(AtomicFile&&) noexcept = default;
AtomicFile& AtomicFile::operator=(AtomicFile&&) noexcept = default;
AtomicFile::~AtomicFile() {
  if (state_) state_->discard();
}

const std::string& AtomicFile::path() const { return state_->path; }

Result<AtomicFile> AtomicFile::create(const std::string& path, const AtomicFileOptions& options) {
  const fs::path target(path);
  if (path.empty() || target.filename().empty()) return makeError(path, "not a file name");
  std::error_code ec;
  if (fs::is_directory(target, ec)) return makeError(path, "is a directory");
  for (const auto& input : options.protectedPaths)
    if (isOneOfInputs(path, {input}))
      return makeError(path, "refusing to overwrite an input (" + input + ")");
  if (auto ok = checkReplaceable(path); !ok) return ok.error();
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // "-o out/trace.json": the folder is made when it is missing.
  if (target.has_parent_path() && !fs::is_directory(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec)
      return makeError(path, "cannot create the directory " + dir.string() + ": " + ec.message());
  }
  installSignalCleanup();
  auto state = std::make_unique<State>();
  state->path = path;
  state->durable = options.durable;
  state->tmpTemplate = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  // Unnamed where the file system makes such files and /proc can name them at commit; else a
  // named temporary file, removed on failure, at SIGINT / SIGTERM, or as stale by its owner.
  state->fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  state->unnamed = state->fd >= 0 && ::access("/proc/self/fd", X_OK) == 0;
  if (!state->unnamed) {
    if (state->fd >= 0) ::close(state->fd);
    state->tmp = state->tmpTemplate;
    state->fd = ::mkstemp(state->tmp.data());
    if (state->fd < 0) {
      state->tmp.clear();
      return makeError(
          path, "cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
    }
    state->pendingSlot = registerPending(state->tmp);
  }
  ::fchmod(state->fd, 0644);
  if (options.gzip) {
    // gzdopen takes the descriptor; dup so that commit() can still fsync it.
    const int gzfd = ::dup(state->fd);
    state->gz = gzfd < 0 ? nullptr : gzdopen(gzfd, "wb");
    if (!state->gz) {
      if (gzfd >= 0) ::close(gzfd);
      state->discard();
      return makeError(path, "cannot start gzip compression");
    }
    gzbuffer(state->gz, 1 << 18);
  }
  return AtomicFile(std::move(state));
}

Status AtomicFile::write(std::string_view bytes) {
  State& s = *state_;
  if (s.failed) return makeError(s.path, s.failure);
  if (!s.gz) return s.writeAll(bytes, std::nullopt);
  while (!bytes.empty()) {
    const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(bytes.size(), 1u << 30));
    errno = 0;
    const int n = gzwrite(s.gz, bytes.data(), chunk);
    if (n <= 0) return s.fail(s.gzipFailure(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Ok{};
}

Status AtomicFile::writeAt(std::uint64_t offset, std::string_view bytes) {
  State& s = *state_;
  if (s.failed) return makeError(s.path, s.failure);
  if (s.gz) return makeError(s.path, "a gzipped file is written front to back");
  return s.writeAll(bytes, offset);
}

Status AtomicFile::resize(std::uint64_t bytes) {
  State& s = *state_;
  if (s.failed) return makeError(s.path, s.failure);
  if (s.gz) return makeError(s.path, "a gzipped file is written front to back");
  if (::ftruncate(s.fd, static_cast<off_t>(bytes)) != 0)
    return s.fail(errnoText("write failed", errno));
  return Ok{};
}

int AtomicFile::descriptor() const { return state_->gz ? -1 : state_->fd; }

Status AtomicFile::commit() {
  State& s = *state_;
  if (s.failed) {
    s.discard();
    return makeError(s.path, s.failure);
  }
  std::string why;
  if (s.gz) {
    errno = 0;
    const int rc = gzclose(s.gz);
    if (rc == Z_ERRNO)
      why = errnoText("write failed", errno);
    else if (rc != Z_OK)
      why = "write failed (gzip)";
    s.gz = nullptr;
  }
  if (why.empty() && s.durable && ::fsync(s.fd) != 0) why = errnoText("write failed", errno);
  if (why.empty() && s.unnamed) why = s.nameTheUnnamedFile();
  if (::close(s.fd) != 0 && why.empty()) why = errnoText("write failed", errno);
  s.fd = -1;
  // The target may have become something else since create() (a FIFO, a link): checked again.
  if (why.empty())
    if (auto ok = checkReplaceable(s.path); !ok) {
      s.discard();
      return ok.error();
    }
  if (why.empty() && ::rename(s.tmp.c_str(), s.path.c_str()) != 0)
    why = errnoText("cannot rename the temporary file into place", errno);
  if (!why.empty()) {
    s.discard();
    return makeError(s.path, why);
  }
  s.tmp.clear();  // committed: nothing to remove
  unregisterPending(s.pendingSlot);
  s.pendingSlot = -1;
  return Ok{};
}

Status writeFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicFileOptions& options) {
  auto file = AtomicFile::create(path, options);
  if (!file) return file.error();
  if (auto w = file->write(bytes); !w) return w;
  return file->commit();
}

}  // namespace sutra
