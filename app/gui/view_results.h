// SPDX-License-Identifier: MIT
#pragma once
// The analysis views' results (step breakdown, call tree, flame graph, critical path, memory),
// computed off the GUI thread and kept. A view's window opens at once with a "computing..." note
// and fills in when its result comes; the result stays, keyed by its rank's data and by what was
// asked (the view, the range, the step), for as long as that rank is loaded: a window closed
// before its result came loses nothing, and opening it again shows the result at once.
#include <QFutureWatcher>
#include <QLabel>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <QtConcurrent>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace sutra::gui {

class ViewResults : public QObject {
 public:
  explicit ViewResults(QObject* parent = nullptr) : QObject(parent) {}

  // Runs `compute` on a worker thread, unless `key` of `owner` is known or being computed, and
  // calls `apply` with the result on the GUI thread while `view` lives: at once where the result
  // is known, else once it comes, `view` showing a "computing..." note meanwhile.
  template <typename T>
  void request(const std::shared_ptr<const void>& owner, const QString& key, QWidget* view,
               std::function<T()> compute, std::function<void(const T&)> apply) {
    dropStale();
    const Key k{owner.get(), key};
    Entry& entry = entries_[k];
    entry.owner = owner;
    entry.used = ++clock_;
    if (entry.result) {
      apply(*std::static_pointer_cast<const T>(entry.result));
      return;
    }
    QPointer<QWidget> target(view);
    QPointer<QLabel> note(computingNote(view));
    entry.waiting.push_back([target, note, apply](const std::shared_ptr<const void>& result) {
      delete note.data();
      if (target) apply(*std::static_pointer_cast<const T>(result));
    });
    if (entry.running) return;
    entry.running = true;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const void>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<const void>>::finished, this,
            [this, watcher, k] {
              const std::shared_ptr<const void> result = watcher->result();
              watcher->deleteLater();
              auto it = entries_.find(k);
              if (it == entries_.end()) return;
              it->second.result = result;
              it->second.running = false;
              const auto waiting = std::move(it->second.waiting);
              it->second.waiting.clear();
              for (const auto& w : waiting) w(result);
            });
    // The worker holds the owner (the rank's data) until it is done.
    watcher->setFuture(
        QtConcurrent::run([compute = std::move(compute), owner]() -> std::shared_ptr<const void> {
          return std::make_shared<const T>(compute());
        }));
  }

  // How many results are kept.
  std::size_t keptCount() const {
    return static_cast<std::size_t>(std::count_if(entries_.begin(), entries_.end(),
                                                  [](const auto& e) { return e.second.result; }));
  }

  // Whether `key` of `owner` has its result (not merely started).
  bool known(const std::shared_ptr<const void>& owner, const QString& key) const {
    auto it = entries_.find({owner.get(), key});
    return it != entries_.end() && it->second.result != nullptr;
  }

 private:
  using Key = std::pair<const void*, QString>;
  struct Entry {
    std::weak_ptr<const void> owner;
    std::shared_ptr<const void> result;
    bool running = false;
    std::uint64_t used = 0;
    std::vector<std::function<void(const std::shared_ptr<const void>&)>> waiting;
  };
  static constexpr std::size_t kKept = 32;  // results kept at most, the least recently used go

  // Results of ranks no longer loaded, and beyond kKept the least recently used.
  void dropStale() {
    for (auto it = entries_.begin(); it != entries_.end();)
      it = it->second.owner.expired() && !it->second.running ? entries_.erase(it) : std::next(it);
    while (entries_.size() > kKept) {
      auto oldest = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (!it->second.running &&
            (oldest == entries_.end() || it->second.used < oldest->second.used))
          oldest = it;
      if (oldest == entries_.end()) break;
      entries_.erase(oldest);
    }
  }

  static QLabel* computingNote(QWidget* view) {
    auto* note = new QLabel(QObject::tr("computing..."), view);
    note->setObjectName("ComputingNote");
    note->setAutoFillBackground(true);
    note->setMargin(8);
    QFont bold = note->font();
    bold.setBold(true);
    note->setFont(bold);
    note->adjustSize();
    note->move(12, 12);
    note->raise();
    note->show();
    return note;
  }

  std::map<Key, Entry> entries_;
  std::uint64_t clock_ = 0;
};

}  // namespace sutra::gui
