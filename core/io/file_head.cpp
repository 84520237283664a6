// SPDX-License-Identifier: MIT
#include "io/file_head.h"

#include <algorithm>
#include <cstdio>

#include "io/byte_source.h"

namespace sutra {

struct FileHead::Impl {
  std::unique_ptr<ByteSource> source;
  std::string text;
  bool done = false;
};

FileHead::FileHead(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileHead::FileHead(FileHead&&) noexcept = default;
FileHead& FileHead::operator=(FileHead&&) noexcept = default;
FileHead::~FileHead() = default;

Result<FileHead> FileHead::open(const std::string& path) {
  auto source = ByteSource::open(path);
  if (!source) return source.error();
  auto impl = std::make_unique<Impl>();
  impl->source = std::move(*source);
  return FileHead(std::move(impl));
}

Status FileHead::readMore(std::size_t bytes) {
  std::string& text = impl_->text;
  std::size_t want = bytes;
  while (want > 0 && !impl_->done) {
    const std::size_t start = text.size();
    text.resize(start + want);
    auto n = impl_->source->read(text.data() + start, want);
    text.resize(start + (n ? *n : 0));
    if (!n) return n.error();
    if (*n == 0) impl_->done = true;
    want -= *n;
  }
  return Ok{};
}

const std::string& FileHead::text() const { return impl_->text; }
void FileHead::dropText() { impl_->text.clear(); }
bool FileHead::atEnd() const { return impl_->done; }
bool FileHead::gzip() const { return impl_->source->compressed(); }
std::uint64_t FileHead::fileSize() const { return impl_->source->fileSize(); }

Result<std::string> readFileTail(const std::string& path, std::size_t bytes,
                                 std::uint64_t maxGzipBytes) {
  auto head = FileHead::open(path);
  if (!head) return head.error();
  if (!head->gzip()) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) return makeError(path, "cannot open");
    const std::uint64_t size = head->fileSize();
    const std::uint64_t from = size > bytes ? size - bytes : 0;
    if (std::fseek(f.get(), static_cast<long>(from), SEEK_SET) != 0)
      return makeError(path, "cannot seek");
    std::string tail(static_cast<std::size_t>(size - from), '\0');
    tail.resize(std::fread(tail.data(), 1, tail.size(), f.get()));
    return tail;
  }
  if (head->fileSize() > maxGzipBytes) return std::string();
  // Inflate through in chunks, keeping at most 2 * bytes of text at any time.
  std::string tail;
  while (!head->atEnd()) {
    if (auto more = head->readMore(std::max<std::size_t>(bytes, 256 * 1024)); !more)
      return more.error();
    tail.append(head->text());
    head->dropText();
    if (tail.size() > 2 * bytes) tail.erase(0, tail.size() - bytes);
  }
  if (tail.size() > bytes) tail.erase(0, tail.size() - bytes);
  return tail;
}

}  // namespace sutra
