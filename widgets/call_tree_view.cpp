// SPDX-License-Identifier: MIT
#include "call_tree_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <functional>

#include "text/format.h"

namespace sutra::widgets {
namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kEventRole = Qt::UserRole + 1;

// Sorts by the raw number under kSortRole where there is one, else by text.
class CallItem : public QTreeWidgetItem {
 public:
  using QTreeWidgetItem::QTreeWidgetItem;
  bool operator<(const QTreeWidgetItem& other) const override {
    const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
    const QVariant a = data(column, kSortRole), b = other.data(column, kSortRole);
    if (a.isValid() && b.isValid()) return a.toLongLong() < b.toLongLong();
    return QTreeWidgetItem::operator<(other);
  }
};

}  // namespace

CallTreeView::CallTreeView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Thread:")));
  threads_ = new QComboBox;
  threads_->setObjectName("CallTreeThread");
  bar->addWidget(threads_, 1);
  bottomUpBox_ = new QCheckBox(tr("Bottom-up (callers below)"));
  bottomUpBox_->setObjectName("CallTreeBottomUp");
  bar->addWidget(bottomUpBox_);
  layout->addLayout(bar);
  tree_ = new QTreeWidget;
  tree_->setObjectName("CallTree");
  tree_->setColumnCount(6);
  tree_->setHeaderLabels({tr("name"), tr("calls"), tr("self CPU"), tr("total CPU"),
                          tr("self device"), tr("total device")});
  tree_->setSortingEnabled(true);
  tree_->sortByColumn(3, Qt::DescendingOrder);
  layout->addWidget(tree_, 1);
  connect(threads_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(bottomUpBox_, &QCheckBox::toggled, this, [this] { rebuild(); });
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
    const QVariant e = item->data(0, kEventRole);
    if (!e.isValid()) return;
    emit eventSelected(static_cast<EventId>(e.toULongLong()));
    navigation_.select(static_cast<EventId>(e.toULongLong()));
  });
}

void CallTreeView::setCallTrees(std::shared_ptr<const Trace> trace, CallTree topDown,
                                CallTree bottomUp) {
  trace_ = std::move(trace);
  topDown_ = std::move(topDown);
  bottomUp_ = std::move(bottomUp);
  const QSignalBlocker block(threads_);
  threads_->clear();
  for (const ThreadCallTree& t : topDown_.threads) {
    const Lane& lane = trace_->lanes[t.lane];
    QString label = QString::fromStdString(lane.pid + "/" + lane.tid);
    if (!lane.threadName.empty()) label += " (" + QString::fromStdString(lane.threadName) + ")";
    threads_->addItem(label + " · " + durationText(t.cpuTotal), QVariant::fromValue(t.lane));
  }
  rebuild();
}

void CallTreeView::setBottomUp(bool bottomUp) { bottomUpBox_->setChecked(bottomUp); }
bool CallTreeView::bottomUp() const { return bottomUpBox_->isChecked(); }
void CallTreeView::setThread(int index) { threads_->setCurrentIndex(index); }

void CallTreeView::rebuild() {
  tree_->clear();
  if (!trace_ || threads_->currentIndex() < 0) return;
  const LaneId lane = threads_->currentData().value<LaneId>();
  const CallTree& tree = bottomUpBox_->isChecked() ? bottomUp_ : topDown_;
  const ThreadCallTree* thread = nullptr;
  for (const ThreadCallTree& t : tree.threads)
    if (t.lane == lane) thread = &t;
  if (!thread) return;
  tree_->setSortingEnabled(false);
  std::function<void(QTreeWidgetItem*, std::uint32_t)> add = [&](QTreeWidgetItem* parent,
                                                                 std::uint32_t id) {
    const CallNode& n = thread->nodes[id];
    auto* item = parent ? new CallItem(parent) : new CallItem(tree_);
    item->setText(0, QString::fromUtf8(trace_->names.view(n.name)));
    const TimeNs values[] = {TimeNs(n.calls), n.selfCpu, n.cpuTotal, n.selfDevice, n.deviceTotal};
    for (int c = 0; c < 5; ++c) {
      item->setText(c + 1, c == 0 ? QString::number(n.calls) : durationText(values[c]));
      item->setData(c + 1, kSortRole, QVariant::fromValue<qlonglong>(values[c]));
      item->setTextAlignment(c + 1, Qt::AlignRight | Qt::AlignVCenter);
    }
    if (!n.events.empty()) item->setData(0, kEventRole, QVariant::fromValue(n.events.front()));
    for (std::uint32_t c : n.children) add(item, c);
  };
  for (std::uint32_t r : thread->roots) add(nullptr, r);
  tree_->setSortingEnabled(true);
  if (tree_->topLevelItemCount() > 0) tree_->topLevelItem(0)->setExpanded(true);
  tree_->resizeColumnToContents(0);
}

}  // namespace sutra::widgets
