// SPDX-License-Identifier: MIT
#pragma once
// Interned strings: a million events named "aten::add" hold one copy of the name and a 32-bit
// index.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sutra {

using StringId = std::uint32_t;

class StringTable {
 public:
  StringTable() { intern(""); }  // id 0 is the empty string
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StringTable(StringTable&&) = default;
  StringTable& operator=(StringTable&&) = default;

  StringId intern(std::string_view text);
  // The id of text if it was interned, else kMissing.
  static constexpr StringId kMissing = UINT32_MAX;
  StringId find(std::string_view text) const;
  std::string_view view(StringId id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // deque: growth never moves the strings the map's keys view
  std::unordered_map<std::string_view, StringId> ids_;
};

}  // namespace sutra
