// SPDX-License-Identifier: MIT
#pragma once
// An incremental tokenizer for the beginning of a JSON text that may be cut short. It reports keys,
// scalar values and container boundaries with their nesting, so the trace sniffer can classify a
// multi-gigabyte file from its first kilobytes without parsing (or holding) the rest. Strings are
// reported raw (escapes left as written): the keys that matter for sniffing contain none, and raw
// control characters inside strings (seen in real traces) are tolerated.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra {

class JsonPrefixScanner {
 public:
  enum class Container : std::uint8_t { Object, Array };
  struct Frame {
    Container type = Container::Object;
    std::string key;          // Object: the key whose value is being read
    std::uint64_t index = 0;  // Array: the index of the element being read
    std::uint8_t state = 0;   // grammar state, internal
  };
  using Path = std::span<const Frame>;  // outermost first; empty at the root

  // Callbacks return false to stop the scan (the sniffer has decided).
  class Visitor {
   public:
    virtual ~Visitor() = default;
    // A key of the object at path.back(); path.back().key is already `key`.
    virtual bool onKey(Path path, std::string_view key) = 0;
    // A string (without quotes, raw), number or literal value inside path (empty path: the root).
    virtual bool onValue(Path path, std::string_view token, bool isString) = 0;
    // A container opened: path ends with its frame.
    virtual bool onOpen(Path path) = 0;
    // A container closed: path is its parent's path; `closed` says which kind.
    virtual bool onClose(Path path, Container closed) = 0;
  };

  enum class Status : std::uint8_t {
    NeedMore,  // every complete token so far was consumed; feed more text
    Stopped,   // a callback returned false
    Done,      // the root value ended; what follows it is not read (this scans a prefix)
    Invalid,   // not JSON: see error() and errorOffset()
  };

  explicit JsonPrefixScanner(Visitor& visitor, std::size_t maxDepth = 512)
      : visitor_(visitor), maxDepth_(maxDepth) {}

  // Scans `more` (the text that follows everything fed before). With atEnd, the text is complete:
  // an unterminated token or container then makes the result Invalid ("ends inside ...").
  Status feed(std::string_view more, bool atEnd = false);

  const std::string& error() const { return error_; }
  std::uint64_t errorOffset() const { return errorOffset_; }
  std::uint64_t offset() const { return consumed_; }  // bytes consumed so far
  std::size_t depth() const { return stack_.size(); }

 private:
  Status invalid(std::uint64_t offset, std::string what);
  bool valueAllowed() const;
  void afterValue();

  Visitor& visitor_;
  std::size_t maxDepth_;
  std::vector<Frame> stack_;
  std::string pending_;  // an incomplete token carried to the next feed
  std::uint64_t consumed_ = 0;
  bool rootDone_ = false;
  Status status_ = Status::NeedMore;
  std::string error_;
  std::uint64_t errorOffset_ = 0;
};

}  // namespace sutra
