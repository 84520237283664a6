// SPDX-License-Identifier: MIT
#pragma once
// A growable array of trivially copyable values in anonymous memory of its own (mmap), grown with
// mremap: growing never copies the values nor holds the old and the new copy at once (std::vector's
// doubling does both, and each doubling's fresh pages cost a page fault every 4 KB), and
// drainInto() hands its pages back to the system as it copies them out, so moving N values into
// a std::vector costs N values of memory, not 2N. For arrays of millions of values whose count is
// not known ahead: the Kineto reader's events per lane, flow ends, args spans.
//
// A file-backed array (fileBacked()) keeps its values in an unnamed temporary file of a folder
// instead (O_TMPFILE: gone with the process, whatever kills it): its pages are the page cache's,
// written back and dropped by the kernel under memory pressure, so a streaming load of a trace
// bigger than memory holds its columns on disk. dropResidentBefore() unmaps what was written.
// Its file is written with pwrite(2) ahead of its values, never faulted into through the mapping
// (growInFile() says why), and appendInBulk() writes many values at once without mapping them.
// An array placed in a region of a file someone else owns (inFile(): a trace cache being written,
// whose largest columns the streaming load lays where the cache keeps them) grows there, from a
// page boundary, and leaves the file as it is when released.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/file_region.h"

namespace sutra {

namespace mapped_array_detail {
// What file-backed arrays fill their files ahead with: one megabyte, shared by every array and
// never written, so that every page of it is the system's zero page.
inline char zeros[std::size_t{1} << 20];
}  // namespace mapped_array_detail

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
  ~MappedArray() {
    release();
    if (fd_ >= 0) ::close(fd_);
  }

  // An empty array whose values live in an unnamed temporary file in `folder`; throws
  // std::runtime_error naming the folder where it cannot be made.
  static MappedArray fileBacked(const std::string& folder) {
    MappedArray a;
    a.fd_ = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (a.fd_ < 0) {
      // A file system without O_TMPFILE: a named file, unlinked at once.
      std::string name = folder + "/.sutra-spill-XXXXXX";
      a.fd_ = ::mkstemp(name.data());
      if (a.fd_ >= 0) ::unlink(name.c_str());
    }
    if (a.fd_ < 0)
      throw std::runtime_error(folder + ": cannot make a temporary file (" + std::strerror(errno) +
                               ")");
    return a;
  }
  // An empty array whose values lie in `region` of a file it does not own, growing there; the
  // file is neither truncated nor closed by the array. Throws std::runtime_error where the
  // descriptor cannot be duplicated or the offset is not a page boundary.
  static MappedArray inFile(FileRegion region) {
    if (region.offset % pageBytes() != 0)
      throw std::runtime_error("an array in a file starts at a page boundary");
    MappedArray a;
    a.fd_ = ::fcntl(region.fd, F_DUPFD_CLOEXEC, 0);
    if (a.fd_ < 0)
      throw std::runtime_error(std::string("cannot share a file: ") + std::strerror(errno));
    a.fileOffset_ = region.offset;
    a.ownsFile_ = false;
    return a;
  }
  bool isFileBacked() const { return fd_ >= 0; }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  // Empties the array and gives its memory back.
  void clear() { release(); }
  // `count` copies of `value`, replacing what was there.
  void assign(std::size_t count, const T& value) {
    size_ = 0;
    reserve(count);
    std::fill(data_, data_ + count, value);
    size_ = count;
  }
  // Room for `count` values without another growth.
  void reserve(std::size_t count) {
    if (count > capacity_) grow(count);
  }
  // File-backed: unmaps the whole pages before value `index` from this process (their values stay
  // in the file and come back when touched), so that what was written no longer counts as
  // resident. Anonymous memory has nowhere else to keep them: nothing happens.
  // Pages go a few megabytes at a time, from where the last drop ended: each call costs the other
  // cores a TLB flush, and a spill calls this after every batch it appends.
  void dropResidentBefore(std::size_t index) {
    if (fd_ < 0) return;
    const std::size_t end = std::min(index, capacity_) * sizeof(T) / pageBytes() * pageBytes();
    if (end < droppedBytes_ + (std::size_t{4} << 20)) return;
    dropResident(droppedBytes_ / sizeof(T), index);
    droppedBytes_ = end;
  }
  // The same for the whole pages inside values [from, to) of the capacity (values written through
  // data() by someone else count too).
  void dropResident(std::size_t from, std::size_t to) {
    if (fd_ < 0 || !data_) return;
    const std::size_t page = pageBytes();
    const std::size_t first = (from * sizeof(T) + page - 1) / page * page;
    const std::size_t last = std::min(to, capacity_) * sizeof(T) / page * page;
    if (last > first)
      ::madvise(reinterpret_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
  }

  void push_back(const T& value) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = value;
  }
  void append(const T* values, std::size_t count) {
    if (size_ + count > capacity_) grow(size_ + count);
    std::copy(values, values + count, data_ + size_);
    size_ += count;
  }

  // Appends every value to `out` (a std::vector or a Column: reserving exactly) and empties this
  // array, releasing each page once it is copied.
  template <typename Out>
  void drainInto(Out& out) {
    out.reserve(out.size() + size_);
    drainSteps([&](const T* values, std::size_t n) { out.insert(out.end(), values, values + n); });
  }

  // File-backed: the mapping made to cover `count` values and the file left as it is, so that
  // appendMovedFrom() fills it without data() moving. Anonymous: reserve(count).
  void mapAhead(std::size_t count) {
    if (fd_ < 0) return reserve(count);
    const std::size_t want = pagesFor(count * sizeof(T));
    if (want > mappedBytes_) mapTo(want);
  }

  // Appends `count` values at once (a batch's args text, a lane's events). Into a file they are
  // written with pwrite(2), never through the mapping (see growInFile()): one copy, where the
  // mapping costs zeroing the pages ahead and mapping them in. Small appends: append().
  void appendInBulk(const T* values, std::size_t count) {
    if (fd_ < 0) return append(values, count);
    const std::size_t want = pagesFor((size_ + count) * sizeof(T));
    if (want > mappedBytes_)
      mapTo(pagesFor(std::max<std::size_t>({want, 2 * mappedBytes_, 1 << 20})));
    writeFile(size_ * sizeof(T), reinterpret_cast<const char*>(values), count * sizeof(T));
    size_ += count;
    filledBytes_ = std::max(filledBytes_, size_ * sizeof(T));
    capacity_ = filledBytes_ / sizeof(T);
  }

  // Appends every value of `from` and empties it, as drainInto(), in bulk (appendInBulk()).
  void appendMovedFrom(MappedArray& from) {
    mapAhead(size_ + from.size());
    from.drainSteps([&](const T* values, std::size_t n) { appendInBulk(values, n); });
  }

  // File-backed: values [from, to) mapped writable in one call, ahead of code that writes them
  // all (sorting a lane in place), which would otherwise fault each page in on its own.
  void prefault(std::size_t from, std::size_t to) { prefaultValues(from, to, true); }
  // The same for code that reads them all (writing them out): faulting them in one by one costs
  // more than copying them.
  void prefaultForReading(std::size_t from, std::size_t to) { prefaultValues(from, to, false); }

 private:
  void swap(MappedArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(mappedBytes_, other.mappedBytes_);
    std::swap(filledBytes_, other.filledBytes_);
    std::swap(droppedBytes_, other.droppedBytes_);
    std::swap(fd_, other.fd_);
    std::swap(fileOffset_, other.fileOffset_);
    std::swap(ownsFile_, other.ownsFile_);
  }
  // Hands the values to `sink` about a megabyte at a time (a file-backed array's pages mapped in
  // one call a step), releasing each page once handed on, and empties the array.
  template <typename Sink>
  void drainSteps(Sink&& sink) {
    const std::size_t page = pageBytes();
    constexpr std::size_t kStep = (1 << 20) / sizeof(T);
    std::size_t done = 0, releasedBytes = 0;
    while (done < size_) {
      const std::size_t n = std::min(kStep, size_ - done);
      prefaultForReading(done, done + n);
      sink(data_ + done, n);
      done += n;
      const std::size_t copied = done * sizeof(T) / page * page;
      if (copied > releasedBytes) {
        ::madvise(reinterpret_cast<char*>(data_) + releasedBytes, copied - releasedBytes,
                  MADV_DONTNEED);
        // A temporary file of its own gives its pages back as well: the copy's next pages are
        // then these, which the system has at hand, rather than fresh ones (on a virtual machine
        // the first touch of a fresh page can cost more than the copy).
        if (fd_ >= 0 && ownsFile_) {
          const int punched = ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                          static_cast<off_t>(fileOffset_ + releasedBytes),
                                          static_cast<off_t>(copied - releasedBytes));
          (void)punched;  // where holes cannot be punched, the pages go with the file
        }
        releasedBytes = copied;
      }
    }
    release();
  }

  // `bytes` written at `at` bytes into the array's region of its file; throws where they cannot
  // be (a full disk).
  void writeFile(std::size_t at, const char* bytes, std::size_t count) {
    for (std::size_t done = 0; done < count;) {
      const ssize_t n =
          ::pwrite(fd_, bytes + done, count - done, static_cast<off_t>(fileOffset_ + at + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw std::runtime_error(std::string("cannot grow a temporary file: ") +
                                 std::strerror(n < 0 ? errno : ENOSPC));
      done += static_cast<std::size_t>(n);
    }
  }

  static std::size_t pageBytes() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

  void grow(std::size_t atLeast) {
    if (fd_ >= 0) return growInFile(atLeast);
    const std::size_t bytes =
        pagesFor(std::max<std::size_t>({atLeast * sizeof(T), 2 * capacity_ * sizeof(T), 1 << 20}));
    mapTo(bytes);
    capacity_ = bytes / sizeof(T);
  }

  // A file-backed array's values are only ever written to pages the file already has: the file
  // is filled ahead of the values with zeros by pwrite(2), and those pages are then mapped
  // writable in one call. A write through the mapping to a page the file lacks costs a fault that
  // zeroes a fresh page and journals it, about five times what writing the same bytes costs
  // (measured: 536 MB in 0.5-0.9 s that way, 0.12-0.3 s written). Writing the zeros also claims
  // the disk space now: a full disk is an error here, never a SIGBUS at a write through the
  // mapping.
  void growInFile(std::size_t atLeast) {
    const std::size_t want = pagesFor(atLeast * sizeof(T));
    if (want > mappedBytes_)
      mapTo(pagesFor(std::max<std::size_t>({want, 2 * mappedBytes_, 1 << 20})));
    // Ahead by a quarter of what the array holds, between 1 and 16 MB: few calls, and not much
    // past the end of a region that another array may take up after this one stops growing.
    const std::size_t ahead =
        std::clamp<std::size_t>(filledBytes_ / 4, std::size_t{1} << 20, std::size_t{16} << 20);
    fillFileTo(std::min(mappedBytes_, std::max(want, pagesFor(filledBytes_ + ahead))));
  }

  // Zeros written into the file from filledBytes_ to `bytes`, then those pages mapped writable;
  // the capacity becomes what the file holds.
  void fillFileTo(std::size_t bytes) {
    if (bytes <= filledBytes_) return;
    const auto& zeros = mapped_array_detail::zeros;
    const std::size_t from = filledBytes_;
    for (std::size_t at = from; at < bytes; at += sizeof zeros)
      writeFile(at, zeros, std::min(sizeof zeros, bytes - at));
    filledBytes_ = bytes;
    capacity_ = bytes / sizeof(T);
    prefaultBytes(from, bytes);
  }

  void prefaultValues(std::size_t from, std::size_t to, bool writable) {
    if (fd_ >= 0 && data_)
      prefaultBytes(from * sizeof(T), std::min(to, capacity_) * sizeof(T), writable);
  }

  // Maps [from, to) bytes of a file-backed array's pages in one call, writable or not (Linux 5.14
  // on; elsewhere each page faults in when first used, as before).
  void prefaultBytes(std::size_t from, std::size_t to, bool writable = true) {
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
    const std::size_t page = pageBytes();
    from = from / page * page;
    to = std::min(pagesFor(std::min(to, filledBytes_)), mappedBytes_);
    if (to > from)
      ::madvise(reinterpret_cast<char*>(data_) + from, to - from,
                writable ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#else
    (void)from;
    (void)to;
    (void)writable;
#endif
  }

  // The mapping made or grown to `bytes` (a multiple of the page): anonymous memory, or the
  // array's region of its file (which may end before the mapping: only filled pages are touched).
  void mapTo(std::size_t bytes) {
    void* p = data_      ? ::mremap(data_, mappedBytes_, bytes, MREMAP_MAYMOVE)
              : fd_ >= 0 ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                                  static_cast<off_t>(fileOffset_))
                         : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Huge pages where the system gives them on request (transparent huge pages in madvise mode):
    // a large lane's array is filled at random places, and 4 KB pages cost a fault each. Refused
    // harmlessly elsewhere; a mapping under 2 MB gets none.
    ::madvise(p, bytes, MADV_HUGEPAGE);
    // A file-backed array is written at its end and read back once: no readahead, which would
    // fill (and zero) the page cache ahead of every fault.
    if (fd_ >= 0) ::madvise(p, bytes, MADV_RANDOM);
    data_ = static_cast<T*>(p);
    mappedBytes_ = bytes;
  }

  static std::size_t pagesFor(std::size_t bytes) {
    const std::size_t page = pageBytes();
    return (bytes + page - 1) / page * page;
  }

  void release() {
    if (data_) ::munmap(data_, mappedBytes_);
    if (fd_ >= 0 && ownsFile_ && mappedBytes_ > 0) {
      // The file's blocks are freed now; the unnamed file goes with the descriptor at the latest.
      const int truncated = ::ftruncate(fd_, 0);
      (void)truncated;
    }
    data_ = nullptr;
    size_ = capacity_ = mappedBytes_ = filledBytes_ = droppedBytes_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t mappedBytes_ = 0;
  std::size_t filledBytes_ = 0;   // file-backed: how much of the region the file holds
  std::size_t droppedBytes_ = 0;  // dropResidentBefore(): the pages before this are unmapped
  int fd_ = -1;  // the temporary file of a file-backed array, or a duplicate of inFile()'s
  std::uint64_t fileOffset_ = 0;  // where the values start in that file
  bool ownsFile_ = true;          // fileBacked(): the file is this array's alone
};

}  // namespace sutra
