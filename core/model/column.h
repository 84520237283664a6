// SPDX-License-Identifier: MIT
#pragma once
// One column of the model (Trace::events, flows, instants): an array of trivially copyable values
// that either lives in memory (a std::vector, the parse's result) or lies in memory that something
// else keeps alive: a trace cache mapped from disk (io/trace_cache.h), whose pages are read when
// first touched and can be dropped again by the kernel, so a column of gigabytes costs only what
// is read. A mapped column is read-only: the first change (or non-const access) copies it into
// memory, so a column behaves as a value whatever backs it. A column may also be built in place
// in writable memory of a fixed capacity (a file-backed array: the streaming load into the cache),
// which it then fills and sorts without ever holding the values in anonymous memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace sutra {

// How many mapped columns were copied into memory by a change, and how many values they held, in
// this process: a view that meant only to read a mapped trace must leave both at zero (tests).
struct ColumnCopies {
  std::uint64_t columns = 0;
  std::uint64_t values = 0;
};
ColumnCopies mappedColumnCopies();
void countMappedColumnCopy(std::size_t values);

template <typename T>
class Column {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  Column() = default;
  Column(std::initializer_list<T> values) : owned_(values) {}
  explicit Column(std::vector<T> values) : owned_(std::move(values)) {}
  // A copy of a mapped column views the same mapping; a copy of one built in place is a copy.
  Column(const Column& other) { *this = other; }
  Column& operator=(const Column& other) {
    if (this == &other) return *this;
    if (other.keeper_ && !other.writable_) {
      owned_.clear();
      owned_.shrink_to_fit();
      keeper_ = other.keeper_;
      external_ = other.external_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      writable_ = false;
    } else {
      release();
      owned_.assign(other.begin(), other.end());
    }
    return *this;
  }
  Column(Column&& other) noexcept { swap(other); }
  Column& operator=(Column&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  Column& operator=(std::vector<T> values) {
    release();
    owned_ = std::move(values);
    return *this;
  }

  // `count` values at `data`, kept valid by `keeper` (a mapped file); nothing is copied.
  static Column mapped(std::shared_ptr<const void> keeper, const T* data, std::size_t count) {
    Column c;
    c.keeper_ = std::move(keeper);
    c.external_ = const_cast<T*>(data);  // never written through: a change copies first
    c.size_ = c.capacity_ = count;
    return c;
  }
  // An empty column to be filled in place in `capacity` values of writable memory at `data`, kept
  // valid by `keeper`: a shared mapping of a file (whoever writes the column out may unmap pages
  // it passed, which anonymous memory would lose). Growing past the capacity moves the values
  // into memory.
  // `size` of them hold values already.
  static Column inPlace(std::shared_ptr<void> keeper, T* data, std::size_t capacity,
                        std::size_t size = 0) {
    Column c;
    c.keeper_ = std::move(keeper);
    c.external_ = data;
    c.capacity_ = capacity;
    c.size_ = size;
    c.writable_ = true;
    return c;
  }
  // A column built in place, done: read-only from now on, as a mapped one (a copy shares it).
  void makeReadOnly() {
    if (keeper_) writable_ = false;
  }
  // True where the values lie in a mapping rather than in this process's own memory.
  bool isMapped() const { return keeper_ != nullptr && !writable_; }
  // Mapped, or built in place: the values lie in a file, and a page unmapped from this process
  // (madvise) is read back from it when touched again.
  bool isExternal() const { return keeper_ != nullptr; }

  std::size_t size() const { return keeper_ ? size_ : owned_.size(); }
  bool empty() const { return size() == 0; }
  const T* data() const { return keeper_ ? external_ : owned_.data(); }
  T* data() { return writableData(); }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& operator[](std::size_t i) { return writableData()[i]; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T* cbegin() const { return begin(); }
  const T* cend() const { return end(); }
  T* begin() { return writableData(); }
  T* end() { return writableData() + size(); }
  const T& front() const { return data()[0]; }
  const T& back() const { return data()[size() - 1]; }
  T& front() { return writableData()[0]; }
  T& back() { return writableData()[size() - 1]; }

  void reserve(std::size_t n) {
    if (keeper_) {
      if (writable_ && n <= capacity_) return;
      toMemory(n);
    }
    owned_.reserve(n);
  }
  void push_back(const T& value) {
    if (roomInPlace(1)) {
      external_[size_++] = value;
      return;
    }
    if (keeper_) toMemory(size_ + 1);
    owned_.push_back(value);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    push_back(T{std::forward<Args>(args)...});
    return back();
  }
  void pop_back() {
    if (keeper_ && !writable_) toMemory(size_);
    if (keeper_)
      --size_;
    else
      owned_.pop_back();
  }
  // Appends [first, last) (insert at the end: the only place the model inserts).
  template <typename It>
  void insert(const T* at, It first, It last) {
    if (at != end()) throw std::logic_error("Column::insert: only at the end");
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    if (roomInPlace(n)) {
      std::copy(first, last, external_ + size_);
      size_ += n;
      return;
    }
    if (keeper_) toMemory(size_ + n);
    owned_.insert(owned_.end(), first, last);
  }
  void resize(std::size_t n, const T& value = T{}) {
    if (keeper_ && writable_ && n <= capacity_) {
      for (std::size_t i = size_; i < n; ++i) external_[i] = value;
      size_ = n;
      return;
    }
    if (keeper_) toMemory(n);
    owned_.resize(n, value);
  }
  void assign(std::size_t n, const T& value) {
    release();
    owned_.assign(n, value);
  }
  template <typename It>
  void assign(It first, It last) {
    std::vector<T> values(first, last);  // `first` may point into this column
    release();
    owned_ = std::move(values);
  }
  void clear() { release(); }
  void shrink_to_fit() {
    if (!keeper_) owned_.shrink_to_fit();
  }
  std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }

 private:
  bool roomInPlace(std::size_t n) const { return keeper_ && writable_ && size_ + n <= capacity_; }
  T* writableData() {
    if (keeper_ && !writable_) toMemory(size_);
    return keeper_ ? external_ : owned_.data();
  }
  // Copies the external values into this column's own memory and lets the external memory go.
  void toMemory(std::size_t reserve) {
    if (!writable_) countMappedColumnCopy(size_);
    std::vector<T> values;
    values.reserve(std::max(reserve, size_));
    values.assign(external_, external_ + size_);
    release();
    owned_ = std::move(values);
  }
  void release() {
    owned_.clear();
    owned_.shrink_to_fit();
    keeper_.reset();
    external_ = nullptr;
    size_ = capacity_ = 0;
    writable_ = false;
  }
  void swap(Column& other) noexcept {
    std::swap(owned_, other.owned_);
    std::swap(keeper_, other.keeper_);
    std::swap(external_, other.external_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(writable_, other.writable_);
  }

  std::vector<T> owned_;  // the values, where keeper_ is null
  std::shared_ptr<const void> keeper_;
  T* external_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  bool writable_ = false;
};

}  // namespace sutra
