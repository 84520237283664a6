// SPDX-License-Identifier: MIT
#include "io/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <vector>

namespace sutra {

struct ByteSource::Gzip {
  z_stream stream{};
  std::vector<unsigned char> input = std::vector<unsigned char>(1 << 20);
  bool finished = false;  // the last member ended exactly at the end of the file
  ~Gzip() { inflateEnd(&stream); }
};

Error openError(const std::string& path, int err) {
  switch (err) {
    case ENOENT:
      return makeError(path, "no such file or directory");
    case EISDIR:
      return makeError(path, "is a directory, not a trace file");
    case EACCES:
      return makeError(path, "permission denied");
    case ELOOP:
      return makeError(path, "too many levels of symbolic links (a symbolic link loop)");
    case ENOTDIR:
      return makeError(path, "a component of the path is not a directory");
    default:
      return makeError(path, std::string("cannot open: ") + std::strerror(err));
  }
}

namespace {

std::string_view fileTypeName(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

Error notRegularFile(const std::string& path, mode_t mode) {
  return makeError(path, "is " + std::string(fileTypeName(mode)) +
                             ", not a regular file: traces are read from regular files only");
}

std::optional<std::string_view> unsupportedCompression(const unsigned char* m, std::size_t n) {
  auto is = [&](std::initializer_list<unsigned char> magic) {
    return n >= magic.size() && std::equal(magic.begin(), magic.end(), m);
  };
  if (is({'B', 'Z', 'h'})) return "bzip2";
  if (is({0xfd, '7', 'z', 'X', 'Z', 0x00})) return "xz";
  if (is({0x28, 0xb5, 0x2f, 0xfd})) return "zstd";
  if (is({'P', 'K', 0x03, 0x04})) return "zip";
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<ByteSource>> ByteSource::open(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return openError(path, errno);
  if (S_ISDIR(st.st_mode)) return openError(path, EISDIR);
  // A FIFO, a device (/dev/zero), a socket: never opened, as opening a FIFO without a writer
  // blocks and a device has no size or end.
  if (!S_ISREG(st.st_mode)) return notRegularFile(path, st.st_mode);
  // O_NONBLOCK: should the path have become a FIFO since stat(), open() still returns at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return openError(path, errno);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const auto mode = st.st_mode;
    ::close(fd);
    return notRegularFile(path, mode);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::unique_ptr<ByteSource> source(new ByteSource);
  source->path_ = path;
  source->file_ = ::fdopen(fd, "rb");
  if (!source->file_) {
    const int err = errno;
    ::close(fd);
    return openError(path, err);
  }
  source->fileSize_ = static_cast<std::uint64_t>(st.st_size);
  if (source->fileSize_ == 0) return makeError(path, "empty file");

  unsigned char magic[6] = {0, 0, 0, 0, 0, 0};
  const std::size_t got = std::fread(magic, 1, sizeof magic, source->file_);
  std::rewind(source->file_);
  if (auto format = unsupportedCompression(magic, got))
    return makeError(path, "compressed with " + std::string(*format) +
                               ", which Sutra does not read: decompress it first (Sutra reads "
                               "plain and gzip files)");
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    source->gzip_ = std::make_unique<Gzip>();
    // 16 + MAX_WBITS: expect a gzip header and trailer.
    if (inflateInit2(&source->gzip_->stream, 16 + MAX_WBITS) != Z_OK)
      return makeError(path, "cannot initialise gzip decompression");
  }
  return source;
}

ByteSource::~ByteSource() {
  if (file_) std::fclose(file_);
}

Result<std::size_t> ByteSource::readRaw(char* out, std::size_t capacity) {
  const std::size_t n = std::fread(out, 1, capacity, file_);
  if (n == 0 && std::ferror(file_))
    return makeError(path_, std::string("read error: ") + std::strerror(errno));
  fileBytesRead_ += n;
  return n;
}

Result<std::size_t> ByteSource::read(char* out, std::size_t capacity) {
  if (!gzip_) {
    auto n = readRaw(out, capacity);
    if (n) contentBytesRead_ += *n;
    return n;
  }
  Gzip& gz = *gzip_;
  z_stream& zs = gz.stream;
  zs.next_out = reinterpret_cast<Bytef*>(out);
  zs.avail_out = static_cast<uInt>(std::min<std::size_t>(capacity, UINT32_MAX));
  while (zs.avail_out > 0) {
    if (zs.avail_in == 0) {
      auto n = readRaw(reinterpret_cast<char*>(gz.input.data()), gz.input.size());
      if (!n) return n.error();
      if (*n == 0) {
        if (gz.finished) break;
        return makeError(path_, "truncated gzip stream: the file ends at byte " +
                                    std::to_string(fileBytesRead_) +
                                    " before the compressed data does");
      }
      zs.next_in = gz.input.data();
      zs.avail_in = static_cast<uInt>(*n);
    }
    gz.finished = false;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      // Another gzip member may follow (concatenated .gz files are valid gzip).
      gz.finished = true;
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) continue;
    if (rc != Z_OK) {
      const std::uint64_t at = fileBytesRead_ - zs.avail_in;
      return makeError(path_, std::string("corrupt gzip data near compressed byte ") +
                                  std::to_string(at) +
                                  (zs.msg ? std::string(": ") + zs.msg : std::string()));
    }
  }
  const std::size_t produced = static_cast<std::size_t>(reinterpret_cast<char*>(zs.next_out) - out);
  if (produced == 0 && contentBytesRead_ == 0 && capacity > 0)
    return makeError(path_, std::string(kEmptyGzipMessage));
  contentBytesRead_ += produced;
  return produced;
}

}  // namespace sutra
