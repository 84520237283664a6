// SPDX-License-Identifier: MIT
#include "analysis/op_table.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "link/launch_index.h"
#include "model/event_args.h"
#include "util/scratch_array.h"

namespace sutra {
namespace {

enum class RowKind : std::uint8_t { None, Host, Device };

// torch's _filter_name: utility ops it leaves out of its events altogether.
constexpr std::array<std::string_view, 6> kFilteredNames = {"profiler::_record_function_enter",
                                                            "profiler::_record_function_enter_new",
                                                            "profiler::_record_function_exit",
                                                            "aten::is_leaf",
                                                            "aten::output_nr",
                                                            "aten::_version"};

constexpr std::string_view kProfilerStepPrefix = "ProfilerStep#";
constexpr std::string_view kMemoryEventName = "[memory]";

// One [memory] event's Bytes, split by torch's device types (c10::DeviceType).
struct MemoryRecord {
  TimeNs time = 0;
  std::int64_t cpuBytes = 0;     // CPU (0), MKLDNN (2), IDEEP (5)
  std::int64_t deviceBytes = 0;  // CUDA (1), HIP (6), XPU (12), PrivateUse1 (20)
};
constexpr std::uint32_t kNone = UINT32_MAX;

// The raw JSON value of "Input Dims" in an event's args text, or empty.
std::string_view inputDimsValue(std::string_view args) {
  constexpr std::string_view key = "\"Input Dims\"";
  const auto at = args.find(key);
  if (at == std::string_view::npos) return {};
  auto i = args.find_first_not_of(" \t\r\n", at + key.size());
  if (i == std::string_view::npos || args[i] != ':') return {};
  i = args.find_first_not_of(" \t\r\n", i + 1);
  if (i == std::string_view::npos || args[i] != '[') return {};
  int depth = 0;
  for (std::size_t j = i; j < args.size(); ++j) {
    if (args[j] == '[')
      ++depth;
    else if (args[j] == ']' && --depth == 0)
      return args.substr(i, j - i + 1);
  }
  return {};
}

class TableBuilder {
 public:
  TableBuilder(const Trace& trace, const LaunchIndex& launches, const OpTableOptions& options)
      : trace_(trace), launches_(launches), options_(options) {}

  OpTable build() {
    classify();
    nest();
    attributeDevice();
    readMemory();
    aggregate();
    return std::move(table_);
  }

 private:
  void classify() {
    std::vector<bool> filtered(trace_.names.size(), false);
    for (auto name : kFilteredNames)
      if (auto id = trace_.names.find(name); id != StringTable::kMissing) filtered[id] = true;
    kind_ = scratchArray(trace_.events.size(), RowKind::None);
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      const Event& e = trace_.events[i];
      if (filtered[e.name]) continue;
      switch (e.klass) {
        case CategoryClass::CpuOp:
        case CategoryClass::UserAnnotation:
        case CategoryClass::PythonFunction:
        case CategoryClass::Runtime:
        case CategoryClass::Driver:
          kind_[i] = RowKind::Host;
          break;
        case CategoryClass::Kernel:
        case CategoryClass::Memcpy:
        case CategoryClass::Memset:
          kind_[i] = RowKind::Device;
          break;
        default:
          break;
      }
    }
  }

  // The row parent of each host row: the nearest enclosing host row on its thread, by torch's rule
  // (a child starts before its parent ends and ends no later), skipping what is no row.
  void nest() {
    const auto& events = trace_.events;
    parent_ = scratchArray(events.size(), kNoEvent);
    selfCpu_ = scratchArray<TimeNs>(events.size(), 0);
    childCount_ = scratchArray<std::uint32_t>(events.size(), 0);
    for (EventId i = 0; i < events.size(); ++i) {
      if (kind_[i] != RowKind::Host) continue;
      const Event& e = events[i];
      selfCpu_[i] += e.dur;
      EventId p = e.parent;
      while (p != kNoEvent &&
             (kind_[p] != RowKind::Host || e.start >= events[p].end() || e.end() > events[p].end()))
        p = events[p].parent;
      parent_[i] = p;
      if (p != kNoEvent) {
        selfCpu_[p] -= e.dur;
        ++childCount_[p];
      }
    }
  }

  void attributeDevice() {
    const auto& events = trace_.events;
    selfDevice_ = scratchArray<TimeNs>(events.size(), 0);
    deviceTotal_ = scratchArray<TimeNs>(events.size(), 0);
    for (EventId d = 0; d < events.size(); ++d) {
      if (kind_[d] != RowKind::Device) continue;
      EventId l = launches_.launcherOf(d);
      // The launcher may be a frame that is no row (a filtered utility op): its nearest row
      // ancestor.
      while (l != kNoEvent && kind_[l] != RowKind::Host) l = events[l].parent;
      if (l != kNoEvent) selfDevice_[l] += events[d].dur;
    }
    // Parents precede their children in `events` (sorted by start, longer first): one reverse pass.
    for (EventId i = static_cast<EventId>(events.size()); i-- > 0;) {
      if (kind_[i] != RowKind::Host) continue;
      deviceTotal_[i] += selfDevice_[i];
      if (parent_[i] != kNoEvent) deviceTotal_[parent_[i]] += deviceTotal_[i];
    }
  }

  // The [memory] events by time, with prefix sums, so that each host op's memory is two binary
  // searches (torch's MemRecordsAcc.in_interval).
  void readMemory() {
    const StringId name = trace_.names.find(kMemoryEventName);
    if (name == StringTable::kMissing) return;
    for (const Instant& i : trace_.instants) {
      if (i.name != name || i.args == kNoArgs) continue;
      const auto args = nlohmann::json::parse(trace_.args.get(i.args), nullptr, false);
      const auto bytes = args.is_object() ? integerArg(args, "Bytes") : std::nullopt;
      if (!bytes) continue;
      MemoryRecord r{i.time, 0, 0};
      switch (integerArg(args, "Device Type").value_or(0)) {
        case 0:
        case 2:
        case 5:
          r.cpuBytes = *bytes;
          break;
        case 1:
        case 6:
        case 12:
        case 20:
          r.deviceBytes = *bytes;
          table_.deviceMemoryRecorded = true;
          break;
        default:
          break;
      }
      memory_.push_back(r);
    }
    table_.memoryRecorded = !memory_.empty();
    std::stable_sort(memory_.begin(), memory_.end(),
                     [](const MemoryRecord& a, const MemoryRecord& b) { return a.time < b.time; });
    cpuPrefix_.assign(memory_.size() + 1, 0);
    devicePrefix_.assign(memory_.size() + 1, 0);
    for (std::size_t k = 0; k < memory_.size(); ++k) {
      cpuPrefix_[k + 1] = cpuPrefix_[k] + memory_[k].cpuBytes;
      devicePrefix_[k + 1] = devicePrefix_[k] + memory_[k].deviceBytes;
    }
    // Each host op's memory, its self memory (less its row children's), and which records some
    // host op holds: the others are torch's top-level "[memory]" calls.
    const auto& events = trace_.events;
    cpuMemory_.assign(events.size(), 0);
    deviceMemory_.assign(events.size(), 0);
    std::vector<std::int64_t> covered(memory_.size() + 1, 0);  // +1 at a range's start, -1 past it
    for (EventId i = 0; i < events.size(); ++i) {
      if (kind_[i] != RowKind::Host) continue;
      const auto [from, to] = memoryRange(events[i].start, events[i].end());
      cpuMemory_[i] = cpuPrefix_[to] - cpuPrefix_[from];
      deviceMemory_[i] = devicePrefix_[to] - devicePrefix_[from];
      if (from < to) {
        ++covered[from];
        --covered[to];
      }
    }
    selfCpuMemory_ = cpuMemory_;
    selfDeviceMemory_ = deviceMemory_;
    for (EventId i = 0; i < events.size(); ++i)
      if (kind_[i] == RowKind::Host && parent_[i] != kNoEvent) {
        selfCpuMemory_[parent_[i]] -= cpuMemory_[i];
        selfDeviceMemory_[parent_[i]] -= deviceMemory_[i];
      }
    std::int64_t open = 0;
    topLevelMemory_.clear();
    for (std::size_t k = 0; k < memory_.size(); ++k) {
      open += covered[k];
      if (open == 0) topLevelMemory_.push_back(k);
    }
  }

  // The records with start <= time <= end, as [first, last) indices into memory_.
  std::pair<std::size_t, std::size_t> memoryRange(TimeNs start, TimeNs end) const {
    auto byTime = [](const MemoryRecord& r, TimeNs t) { return r.time < t; };
    const auto first = std::lower_bound(memory_.begin(), memory_.end(), start, byTime);
    const auto last = std::upper_bound(first, memory_.end(), end,
                                       [](TimeNs t, const MemoryRecord& r) { return t < r.time; });
    return {static_cast<std::size_t>(first - memory_.begin()),
            static_cast<std::size_t>(last - memory_.begin())};
  }

  // The memory events in no host op, in the window: calls of one "[memory]" row.
  void addTopLevelMemoryRow() {
    std::uint32_t k = kNone;
    for (std::size_t m : topLevelMemory_) {
      if (!options_.window.contains(memory_[m].time)) continue;
      if (k == kNone) k = newRow(std::string(kMemoryEventName), false, {});
      OpRow& r = table_.rows[k];
      ++r.calls;
      r.cpuMemory += memory_[m].cpuBytes;
      r.selfCpuMemory += memory_[m].cpuBytes;
      r.deviceMemory += memory_[m].deviceBytes;
      r.selfDeviceMemory += memory_[m].deviceBytes;
    }
    if (k != kNone) memoryRow_ = k;
  }

  // The whole trace's window (or a wider one): it holds the work launched before the trace too.
  bool wholeTrace() const {
    return options_.window.start <= trace_.startNs && options_.window.end > trace_.endNs;
  }

  bool inWindow(EventId i) {
    const Event& e = trace_.events[i];
    if (kind_[i] == RowKind::Device) {
      const EventId call = launches_.runtimeCallOf(i);
      if (call != kNoEvent) return options_.window.contains(trace_.events[call].start);
      // Launched before the trace: no step of it launched this op.
      if (!options_.window.contains(e.start)) return false;
      ++table_.launchedBefore.ops;
      table_.launchedBefore.time += e.dur;
      return table_.launchedBefore.inRows;
    }
    return options_.window.contains(e.start);
  }

  std::uint32_t rowOf(EventId i) {
    const Event& e = trace_.events[i];
    const int side = kind_[i] == RowKind::Device ? 1 : 0;
    auto& byName = rowByName_[side];
    if (byName.empty()) byName.assign(trace_.names.size(), kNone);
    std::uint32_t nameRow = byName[e.name];
    if (nameRow == kNone) {
      std::string display(trace_.name(e));
      if (display.starts_with(kProfilerStepPrefix)) display = "ProfilerStep*";  // torch's wildcard
      auto [it, added] = rowByDisplay_[side].try_emplace(display, newRow(display, side == 1, {}));
      nameRow = byName[e.name] = it->second;
    }
    if (!options_.groupByInputShapes) return nameRow;
    // A trace read without its args has no shapes to group by: say so rather than group all as
    // one shapeless row.
    std::string shapes = trace_.eventArgsRead
                             ? formatInputShapes(inputDimsValue(trace_.argsJson(e)))
                             : std::string("(args not read)");
    std::string key = std::to_string(nameRow) + '\x1f' + shapes;
    auto it = rowByShape_.find(key);
    if (it != rowByShape_.end()) return it->second;
    const auto row = newRow(table_.rows[nameRow].name, side == 1, std::move(shapes));
    rowByShape_.emplace(std::move(key), row);
    return row;
  }

  std::uint32_t newRow(const std::string& name, bool onDevice, std::string shapes) {
    OpRow row;
    row.name = name;
    row.onDevice = onDevice;
    row.inputShapes = std::move(shapes);
    table_.rows.push_back(std::move(row));
    return static_cast<std::uint32_t>(table_.rows.size() - 1);
  }

  void aggregate() {
    const auto& events = trace_.events;
    table_.device = trace_.meta.deviceBackend;
    table_.window = options_.window;
    table_.groupedByInputShapes = options_.groupByInputShapes;
    table_.recursionCountedOnce = options_.countRecursionOnce;
    table_.launchedBefore.inRows = wholeTrace();
    // By name alone, rows are made for every name first and the shape rows after them; the
    // name rows that only served as a key for shape rows are dropped at the end.
    auto row = scratchArray<std::uint32_t>(events.size(), kNone);
    for (EventId i = 0; i < events.size(); ++i)
      if (kind_[i] != RowKind::None && inWindow(i)) row[i] = rowOf(i);
    // torch merges an op into its parent of the same name where it is the parent's only child
    // (_remove_dup_nodes, by name, before any grouping by shapes), and so on down a chain of
    // them: such an op is no call of its own, its self times go to the op it was merged into.
    // Parents precede their children, so one forward pass resolves the chains.
    auto mergedInto = scratchArray(events.size(), kNoEvent);
    for (EventId i = 0; i < events.size(); ++i) {
      if (row[i] == kNone || kind_[i] != RowKind::Host) continue;
      const EventId p = parent_[i];
      const bool merged = p != kNoEvent && row[p] != kNone && events[p].name == events[i].name &&
                          childCount_[p] == 1;
      mergedInto[i] = merged ? mergedInto[p] : i;
    }
    addTopLevelMemoryRow();
    std::vector<bool> used(table_.rows.size(), false);
    if (memoryRow_ != kNone) used[memoryRow_] = true;
    for (EventId i = 0; i < events.size(); ++i) {
      if (row[i] == kNone) continue;
      const Event& e = events[i];
      if (kind_[i] == RowKind::Device) {
        OpRow& r = table_.rows[row[i]];
        used[row[i]] = true;
        r.events.push_back(i);
        ++r.calls;
        r.selfDevice += e.dur;
        r.deviceTotal += e.dur;
        continue;
      }
      const bool merged = mergedInto[i] != i;
      const std::uint32_t k = row[mergedInto[i]];
      OpRow& r = table_.rows[k];
      used[k] = true;
      r.events.push_back(i);
      r.selfCpu += selfCpu_[i];
      r.selfDevice += selfDevice_[i];
      if (!memory_.empty()) {
        r.selfCpuMemory += selfCpuMemory_[i];
        r.selfDeviceMemory += selfDeviceMemory_[i];
      }
      if (merged) continue;  // its totals are inside the op it was merged into
      ++r.calls;
      if (!memory_.empty()) {
        r.cpuMemory += cpuMemory_[i];
        r.deviceMemory += deviceMemory_[i];
      }
      bool nestedInItself = false;
      if (options_.countRecursionOnce)
        for (EventId a = parent_[i]; a != kNoEvent && !nestedInItself; a = parent_[a])
          nestedInItself = row[a] == k;
      if (!nestedInItself) {
        r.cpuTotal += e.dur;
        r.deviceTotal += deviceTotal_[i];
      }
    }
    std::vector<OpRow> rows;
    for (std::size_t k = 0; k < table_.rows.size(); ++k) {
      if (k < used.size() && !used[k]) continue;
      auto& r = table_.rows[k];
      // The events came in event order: one run per lane, each already in start order. Merging
      // the runs costs far less than sorting (measured: the sort was 15% of the table's time).
      auto byStart = [&](EventId a, EventId b) {
        return events[a].start != events[b].start ? events[a].start < events[b].start : a < b;
      };
      auto first = r.events.begin();
      for (auto it = first; it != r.events.end();) {
        auto runEnd = it + 1;
        while (runEnd != r.events.end() && events[*runEnd].lane == events[*it].lane) ++runEnd;
        if (it != first) std::inplace_merge(first, it, runEnd, byStart);
        it = runEnd;
      }
      table_.selfCpuTotal += r.selfCpu;
      if (r.onDevice) table_.selfDeviceTotal += r.selfDevice;
      rows.push_back(std::move(r));
    }
    table_.rows = std::move(rows);
  }

  const Trace& trace_;
  const LaunchIndex& launches_;
  const OpTableOptions& options_;
  OpTable table_;
  // One value per event: in a file where the trace has tens of millions (util/scratch_array.h).
  MappedArray<RowKind> kind_;
  MappedArray<EventId> parent_;
  MappedArray<TimeNs> selfCpu_, selfDevice_, deviceTotal_;
  MappedArray<std::uint32_t> childCount_;
  std::vector<MemoryRecord> memory_;
  std::vector<std::int64_t> cpuPrefix_, devicePrefix_;
  std::vector<std::int64_t> cpuMemory_, deviceMemory_, selfCpuMemory_, selfDeviceMemory_;
  std::vector<std::size_t> topLevelMemory_;
  std::uint32_t memoryRow_ = kNone;
  std::array<std::vector<std::uint32_t>, 2> rowByName_;
  std::array<std::unordered_map<std::string, std::uint32_t>, 2> rowByDisplay_;
  std::unordered_map<std::string, std::uint32_t> rowByShape_;
};

}  // namespace

bool OpTable::hasDeviceTime() const {
  return std::any_of(rows.begin(), rows.end(), [](const OpRow& r) { return r.selfDevice > 0; });
}

OpTable buildOpTable(const Trace& trace, const LaunchIndex& launches,
                     const OpTableOptions& options) {
  return TableBuilder(trace, launches, options).build();
}

void sortOpRows(std::vector<OpRow>& rows, OpSort by) {
  auto key = [by](const OpRow& r) -> TimeNs {
    switch (by) {
      case OpSort::SelfDevice:
        return r.selfDevice;
      case OpSort::SelfCpu:
        return r.selfCpu;
      case OpSort::CpuTotal:
        return r.cpuTotal;
      case OpSort::DeviceTotal:
        return r.deviceTotal;
      case OpSort::Calls:
        return static_cast<TimeNs>(r.calls);
      case OpSort::Name:
        return 0;
    }
    return 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const OpRow& a, const OpRow& b) {
    const TimeNs ka = key(a), kb = key(b);
    if (ka != kb) return ka > kb;
    if (a.name != b.name) return a.name < b.name;
    if (a.onDevice != b.onDevice) return b.onDevice;
    return a.inputShapes < b.inputShapes;
  });
}

std::optional<OpSort> parseOpSort(std::string_view text) {
  if (text == "self_device") return OpSort::SelfDevice;
  if (text == "self_cpu") return OpSort::SelfCpu;
  if (text == "cpu_total") return OpSort::CpuTotal;
  if (text == "device_total") return OpSort::DeviceTotal;
  if (text == "calls") return OpSort::Calls;
  if (text == "name") return OpSort::Name;
  return std::nullopt;
}

std::string formatInputShapes(std::string_view json) {
  if (json.empty()) return "[]";
  std::string out;
  out.reserve(json.size() + json.size() / 2);
  for (char c : json) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    out.push_back(c);
    if (c == ',') out.push_back(' ');
  }
  return out;
}

}  // namespace sutra
