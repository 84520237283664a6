// SPDX-License-Identifier: MIT
#include "io/trace_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "io/block_checksum.h"
#include "util/atomic_file.h"
#include "util/mapped_file.h"
#include "util/scratch_array.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

// A change to these structs changes the cache's layout: bump kTraceCacheFormatVersion with them.
static_assert(sizeof(Event) == 64 && sizeof(Flow) == 24 && sizeof(Instant) == 24);
static_assert(std::is_trivially_copyable_v<Event> && std::is_trivially_copyable_v<Flow> &&
              std::is_trivially_copyable_v<Instant>);

constexpr char kMagic[8] = {'S', 'U', 'T', 'R', 'A', 'T', 'C', '1'};
constexpr char kEndMagic[8] = {'S', 'U', 'T', 'R', 'A', 'E', 'N', 'D'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kAlign = 64;
constexpr std::size_t kHeadTailBytes = 1 << 20;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byteOrder;
  std::uint32_t eventBytes, flowBytes, instantBytes, reserved;
  std::uint64_t sourceSize;
  std::int64_t sourceMtimeNs;
  std::uint64_t sourceHeadTailHash;
  std::uint64_t reserved2;
};
static_assert(sizeof(Header) == 64);

enum class BlockKind : std::uint32_t {
  Model = 1,
  Events,
  Flows,
  Instants,
  ArgsOffsets,
  ArgsText,
};
constexpr int kBlockCount = 6;

struct DirectoryEntry {
  std::uint32_t kind;
  std::uint32_t reserved;
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t hash;
};
static_assert(sizeof(DirectoryEntry) == 32);

struct Footer {
  std::uint64_t directoryOffset;
  std::uint64_t blockCount;
  std::uint64_t hash;  // of the header and the directory
  std::uint64_t fileBytes;
  char magic[8];
};

// The model's small parts, field by field: lengths before texts, nothing aligned.
class Encoder {
 public:
  template <typename T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void value(T v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void text(std::string_view s) {
    value<std::uint64_t>(s.size());
    out_.append(s);
  }
  void optional(const std::optional<std::int64_t>& v) {
    value<std::uint8_t>(v.has_value());
    value<std::int64_t>(v.value_or(0));
  }
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Reads what Encoder wrote; past the end it gives zeros and remembers that it failed.
class Decoder {
 public:
  explicit Decoder(std::string_view in) : in_(in) {}
  template <typename T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T> T value() {
    T v{};
    if (in_.size() - pos_ < sizeof v) {
      failed_ = true;
      return v;
    }
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string_view text() {
    const auto n = value<std::uint64_t>();
    if (in_.size() - pos_ < n) {
      failed_ = true;
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::optional<std::int64_t> optional() {
    const bool has = value<std::uint8_t>() != 0;
    const auto v = value<std::int64_t>();
    return has ? std::optional<std::int64_t>(v) : std::nullopt;
  }
  // A count of things each taking at least `minBytes`: more than the rest could hold is damage.
  std::uint64_t count(std::size_t minBytes) {
    const auto n = value<std::uint64_t>();
    if (n > (in_.size() - pos_) / std::max<std::size_t>(minBytes, 1)) failed_ = true;
    return failed_ ? 0 : n;
  }
  bool failed() const { return failed_; }
  bool atEnd() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

void encodeStrings(Encoder& e, const StringTable& table) {
  e.value<std::uint64_t>(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) e.text(table.view(static_cast<StringId>(i)));
}

bool decodeStrings(Decoder& d, StringTable& table) {
  const auto n = d.count(8);
  for (std::uint64_t i = 0; i < n; ++i)
    if (table.intern(d.text()) != i) return false;  // the table held duplicates: not ours
  return !d.failed() && table.size() == std::max<std::uint64_t>(n, 1);
}

std::string encodeModel(const Trace& t) {
  Encoder e;
  const TraceMetadata& m = t.meta;
  e.text(m.schemaVersion);
  e.optional(m.baseTimeNanoseconds);
  e.value<std::uint64_t>(m.devices.size());
  for (const DeviceInfo& dev : m.devices) {
    e.value(dev.id);
    e.text(dev.name);
    e.value(dev.totalGlobalMem);
    e.value(dev.numSms);
    e.text(dev.rawJson);
  }
  e.optional(m.rank);
  e.optional(m.worldSize);
  e.text(m.distributedBackend);
  e.text(m.distributedInfoJson);
  e.text(m.traceName);
  e.text(m.deviceBackend);
  e.value<std::uint64_t>(m.other.size());
  for (const auto& [k, v] : m.other) e.text(k), e.text(v);
  encodeStrings(e, t.names);
  encodeStrings(e, t.categories);
  e.value<std::uint64_t>(t.lanes.size());
  for (const Lane& l : t.lanes) {
    e.text(l.pid);
    e.text(l.tid);
    e.value(l.pidNumber);
    e.value(l.tidNumber);
    e.text(l.processName);
    e.text(l.threadName);
    e.value(l.processSortIndex);
    e.value(l.threadSortIndex);
    e.value(l.kind);
    e.value(l.device);
    e.value(l.stream);
    e.value(l.firstEvent);
    e.value(l.endEvent);
    e.value(l.maxDepth);
  }
  e.value<std::uint64_t>(t.counters.size());
  for (const CounterSeries& c : t.counters) {
    e.text(c.name);
    e.text(c.pid);
    e.value<std::uint64_t>(c.samples.size());
    for (const auto& [time, v] : c.samples) e.value(time), e.value(v);
    e.value<std::uint64_t>(c.marks.size());
    for (const CounterMark& mark : c.marks) {
      e.value(mark.time);
      e.value(mark.value);
      e.text(mark.label);
      e.text(mark.detail);
      e.value(mark.event);
    }
  }
  e.value<std::uint64_t>(t.problems.all().size());
  for (const Problem& p : t.problems.all()) {
    e.value(p.severity);
    e.text(p.what);
    e.value(p.count);
    e.text(p.example);
  }
  e.value<std::uint8_t>(t.eventArgsRead);
  e.value(t.startNs);
  e.value(t.endNs);
  return e.bytes();
}

bool decodeModel(std::string_view bytes, Trace& t) {
  Decoder d(bytes);
  TraceMetadata& m = t.meta;
  m.schemaVersion = d.text();
  m.baseTimeNanoseconds = d.optional();
  for (auto n = d.count(48); n > 0; --n) {
    DeviceInfo dev;
    dev.id = d.value<std::int64_t>();
    dev.name = d.text();
    dev.totalGlobalMem = d.value<std::int64_t>();
    dev.numSms = d.value<std::int64_t>();
    dev.rawJson = d.text();
    m.devices.push_back(std::move(dev));
  }
  const auto toInt = [](std::optional<std::int64_t> v) {
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
  };
  m.rank = toInt(d.optional());
  m.worldSize = toInt(d.optional());
  m.distributedBackend = d.text();
  m.distributedInfoJson = d.text();
  m.traceName = d.text();
  m.deviceBackend = d.text();
  for (auto n = d.count(16); n > 0; --n) {
    std::string k(d.text());
    m.other.emplace_back(std::move(k), std::string(d.text()));
  }
  if (!decodeStrings(d, t.names) || !decodeStrings(d, t.categories)) return false;
  const auto laneCount = d.count(16);
  t.lanes.resize(laneCount);
  for (Lane& l : t.lanes) {
    l.pid = d.text();
    l.tid = d.text();
    l.pidNumber = d.value<std::int64_t>();
    l.tidNumber = d.value<std::int64_t>();
    l.processName = d.text();
    l.threadName = d.text();
    l.processSortIndex = d.value<std::int64_t>();
    l.threadSortIndex = d.value<std::int64_t>();
    l.kind = d.value<LaneKind>();
    l.device = d.value<std::int32_t>();
    l.stream = d.value<std::int64_t>();
    l.firstEvent = d.value<EventId>();
    l.endEvent = d.value<EventId>();
    l.maxDepth = d.value<std::uint16_t>();
  }
  for (auto n = d.count(16); n > 0; --n) {
    CounterSeries c;
    c.name = d.text();
    c.pid = d.text();
    for (auto s = d.count(16); s > 0; --s) {
      const auto time = d.value<TimeNs>();
      c.samples.emplace_back(time, d.value<double>());
    }
    for (auto k = d.count(16); k > 0; --k) {
      CounterMark mark;
      mark.time = d.value<TimeNs>();
      mark.value = d.value<double>();
      mark.label = d.text();
      mark.detail = d.text();
      mark.event = d.value<EventId>();
      c.marks.push_back(std::move(mark));
    }
    t.counters.push_back(std::move(c));
  }
  for (auto n = d.count(16); n > 0; --n) {
    const auto severity = d.value<Severity>();
    const std::string what(d.text());
    const auto count = d.value<std::uint64_t>();
    t.problems.add(severity, what, count, d.text());
  }
  t.eventArgsRead = d.value<std::uint8_t>() != 0;
  t.startNs = d.value<TimeNs>();
  t.endNs = d.value<TimeNs>();
  return !d.failed() && d.atEnd();
}

// Every index the model holds points inside it: a cache whose checksums match but whose indices
// do not (a writer's bug, a hash collision) is refused rather than served. The columns are checked
// a chunk at a time as they are hashed (ColumnCheck), the rest here.
struct ModelLimits {
  std::size_t events = 0, names = 0, lanes = 0, categories = 0, args = 0;
  bool argsHold(std::uint32_t a) const { return a == kNoArgs || a < args; }
  bool holds(const Event& e) const {
    return e.name < names && e.lane < lanes && e.category < categories &&
           (e.parent == kNoEvent || e.parent < events) && argsHold(e.args);
  }
  bool holds(const Flow& f) const {
    return (f.from == kNoEvent || f.from < events) && (f.to == kNoEvent || f.to < events) &&
           f.category < categories;
  }
  bool holds(const Instant& i) const {
    return i.name < names && i.lane < lanes && argsHold(i.args);
  }
};

bool lanesHold(const Trace& t, std::size_t events) {
  for (const Lane& l : t.lanes)
    if (l.firstEvent > l.endEvent || l.endEvent > events) return false;
  return true;
}

// Writes blocks one after another at aligned offsets from `start`, hashing each; blocks already
// in the file (a streaming load's, placed in it) are entered in the directory as they are.
class BlockWriter {
 public:
  explicit BlockWriter(AtomicFile& file, std::uint64_t start = 0) : file_(file), offset_(start) {}
  Status raw(std::string_view bytes) {
    const std::uint64_t at = offset_;
    offset_ += bytes.size();
    return file_.writeAt(at, bytes);
  }
  void placed(BlockKind kind, std::uint64_t offset, std::uint64_t bytes, std::uint64_t hash) {
    directory_.push_back({static_cast<std::uint32_t>(kind), 0, offset, bytes, hash});
  }
  // The directory in the order of the kinds, as the reader looks blocks up.
  void sortDirectory() {
    std::sort(directory_.begin(), directory_.end(),
              [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.kind < b.kind; });
  }
  void skip(std::uint64_t bytes) { offset_ += bytes; }
  Status block(BlockKind kind, std::string_view bytes) {
    if (const std::size_t pad = (kAlign - offset_ % kAlign) % kAlign; pad > 0)
      if (auto s = raw(std::string(pad, '\0')); !s) return s;
    directory_.push_back(
        {static_cast<std::uint32_t>(kind), 0, offset_, bytes.size(), BlockChecksum::of(bytes)});
    return raw(bytes);
  }
  // A block written in pieces (the args text), hashed as one.
  Status begin(BlockKind kind) {
    if (const std::size_t pad = (kAlign - offset_ % kAlign) % kAlign; pad > 0)
      if (auto s = raw(std::string(pad, '\0')); !s) return s;
    checksum_ = BlockChecksum();
    directory_.push_back({static_cast<std::uint32_t>(kind), 0, offset_, 0, 0});
    return Ok{};
  }
  Status piece(std::string_view bytes) {
    checksum_.add(bytes);
    directory_.back().bytes += bytes.size();
    return raw(bytes);
  }
  void end() { directory_.back().hash = checksum_.value(); }
  std::uint64_t offset() const { return offset_; }
  const std::vector<DirectoryEntry>& directory() const { return directory_; }

 private:
  AtomicFile& file_;
  std::uint64_t offset_;
  std::vector<DirectoryEntry> directory_;
  BlockChecksum checksum_;
};

template <typename T>
std::string_view bytesOf(const Column<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

// A column's block, a few MB at a time; a column that lies in a file (mapped, or built in place
// by the streaming load) has each piece's pages unmapped once written, so writing gigabytes of
// events out keeps little of them resident.
template <typename T>
Status writeColumn(BlockWriter& w, BlockKind kind, const Column<T>& column) {
  if (auto s = w.begin(kind); !s) return s;
  const std::string_view bytes = bytesOf(column);
  constexpr std::size_t kPiece = std::size_t{16} << 20;
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const std::string_view piece = bytes.substr(at, kPiece);
    if (auto s = w.piece(piece); !s) return s;
    if (column.isExternal()) unmapFilePages(piece.data(), piece.size());
  }
  w.end();
  return Ok{};
}

std::string_view bytesOf(const Header& h) { return {reinterpret_cast<const char*>(&h), sizeof h}; }

// The checksum of [offset, offset + bytes) of `fd`, read with pread: checking a mapped block this
// way leaves the mapping untouched, so the block's pages are not resident until used. `visit`
// (where given) sees the bytes too, in pieces of whole `unit`s, and returns false where they are
// wrong: then so is the range (nullopt).
std::optional<std::uint64_t> hashRange(
    int fd, std::uint64_t offset, std::uint64_t bytes,
    const std::function<bool(const char*, std::size_t)>& visit = {}, std::size_t unit = 1) {
  BlockChecksum checksum;
  std::vector<char> buffer((std::size_t{4} << 20) / unit * unit);
  while (bytes > 0) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(bytes, buffer.size()));
    std::size_t have = 0;
    while (have < want) {  // a short read is read on, so that a piece holds whole units
      const ssize_t got =
          ::pread(fd, buffer.data() + have, want - have, static_cast<off_t>(offset + have));
      if (got <= 0) return std::nullopt;
      have += static_cast<std::size_t>(got);
    }
    checksum.add({buffer.data(), have});
    if (visit && !visit(buffer.data(), have)) return std::nullopt;
    offset += have;
    bytes -= have;
  }
  return checksum.value();
}

// Whether the column's block in `fd` has `hash` and each of its values holds in `limits`.
template <typename T>
bool columnChecks(int fd, std::string_view block, const char* base, std::uint64_t hash,
                  const ModelLimits& limits) {
  if (block.size() % sizeof(T) != 0) return false;
  const auto visit = [&](const char* bytes, std::size_t n) {
    for (std::size_t at = 0; at < n; at += sizeof(T)) {
      T value;
      std::memcpy(&value, bytes + at, sizeof value);
      if (!limits.holds(value)) return false;
    }
    return true;
  };
  return hashRange(fd, static_cast<std::uint64_t>(block.data() - base), block.size(), visit,
                   sizeof(T)) == hash;
}

std::string errnoText(const std::string& what, int err) { return what + ": " + std::strerror(err); }

// Whether the blocks of `dir` lie apart in [from, to) of the file at `base` and every byte
// between them is zero: then each byte of a cache is checked (header and directory by the
// footer's hash, blocks by theirs, padding here), and a flip anywhere is noticed. The padding is
// less than a page before the first block and under 64 bytes after each.
bool onlyZerosBetween(std::vector<DirectoryEntry> dir, const char* base, std::uint64_t from,
                      std::uint64_t to) {
  std::sort(dir.begin(), dir.end(), [](const DirectoryEntry& a, const DirectoryEntry& b) {
    // An empty block may share its offset with the next one: it comes first.
    return a.offset != b.offset ? a.offset < b.offset : a.bytes < b.bytes;
  });
  const auto zeros = [&](std::uint64_t begin, std::uint64_t end) {
    return std::all_of(base + begin, base + end, [](char c) { return c == 0; });
  };
  std::uint64_t at = from;
  for (const DirectoryEntry& e : dir) {
    if (e.offset < at || !zeros(at, e.offset)) return false;
    at = e.offset + e.bytes;
  }
  return at <= to && zeros(at, to);
}

// Whether each column's block in the cache at `path` (mapped at `base`) has its checksum and
// holds only indices within `limits`, read with pread, which leaves the mapping untouched: nothing
// of the columns is resident until a view reads it. The events on one core, the rest on another.
Status checkColumns(const std::string& path, const char* base,
                    const std::array<std::string_view, kBlockCount + 1>& blocks,
                    const std::vector<DirectoryEntry>& dir, const ModelLimits& limits) {
  const auto hashOf = [&](BlockKind kind) { return dir[static_cast<std::size_t>(kind) - 1].hash; };
  const auto blockOf = [&](BlockKind kind) { return blocks[static_cast<int>(kind)]; };
  const auto offsetOf = [&](std::string_view block) {
    return static_cast<std::uint64_t>(block.data() - base);
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return makeError(path, errnoText("cannot open", errno));
  bool argsOk = false;
  std::thread argsChecker([&] {
    std::uint64_t last = 0;
    bool growing = true;
    const auto offsetsGrow = [&](const char* bytes, std::size_t n) {
      for (std::size_t at = 0; at < n; at += 8) {
        std::uint64_t v;
        std::memcpy(&v, bytes + at, 8);
        growing = growing && v >= last;  // every entry a view inside the text
        last = v;
      }
      return growing;
    };
    const std::string_view offsets = blockOf(BlockKind::ArgsOffsets);
    const std::string_view text = blockOf(BlockKind::ArgsText);
    argsOk =
        hashRange(fd, offsetOf(offsets), offsets.size(), offsetsGrow, 8) ==
            hashOf(BlockKind::ArgsOffsets) &&
        hashRange(fd, offsetOf(text), text.size()) == hashOf(BlockKind::ArgsText) &&
        columnChecks<Flow>(fd, blockOf(BlockKind::Flows), base, hashOf(BlockKind::Flows), limits) &&
        columnChecks<Instant>(fd, blockOf(BlockKind::Instants), base, hashOf(BlockKind::Instants),
                              limits);
  });
  const bool eventsOk =
      columnChecks<Event>(fd, blockOf(BlockKind::Events), base, hashOf(BlockKind::Events), limits);
  argsChecker.join();
  ::close(fd);
  if (!eventsOk) return makeError(path, "damaged (the events' checksum or an index they hold)");
  if (!argsOk)
    return makeError(path, "damaged (the args, flows or instants: a checksum or an index)");
  return Ok{};
}

}  // namespace

Result<SourceIdentity> sourceIdentity(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return makeError(path, errnoText("cannot open", errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return makeError(path, errnoText("cannot stat", err));
  }
  SourceIdentity id;
  id.size = static_cast<std::uint64_t>(st.st_size);
  id.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  // The head and the tail: a file rewritten within the mtime's resolution at the same size still
  // differs there (a trace's metadata sits at both ends).
  const std::uint64_t head = std::min<std::uint64_t>(id.size, kHeadTailBytes);
  const std::uint64_t tailStart =
      std::max<std::uint64_t>(head, id.size - std::min<std::uint64_t>(id.size, kHeadTailBytes));
  const auto headHash = hashRange(fd, 0, head);
  const auto tailHash = hashRange(fd, tailStart, id.size - tailStart);
  ::close(fd);
  if (!headHash || !tailHash) return makeError(path, "cannot read");
  id.headTailHash = *headHash * 31 + *tailHash;
  return id;
}

namespace {

Header headerOf(const SourceIdentity& identity) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kTraceCacheFormatVersion;
  h.byteOrder = kByteOrderMark;
  h.eventBytes = sizeof(Event);
  h.flowBytes = sizeof(Flow);
  h.instantBytes = sizeof(Instant);
  h.sourceSize = identity.size;
  h.sourceMtimeNs = identity.mtimeNs;
  h.sourceHeadTailHash = identity.headTailHash;
  return h;
}

// The cache of `trace` into `file`, committed. With `placed`, the args text and (unless the load
// says otherwise) the events already lie in the file where it says, with the checksums the load
// took as it wrote them: they are entered in the directory, not written or read again.
Status writeCacheInto(AtomicFile& file, const Trace& trace, const SourceIdentity& identity,
                      const KinetoReadOptions::InPlaceColumns* placed,
                      const std::function<void(int blocksWritten)>& afterBlock) {
  const Header h = headerOf(identity);
  const bool eventsPlaced = placed && placed->eventsOffset != 0;
  std::uint64_t start = 0;
  if (placed)
    start = std::max(placed->text.offset + placed->textBytes,
                     eventsPlaced ? placed->eventsOffset + placed->eventBytes : 0);
  BlockWriter w(file, start);
  if (auto s = file.writeAt(0, bytesOf(h)); !s) return s;
  if (placed) {
    // What the placed columns' regions hold past their ends (an earlier pass of the load may have
    // left text there) is cleared up to the next block: the reader wants zeros between blocks.
    const std::uint64_t textEnd = placed->text.offset + placed->textBytes;
    const auto clear = [&](std::uint64_t from, std::uint64_t to) {
      return from >= to ? Status(Ok{}) : file.writeAt(from, std::string(to - from, '\0'));
    };
    const std::uint64_t firstBlock = (start + kAlign - 1) / kAlign * kAlign;
    if (auto s = clear(textEnd, eventsPlaced ? placed->eventsOffset : firstBlock); !s) return s;
    if (eventsPlaced)
      if (auto s = clear(placed->eventsOffset + placed->eventBytes, firstBlock); !s) return s;
  }
  if (!placed) w.skip(sizeof h);
  int written = 0;
  const auto step = [&](Status s) {
    if (s && afterBlock) afterBlock(++written);
    return s;
  };
  Status status = [&]() -> Status {
    if (auto s = step(w.block(BlockKind::Model, encodeModel(trace))); !s) return s;
    if (!eventsPlaced)
      if (auto s = step(writeColumn(w, BlockKind::Events, trace.events)); !s) return s;
    if (auto s = step(writeColumn(w, BlockKind::Flows, trace.flows)); !s) return s;
    if (auto s = step(writeColumn(w, BlockKind::Instants, trace.instants)); !s) return s;
    // The args as one text and its offsets, a few MB at a time (ArgsStore hands them so).
    Status failed = Ok{};
    const auto put = [&](std::string_view bytes) {
      failed = w.piece(bytes);
      return static_cast<bool>(failed);
    };
    if (auto s = w.begin(BlockKind::ArgsOffsets); !s) return s;
    trace.args.forEachOffsetPiece([&](std::span<const std::uint64_t> values) {
      return put({reinterpret_cast<const char*>(values.data()), values.size_bytes()});
    });
    if (!failed) return failed;
    w.end();
    if (auto s = step(Ok{}); !s) return s;
    if (placed) {
      w.placed(BlockKind::ArgsText, placed->text.offset, placed->textBytes, placed->textChecksum);
      if (auto s = step(Ok{}); !s) return s;
      if (eventsPlaced) {
        w.placed(BlockKind::Events, placed->eventsOffset, placed->eventBytes,
                 placed->eventsChecksum);
        if (auto s = step(Ok{}); !s) return s;
      }
      return Ok{};
    }
    if (auto s = w.begin(BlockKind::ArgsText); !s) return s;
    trace.args.forEachTextPiece(put);
    if (!failed) return failed;
    w.end();
    return step(Ok{});
  }();
  if (!status) return status;
  w.sortDirectory();
  const std::uint64_t directoryOffset = w.offset();
  const auto& dir = w.directory();
  const std::string_view dirBytes(reinterpret_cast<const char*>(dir.data()),
                                  dir.size() * sizeof(DirectoryEntry));
  if (auto s = w.raw(dirBytes); !s) return s;
  Footer f{};
  f.directoryOffset = directoryOffset;
  f.blockCount = dir.size();
  BlockChecksum headAndDirectory;
  headAndDirectory.add(bytesOf(h));
  headAndDirectory.add(dirBytes);
  f.hash = headAndDirectory.value();
  f.fileBytes = w.offset() + sizeof f;
  std::memcpy(f.magic, kEndMagic, sizeof kEndMagic);
  if (auto s = w.raw({reinterpret_cast<const char*>(&f), sizeof f}); !s) return s;
  // The placed columns' regions were allocated in whole steps that may reach past the footer.
  if (placed)
    if (auto s = file.resize(f.fileBytes); !s) return s;
  return file.commit();
}

// Not synced to the disk: a cache torn by a power loss fails its checksums and is rebuilt.
Result<AtomicFile> createCacheFile(const std::string& cachePath) {
  AtomicFileOptions options;
  options.durable = false;
  return AtomicFile::create(cachePath, options);
}

}  // namespace

Status writeTraceCache(const Trace& trace, const SourceIdentity& identity,
                       const std::string& cachePath,
                       const std::function<void(int blocksWritten)>& afterBlock) {
  auto file = createCacheFile(cachePath);
  if (!file) return file.error();
  return writeCacheInto(*file, trace, identity, nullptr, afterBlock);
}

Result<std::unique_ptr<TraceCacheDraft>> TraceCacheDraft::create(const std::string& cachePath) {
  auto file = createCacheFile(cachePath);
  if (!file) return file.error();
  auto draft = std::unique_ptr<TraceCacheDraft>(new TraceCacheDraft(std::move(*file)));
  // The header's page stays before the text: the text's mapping starts at a page boundary.
  draft->columns_.text = {draft->file_.descriptor(),
                          static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE))};
  return draft;
}

TraceCacheDraft::TraceCacheDraft(AtomicFile file) : file_(std::move(file)) {}
TraceCacheDraft::~TraceCacheDraft() = default;

Status TraceCacheDraft::finish(const Trace& trace, const SourceIdentity& identity,
                               const std::function<void(int blocksWritten)>& afterBlock) {
  const auto id = fileIdOf(file_.descriptor());  // the same file once renamed into place
  Status s = writeCacheInto(file_, trace, identity, &columns_, afterBlock);
  if (s) written_ = id;
  return s;
}

Result<Trace> readTraceCache(const std::string& cachePath, const SourceIdentity& identity,
                             const std::string& sourcePath, std::optional<FileId> writtenHere) {
  auto mapped = MappedFile::open(cachePath);
  if (!mapped) return mapped.error();
  const std::shared_ptr<const MappedFile> map = *mapped;
  const char* base = map->data();
  const std::size_t size = map->size();
  const auto refuse = [&](const std::string& why) { return makeError(cachePath, why); };
  if (size < sizeof(Header) + sizeof(Footer)) return refuse("truncated (no header and footer)");
  Header h;
  std::memcpy(&h, base, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return refuse("not a Sutra trace cache");
  if (h.version != kTraceCacheFormatVersion)
    return refuse("format version " + std::to_string(h.version) + ", this Sutra reads " +
                  std::to_string(kTraceCacheFormatVersion));
  if (h.byteOrder != kByteOrderMark || h.eventBytes != sizeof(Event) ||
      h.flowBytes != sizeof(Flow) || h.instantBytes != sizeof(Instant))
    return refuse("written by a build with another byte order or model layout");
  if (SourceIdentity{h.sourceSize, h.sourceMtimeNs, h.sourceHeadTailHash} != identity)
    return refuse("made from another version of " + displayPath(sourcePath));
  Footer f;
  std::memcpy(&f, base + size - sizeof f, sizeof f);
  if (std::memcmp(f.magic, kEndMagic, sizeof kEndMagic) != 0 || f.fileBytes != size)
    return refuse("truncated or damaged (the footer does not match the file's size)");
  if (f.blockCount != kBlockCount ||
      f.directoryOffset + f.blockCount * sizeof(DirectoryEntry) + sizeof f != size)
    return refuse("damaged (the block directory is not where the footer says)");
  std::vector<DirectoryEntry> dir(kBlockCount);
  std::memcpy(dir.data(), base + f.directoryOffset, kBlockCount * sizeof(DirectoryEntry));
  {
    BlockChecksum headAndDirectory;
    headAndDirectory.add(bytesOf(h));
    headAndDirectory.add(
        {reinterpret_cast<const char*>(dir.data()), kBlockCount * sizeof(DirectoryEntry)});
    if (headAndDirectory.value() != f.hash) return refuse("damaged (header or directory)");
  }
  std::array<std::string_view, kBlockCount + 1> blocks;
  for (const DirectoryEntry& e : dir) {
    if (e.kind < 1 || e.kind > kBlockCount || e.offset % kAlign != 0 ||
        e.offset > f.directoryOffset || e.bytes > f.directoryOffset - e.offset)
      return refuse("damaged (a block lies outside the file)");
    blocks[e.kind] = {base + e.offset, e.bytes};
  }
  if (!onlyZerosBetween(dir, base, sizeof(Header), f.directoryOffset))
    return refuse("damaged (the blocks overlap, or bytes between them are not zero)");
  const auto hashOf = [&](BlockKind kind) { return dir[static_cast<std::size_t>(kind) - 1].hash; };
  const std::string_view argsOffsets = blocks[static_cast<int>(BlockKind::ArgsOffsets)];
  const std::string_view argsText = blocks[static_cast<int>(BlockKind::ArgsText)];
  if (argsOffsets.size() % 8 != 0 || argsOffsets.empty()) return refuse("damaged (args offsets)");

  Trace trace;
  trace.path = sourcePath;
  const std::string_view model = blocks[static_cast<int>(BlockKind::Model)];
  if (BlockChecksum::of(model) != hashOf(BlockKind::Model) || !decodeModel(model, trace))
    return refuse("damaged (the model block)");
  const auto blockOf = [&](BlockKind kind) { return blocks[static_cast<int>(kind)]; };
  const std::size_t argsCount = argsOffsets.size() / 8 - 1;
  const std::string_view eventsBlock = blockOf(BlockKind::Events);
  ModelLimits limits{eventsBlock.size() / sizeof(Event), trace.names.size(), trace.lanes.size(),
                     trace.categories.size(), argsCount};
  if (!lanesHold(trace, limits.events)) return refuse("damaged (a lane's events lie outside)");

  // Every column is mapped, not copied, and checked where this process did not just write it.
  if (!writtenHere || map->id() != *writtenHere)
    if (auto checked = checkColumns(cachePath, base, blocks, dir, limits); !checked)
      return checked.error();
  const auto* offsets = reinterpret_cast<const std::uint64_t*>(argsOffsets.data());
  if (offsets[0] != 0 || offsets[argsCount] != argsText.size())
    return refuse("damaged (args offsets)");
  const auto mapColumn = [&](BlockKind kind, auto& column) {
    using T = typename std::remove_reference_t<decltype(column)>::value_type;
    const std::string_view bytes = blockOf(kind);
    column = std::remove_reference_t<decltype(column)>::mapped(
        map, reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T));
  };
  mapColumn(BlockKind::Events, trace.events);
  mapColumn(BlockKind::Flows, trace.flows);
  mapColumn(BlockKind::Instants, trace.instants);
  trace.args = ArgsStore::mapped(map, argsText.data(), offsets, argsCount);
  return trace;
}

}  // namespace sutra
