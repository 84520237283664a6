// SPDX-License-Identifier: MIT
#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sutra {
namespace fs = std::filesystem;

struct AtomicFile::State {
  std::string path;
  std::string tmp;
  int fd = -1;
  gzFile gz = nullptr;  // writes through a dup of fd
  bool failed = false;
  std::string failure;

  void discard() {
    if (gz) gzclose(gz);
    if (fd >= 0) ::close(fd);
    gz = nullptr;
    fd = -1;
    if (!tmp.empty()) ::unlink(tmp.c_str());
    tmp.clear();
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
  if (target.filename().empty()) return makeError(path, "not a file name");
  std::error_code ec;
  if (fs::is_directory(target, ec)) return makeError(path, "is a directory");
  for (const auto& input : options.protectedPaths)
    if (isOneOfInputs(path, {input}))
      return makeError(path, "refusing to overwrite an input (" + input + ")");
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  auto state = std::make_unique<State>();
  state->path = path;
  state->tmp = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  state->fd = ::mkstemp(state->tmp.data());
  if (state->fd < 0) {
    state->tmp.clear();
    return makeError(
        path, "cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
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
  while (!bytes.empty()) {
    if (s.gz) {
      const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(bytes.size(), 1u << 30));
      const int n = gzwrite(s.gz, bytes.data(), chunk);
      if (n <= 0) {
        s.failed = true;
        s.failure = "write failed (gzip)";
        return makeError(s.path, s.failure);
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    const ssize_t n = ::write(s.fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      s.failed = true;
      s.failure = std::string("write failed: ") + std::strerror(errno);
      return makeError(s.path, s.failure);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Ok{};
}

Status AtomicFile::commit() {
  State& s = *state_;
  if (s.failed) {
    s.discard();
    return makeError(s.path, s.failure);
  }
  std::string why;
  if (s.gz) {
    if (gzclose(s.gz) != Z_OK) why = "write failed (gzip)";
    s.gz = nullptr;
  }
  if (why.empty() && ::fsync(s.fd) != 0) why = std::string("write failed: ") + std::strerror(errno);
  if (::close(s.fd) != 0 && why.empty()) why = std::string("write failed: ") + std::strerror(errno);
  s.fd = -1;
  if (why.empty() && ::rename(s.tmp.c_str(), s.path.c_str()) != 0)
    why = std::string("cannot rename the temporary file into place: ") + std::strerror(errno);
  if (!why.empty()) {
    s.discard();
    return makeError(s.path, why);
  }
  s.tmp.clear();  // committed: nothing to remove
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
