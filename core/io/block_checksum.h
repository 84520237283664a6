// SPDX-License-Identifier: MIT
#pragma once
// The checksum a trace cache keeps for each of its blocks (XXH3-64), over bytes that come in
// pieces: the cache's writer and reader use it, and so does a streaming load that lays columns in
// a cache being written (kineto_batch_merger.h), as the bytes go by, so that they need not be
// read back to be checked.
#include <cstdint>
#include <memory>
#include <string_view>

namespace sutra {

class BlockChecksum {
 public:
  BlockChecksum();
  ~BlockChecksum();
  BlockChecksum(BlockChecksum&&) noexcept;
  BlockChecksum& operator=(BlockChecksum&&) noexcept;

  void add(std::string_view bytes);
  // Of everything added so far (more may be added after).
  std::uint64_t value() const;
  // Of `bytes` alone.
  static std::uint64_t of(std::string_view bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sutra
