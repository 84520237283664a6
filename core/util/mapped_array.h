// SPDX-License-Identifier: MIT
#pragma once
// A growable array of trivially copyable values in anonymous memory of its own (mmap), grown with
// mremap: growing never copies the values nor holds the old and the new copy at once (std::vector's
// doubling does both, and each doubling's fresh pages cost a page fault every 4 KB), and
// drainInto() hands its pages back to the system as it copies them out, so moving N values into
// a std::vector costs N values of memory, not 2N. For arrays of millions of values whose count is
// not known ahead: the Kineto reader's events per lane, flow ends, args spans.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace sutra {

template <typename T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  MappedArray() = default;
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  MappedArray(MappedArray&& other) noexcept { swap(other); }
  MappedArray& operator=(MappedArray&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  ~MappedArray() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  // Empties the array and gives its memory back.
  void clear() { release(); }

  void push_back(const T& value) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = value;
  }
  void append(const T* values, std::size_t count) {
    if (size_ + count > capacity_) grow(size_ + count);
    std::copy(values, values + count, data_ + size_);
    size_ += count;
  }

  // Appends every value to `out` (reserving exactly) and empties this array, releasing each page
  // once it is copied.
  void drainInto(std::vector<T>& out) {
    out.reserve(out.size() + size_);
    const std::size_t page = pageBytes();
    constexpr std::size_t kStep = (1 << 20) / sizeof(T);  // about 1 MB a step
    std::size_t done = 0, releasedBytes = 0;
    while (done < size_) {
      const std::size_t n = std::min(kStep, size_ - done);
      out.insert(out.end(), data_ + done, data_ + done + n);
      done += n;
      const std::size_t copied = done * sizeof(T) / page * page;
      if (copied > releasedBytes) {
        ::madvise(reinterpret_cast<char*>(data_) + releasedBytes, copied - releasedBytes,
                  MADV_DONTNEED);
        releasedBytes = copied;
      }
    }
    release();
  }

 private:
  void swap(MappedArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(mappedBytes_, other.mappedBytes_);
  }
  static std::size_t pageBytes() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

  void grow(std::size_t atLeast) {
    const std::size_t page = pageBytes();
    std::size_t bytes =
        std::max<std::size_t>({atLeast * sizeof(T), 2 * capacity_ * sizeof(T), 1 << 20});
    bytes = (bytes + page - 1) / page * page;
    void* p =
        data_ ? ::mremap(data_, mappedBytes_, bytes, MREMAP_MAYMOVE)
              : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Huge pages where the system gives them on request (transparent huge pages in madvise mode):
    // a large lane's array is filled at random places, and 4 KB pages cost a fault each. Refused
    // harmlessly elsewhere; a mapping under 2 MB gets none.
    ::madvise(p, bytes, MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
    mappedBytes_ = bytes;
    capacity_ = bytes / sizeof(T);
  }

  void release() {
    if (data_) ::munmap(data_, mappedBytes_);
    data_ = nullptr;
    size_ = capacity_ = mappedBytes_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t mappedBytes_ = 0;
};

}  // namespace sutra
