// SPDX-License-Identifier: MIT
#include "io/file_head.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace sutra {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kInputChunk = 64 * 1024;

std::string errnoText(int error) {
  if (error == EACCES || error == EPERM) return "permission denied";
  if (error == ENOENT) return "no such file or directory";
  if (error == EISDIR) return "is a directory, not a trace file";
  return std::strerror(error);
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace

Status checkTraceFile(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return makeError(path, "no such file or directory");
  if (fs::is_directory(st)) return makeError(path, "is a directory, not a trace file");
  if (!fs::is_regular_file(st)) return makeError(path, "not a regular file");
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) return makeError(path, errnoText(errno));
  const auto size = fs::file_size(path, ec);
  if (ec) return makeError(path, ec.message());
  if (size == 0) return makeError(path, "empty file");
  return Ok{};
}

struct FileHead::Impl {
  std::string path;
  FilePtr file;
  std::uint64_t size = 0;
  bool gzip = false;
  bool fileDone = false;    // fread reached the end of the file
  bool streamDone = false;  // all text was produced
  std::uint64_t compressedRead = 0;
  z_stream zs{};
  bool zsInit = false;
  std::vector<unsigned char> input;
  std::string text;

  ~Impl() {
    if (zsInit) inflateEnd(&zs);
  }

  // Refills `input` when zlib has consumed it.
  void refill() {
    if (zs.avail_in > 0 || fileDone) return;
    const std::size_t n = std::fread(input.data(), 1, input.size(), file.get());
    if (n < input.size()) fileDone = true;
    compressedRead += n;
    zs.next_in = input.data();
    zs.avail_in = static_cast<uInt>(n);
  }

  Status inflateMore(std::size_t want) {
    const std::size_t start = text.size();
    text.resize(start + want);
    std::size_t produced = 0;
    while (produced < want && !streamDone) {
      refill();
      if (zs.avail_in == 0 && fileDone) {
        text.resize(start + produced);
        return makeError(path, "truncated gzip: the compressed stream ends after " +
                                   std::to_string(compressedRead) + " bytes");
      }
      zs.next_out = reinterpret_cast<Bytef*>(text.data() + start + produced);
      zs.avail_out = static_cast<uInt>(want - produced);
      const int rc = inflate(&zs, Z_NO_FLUSH);
      produced = want - zs.avail_out;
      if (rc == Z_STREAM_END) {
        refill();
        if (zs.avail_in == 0 && fileDone) {
          streamDone = true;
        } else {
          inflateReset(&zs);  // a further gzip member (concatenated .gz files are one stream)
        }
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        text.resize(start + produced);
        const std::uint64_t at = compressedRead - zs.avail_in;
        return makeError(path, "corrupt gzip data at compressed byte " + std::to_string(at) +
                                   " (zlib: " + (zs.msg ? zs.msg : "error " + std::to_string(rc)) +
                                   ")");
      }
    }
    text.resize(start + produced);
    return Ok{};
  }

  Status readPlain(std::size_t want) {
    const std::size_t start = text.size();
    text.resize(start + want);
    const std::size_t n = std::fread(text.data() + start, 1, want, file.get());
    text.resize(start + n);
    if (n < want) {
      if (std::ferror(file.get())) return makeError(path, "read error: " + errnoText(errno));
      fileDone = streamDone = true;
    }
    return Ok{};
  }
};

FileHead::FileHead(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileHead::FileHead(FileHead&&) noexcept = default;
FileHead& FileHead::operator=(FileHead&&) noexcept = default;
FileHead::~FileHead() = default;

Result<FileHead> FileHead::open(const std::string& path) {
  if (auto ok = checkTraceFile(path); !ok) return ok.error();
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->file.reset(std::fopen(path.c_str(), "rb"));
  if (!impl->file) return makeError(path, errnoText(errno));
  std::error_code ec;
  impl->size = std::filesystem::file_size(path, ec);
  unsigned char magic[2] = {0, 0};
  const std::size_t n = std::fread(magic, 1, 2, impl->file.get());
  impl->gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  std::rewind(impl->file.get());
  if (impl->gzip) {
    impl->input.resize(kInputChunk);
    if (inflateInit2(&impl->zs, 15 + 16) != Z_OK) return makeError(path, "zlib: out of memory");
    impl->zsInit = true;
  }
  return FileHead(std::move(impl));
}

Status FileHead::readMore(std::size_t bytes) {
  if (impl_->streamDone || bytes == 0) return Ok{};
  return impl_->gzip ? impl_->inflateMore(bytes) : impl_->readPlain(bytes);
}

const std::string& FileHead::text() const { return impl_->text; }
void FileHead::dropText() { impl_->text.clear(); }
bool FileHead::atEnd() const { return impl_->streamDone; }
bool FileHead::gzip() const { return impl_->gzip; }
std::uint64_t FileHead::fileSize() const { return impl_->size; }

Result<std::string> readFileTail(const std::string& path, std::size_t bytes,
                                 std::uint64_t maxGzipBytes) {
  auto head = FileHead::open(path);
  if (!head) return head.error();
  if (!head->gzip()) {
    FilePtr f(std::fopen(path.c_str(), "rb"));
    if (!f) return makeError(path, errnoText(errno));
    const std::uint64_t size = head->fileSize();
    const std::uint64_t from = size > bytes ? size - bytes : 0;
    if (std::fseek(f.get(), static_cast<long>(from), SEEK_SET) != 0)
      return makeError(path, "cannot seek: " + errnoText(errno));
    std::string tail(static_cast<std::size_t>(size - from), '\0');
    tail.resize(std::fread(tail.data(), 1, tail.size(), f.get()));
    return tail;
  }
  if (head->fileSize() > maxGzipBytes) return std::string();
  // Inflate through in chunks, keeping at most 2 * bytes of text at any time.
  std::string tail;
  while (!head->atEnd()) {
    auto more = head->readMore(std::max<std::size_t>(bytes, 256 * 1024));
    if (!more) return more.error();
    tail.append(head->text());
    head->dropText();
    if (tail.size() > 2 * bytes) tail.erase(0, tail.size() - bytes);
  }
  if (tail.size() > bytes) tail.erase(0, tail.size() - bytes);
  return tail;
}

}  // namespace sutra
