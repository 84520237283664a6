// SPDX-License-Identifier: MIT
#include "io/block_checksum.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sutra {

struct BlockChecksum::State {
  XXH3_state_t xxh3;
};

BlockChecksum::BlockChecksum() : state_(std::make_unique<State>()) {
  XXH3_64bits_reset(&state_->xxh3);
}
BlockChecksum::~BlockChecksum() = default;
BlockChecksum::BlockChecksum(BlockChecksum&&) noexcept = default;
BlockChecksum& BlockChecksum::operator=(BlockChecksum&&) noexcept = default;

void BlockChecksum::add(std::string_view bytes) {
  XXH3_64bits_update(&state_->xxh3, bytes.data(), bytes.size());
}

std::uint64_t BlockChecksum::value() const { return XXH3_64bits_digest(&state_->xxh3); }

std::uint64_t BlockChecksum::of(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace sutra
