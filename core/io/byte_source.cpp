// SPDX-License-Identifier: MIT
#include "io/byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
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
    default:
      return makeError(path, std::string("cannot open: ") + std::strerror(err));
  }
}

Result<std::unique_ptr<ByteSource>> ByteSource::open(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return openError(path, ENOENT);
  if (fs::is_directory(status)) return openError(path, EISDIR);
  std::unique_ptr<ByteSource> source(new ByteSource);
  source->path_ = path;
  source->file_ = std::fopen(path.c_str(), "rb");
  if (!source->file_) return openError(path, errno);
  source->fileSize_ = fs::file_size(path, ec);
  if (ec) source->fileSize_ = 0;
  if (source->fileSize_ == 0) return makeError(path, "empty file");

  unsigned char magic[2] = {0, 0};
  const std::size_t got = std::fread(magic, 1, 2, source->file_);
  std::rewind(source->file_);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
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
  if (n == 0 && std::ferror(file_)) return makeError(path_, "read error");
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
