// SPDX-License-Identifier: MIT
// libFuzzer target: discovery's sniffer (JSON prefix scan, protobuf wire check, gzip) and the
// prefix scanner itself fed in two pieces, which must agree with one feed of the whole text.
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "io/discover.h"
#include "io/json_prefix_scanner.h"

namespace {

class Log final : public sutra::JsonPrefixScanner::Visitor {
 public:
  std::string text;
  bool onKey(sutra::JsonPrefixScanner::Path p, std::string_view key) override {
    text += "K" + std::to_string(p.size()) + std::string(key);
    return true;
  }
  bool onValue(sutra::JsonPrefixScanner::Path p, std::string_view v, bool) override {
    text += "V" + std::to_string(p.size()) + std::string(v);
    return true;
  }
  bool onOpen(sutra::JsonPrefixScanner::Path p) override {
    text += "O" + std::to_string(p.size());
    return true;
  }
  bool onClose(sutra::JsonPrefixScanner::Path p, sutra::JsonPrefixScanner::Container) override {
    text += "C" + std::to_string(p.size());
    return true;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto sniffed = sutra::sniffTraceFile(sutra::fuzz::writeInput(data, size));
  if (sniffed) (void)sutra::fileKindName(sniffed->kind);

  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Log whole, split;
  sutra::JsonPrefixScanner one(whole), two(split);
  const auto a = one.feed(text, true);
  const std::size_t cut = size / 2;
  auto b = two.feed(text.substr(0, cut));
  if (b == sutra::JsonPrefixScanner::Status::NeedMore) b = two.feed(text.substr(cut), true);
  if (a != b || whole.text != split.text) std::abort();  // chunk boundaries must not matter
  return 0;
}
