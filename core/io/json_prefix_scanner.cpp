// SPDX-License-Identifier: MIT
#include "io/json_prefix_scanner.h"

#include <cstdio>

namespace sutra {
namespace {

enum State : std::uint8_t {
  kObjectFirst,  // just after '{': a key or '}'
  kObjectKey,    // after ',': a key
  kObjectColon,  // after a key: ':'
  kObjectValue,  // after ':': a value
  kObjectAfter,  // after a value: ',' or '}'
  kArrayFirst,   // just after '[': a value or ']'
  kArrayValue,   // after ',': a value
  kArrayAfter,   // after a value: ',' or ']'
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool endsToken(char c) {
  return isSpace(c) || c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '{' ||
         c == '[';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  char buf[16];
  if (u >= 0x20 && u < 0x7f)
    std::snprintf(buf, sizeof buf, "'%c'", c);
  else
    std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  return buf;
}

bool validScalar(std::string_view token) {
  if (token == "true" || token == "false" || token == "null") return true;
  if (token.empty() || !(token[0] == '-' || isDigit(token[0]))) return false;
  bool digit = false;
  for (char c : token) {
    if (isDigit(c))
      digit = true;
    else if (c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E')
      return false;
  }
  return digit;
}

}  // namespace

JsonPrefixScanner::Status JsonPrefixScanner::invalid(std::uint64_t offset, std::string what) {
  status_ = Status::Invalid;
  error_ = std::move(what);
  errorOffset_ = offset;
  return status_;
}

bool JsonPrefixScanner::valueAllowed() const {
  if (stack_.empty()) return !rootDone_;
  const Frame& top = stack_.back();
  return top.type == Container::Object ? top.state == kObjectValue
                                       : (top.state == kArrayFirst || top.state == kArrayValue);
}

void JsonPrefixScanner::afterValue() {
  if (stack_.empty()) {
    rootDone_ = true;
    return;
  }
  Frame& top = stack_.back();
  top.state = top.type == Container::Object ? kObjectAfter : kArrayAfter;
}

JsonPrefixScanner::Status JsonPrefixScanner::feed(std::string_view more, bool atEnd) {
  if (status_ != Status::NeedMore) return status_;
  std::string joined;
  std::string_view text = more;
  if (!pending_.empty()) {
    joined = std::move(pending_);
    pending_.clear();
    joined.append(more);
    text = joined;
  }
  const std::uint64_t base = consumed_;  // the offset of text[0] in the whole document
  std::size_t pos = 0;
  auto stopped = [&] {
    consumed_ = base + pos;
    status_ = Status::Stopped;
    return status_;
  };
  auto finished = [&] {
    consumed_ = base + pos;
    status_ = Status::Done;
    return status_;
  };
  auto keepForLater = [&] {
    pending_.assign(text.substr(pos));
    consumed_ = base + pos;
    return Status::NeedMore;
  };

  while (pos < text.size()) {
    const char c = text[pos];
    if (isSpace(c)) {
      ++pos;
      continue;
    }
    switch (c) {
      case '{':
      case '[': {
        if (!valueAllowed()) return invalid(base + pos, "unexpected " + describe(c));
        if (stack_.size() >= maxDepth_)
          return invalid(base + pos,
                         "nesting deeper than " + std::to_string(maxDepth_) + " levels");
        Frame frame;
        frame.type = c == '{' ? Container::Object : Container::Array;
        frame.state = c == '{' ? kObjectFirst : kArrayFirst;
        stack_.push_back(std::move(frame));
        ++pos;
        if (!visitor_.onOpen(stack_)) return stopped();
        break;
      }
      case '}':
      case ']': {
        if (stack_.empty()) return invalid(base + pos, "unexpected " + describe(c));
        const Frame& top = stack_.back();
        const bool fits = c == '}' ? top.type == Container::Object &&
                                         (top.state == kObjectFirst || top.state == kObjectAfter)
                                   : top.type == Container::Array &&
                                         (top.state == kArrayFirst || top.state == kArrayAfter);
        if (!fits) return invalid(base + pos, "unexpected " + describe(c));
        const Container closed = top.type;
        stack_.pop_back();
        ++pos;
        afterValue();
        if (!visitor_.onClose(stack_, closed)) return stopped();
        if (rootDone_) return finished();
        break;
      }
      case ':': {
        if (stack_.empty() || stack_.back().type != Container::Object ||
            stack_.back().state != kObjectColon)
          return invalid(base + pos, "unexpected ':'");
        stack_.back().state = kObjectValue;
        ++pos;
        break;
      }
      case ',': {
        if (stack_.empty()) return invalid(base + pos, "unexpected ','");
        Frame& top = stack_.back();
        if (top.type == Container::Object && top.state == kObjectAfter) {
          top.state = kObjectKey;
        } else if (top.type == Container::Array && top.state == kArrayAfter) {
          top.state = kArrayValue;
          ++top.index;
        } else {
          return invalid(base + pos, "unexpected ','");
        }
        ++pos;
        break;
      }
      case '"': {
        std::size_t end = pos + 1;
        bool closed = false;
        while (end < text.size()) {
          if (text[end] == '\\') {
            end += 2;
            continue;
          }
          if (text[end] == '"') {
            closed = true;
            break;
          }
          ++end;
        }
        if (!closed) {
          if (atEnd) return invalid(base + pos, "the text ends inside a string");
          return keepForLater();
        }
        const std::string_view raw = text.substr(pos + 1, end - pos - 1);
        const bool isKey =
            !stack_.empty() && stack_.back().type == Container::Object &&
            (stack_.back().state == kObjectFirst || stack_.back().state == kObjectKey);
        if (isKey) {
          stack_.back().key.assign(raw);
          stack_.back().state = kObjectColon;
          pos = end + 1;
          if (!visitor_.onKey(stack_, raw)) return stopped();
        } else {
          if (!valueAllowed()) return invalid(base + pos, "unexpected string");
          pos = end + 1;
          const bool go = visitor_.onValue(stack_, raw, true);
          afterValue();
          if (!go) return stopped();
          if (rootDone_) return finished();  // the root value ended: trailing text is not read
        }
        break;
      }
      default: {
        std::size_t end = pos;
        while (end < text.size() && !endsToken(text[end])) ++end;
        if (end == text.size() && !atEnd) return keepForLater();
        const std::string_view token = text.substr(pos, end - pos);
        if (!validScalar(token) || !valueAllowed())
          return invalid(base + pos, "unexpected " + describe(c));
        pos = end;
        const bool go = visitor_.onValue(stack_, token, false);
        afterValue();
        if (!go) return stopped();
        if (rootDone_) return finished();
        break;
      }
    }
  }
  consumed_ = base + pos;
  if (atEnd) {
    return invalid(
        consumed_,
        stack_.empty()
            ? "no JSON value"
            : "the text ends inside an unclosed " +
                  std::string(stack_.back().type == Container::Object ? "object" : "array"));
  }
  return Status::NeedMore;
}

}  // namespace sutra
