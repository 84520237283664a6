// SPDX-License-Identifier: MIT
#include "model/et_trace.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace sutra {
namespace {
bool isProfilerNode(std::string_view name, std::string_view kind) {
  // Older writers call the root execution_graph, newer execution_trace.
  return name.starts_with("[pytorch|profiler|execution_") && name.ends_with(kind);
}
}  // namespace

std::string_view EtStorage::intern(std::string_view text) {
  if (text.empty()) return {};
  if (auto it = interned_.find(text); it != interned_.end()) return *it;
  const std::string_view kept = copy(text);
  interned_.insert(kept);
  return kept;
}

// Fixed-size blocks rather than std::pmr::monotonic_buffer_resource's doubling ones: doubling
// left a quarter of each arena empty (when the reader kept one arena per batch, hundreds of them).
void* EtStorage::allocate(std::size_t bytes, std::size_t align) {
  std::size_t pad = (align - reinterpret_cast<std::uintptr_t>(next_) % align) % align;
  if (pad + bytes > left_) {
    const std::size_t size = std::max(chunkBytes_, bytes + align);
    blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
    next_ = blocks_.back().get();
    left_ = size;
    heap_ += size;
    pad = (align - reinterpret_cast<std::uintptr_t>(next_) % align) % align;
  }
  std::byte* out = next_ + pad;
  next_ = out + bytes;
  left_ -= pad + bytes;
  used_ += bytes;
  return out;
}

std::string_view EtStorage::copy(std::string_view text) {
  if (text.empty()) return {};
  char* out = static_cast<char*>(allocate(text.size(), 1));
  std::memcpy(out, text.data(), text.size());
  return {out, text.size()};
}

const void* EtStorage::copyRecentBytes(std::string_view bytes, std::size_t align) {
  if (bytes.empty()) return nullptr;
  if (recent_.empty()) recent_.resize(kRecentSlots);
  std::string_view& slot = recent_[std::hash<std::string_view>{}(bytes) % kRecentSlots];
  if (slot == bytes && reinterpret_cast<std::uintptr_t>(slot.data()) % align == 0)
    return slot.data();
  void* out = allocate(bytes.size(), align);
  std::memcpy(out, bytes.data(), bytes.size());
  slot = std::string_view(static_cast<const char*>(out), bytes.size());
  return out;
}

EtStorage& EtTrace::ownStorage() {
  if (storage.empty()) storage.push_back(std::make_shared<EtStorage>());
  return *storage.back();
}

bool EtNode::isRoot() const { return isProfilerNode(name, "|process]"); }
bool EtNode::isThreadRoot() const { return isProfilerNode(name, "|thread]"); }

std::vector<std::vector<std::uint32_t>> EtTrace::childrenByIndex() const {
  std::vector<std::vector<std::uint32_t>> children(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (n.parent == n.id) continue;  // the process root is its own parent
    if (const std::uint32_t parent = indexById.find(n.parent); parent != IdIndex::kNone)
      children[parent].push_back(i);
  }
  for (auto& c : children)
    std::sort(c.begin(), c.end(), [&](auto a, auto b) { return nodes[a].id < nodes[b].id; });
  return children;
}

}  // namespace sutra
