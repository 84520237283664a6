// SPDX-License-Identifier: MIT
#include "io/chrome_trace_stream.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "io/json_numbers.h"

namespace sutra {
namespace {
constexpr std::size_t kFlushBytes = 1 << 20;
}

ChromeTraceStream::ChromeTraceStream(AtomicFile file) : file_(std::move(file)) {
  buffer_.reserve(kFlushBytes + (64 << 10));
}

Result<ChromeTraceStream> ChromeTraceStream::open(const std::string& path,
                                                  std::string_view topLevel,
                                                  const AtomicFileOptions& options) {
  auto file = AtomicFile::create(path, options);
  if (!file) return file.error();
  ChromeTraceStream stream(std::move(file.value()));
  stream.buffer_ += '{';
  stream.buffer_ += topLevel;
  if (!topLevel.empty()) stream.buffer_ += ',';
  stream.buffer_ += "\"traceEvents\":[";
  return stream;
}

void ChromeTraceStream::flushIfFull() {
  if (buffer_.size() < kFlushBytes) return;
  if (written_) written_ = file_.write(buffer_);
  buffer_.clear();
}

std::string& ChromeTraceStream::event() {
  flushIfFull();
  if (!first_) buffer_ += ',';
  first_ = false;
  buffer_ += '\n';
  return buffer_;
}

Status ChromeTraceStream::finish() {
  buffer_ += "\n]}\n";
  if (written_) written_ = file_.write(buffer_);
  buffer_.clear();
  if (!written_) return written_;
  return file_.commit();
}

void appendMicros(std::string& out, TimeNs ns) {
  if (ns < 0) {
    out.push_back('-');
    ns = -ns;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  out += buf;
}

std::string jsonQuoted(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string jsonPidOrTid(std::string_view text) {
  if (auto n = integerText(text); n && std::to_string(*n) == text) return std::string(text);
  return jsonQuoted(text);
}

}  // namespace sutra
