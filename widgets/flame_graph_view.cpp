// SPDX-License-Identifier: MIT
#include "flame_graph_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <functional>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {

namespace {
constexpr std::uint32_t kNone = UINT32_MAX;
constexpr double kRowHeight = 20.0;
}  // namespace

// The drawing surface: boxes laid out from the zoom root down, recomputed on each paint (a tree of
// a selected range is small next to a frame's budget).
class FlameGraphCanvas : public QWidget {
 public:
  explicit FlameGraphCanvas(FlameGraphView* owner) : QWidget(owner), owner_(owner) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 200);
  }

  std::uint32_t zoom = kNone;
  std::uint32_t selected = kNone;
  QString search;

  const ThreadCallTree* tree() const {
    const auto& threads = owner_->tree_.threads;
    return owner_->thread_ >= 0 && std::size_t(owner_->thread_) < threads.size()
               ? &threads[std::size_t(owner_->thread_)]
               : nullptr;
  }

  bool matches(std::uint32_t node) const {
    if (search.isEmpty()) return true;
    const ThreadCallTree* t = tree();
    return QString::fromUtf8(owner_->trace_->names.view(t->nodes[node].name))
        .contains(search, Qt::CaseInsensitive);
  }

  // Visits every box at least half a pixel wide: (node, rect).
  void layout(const std::function<void(std::uint32_t, QRectF)>& visit) const {
    const ThreadCallTree* t = tree();
    if (!t || !owner_->trace_) return;
    const double w = width();
    std::function<void(std::uint32_t, double, double, int)> walk = [&](std::uint32_t n, double x,
                                                                       double width, int depth) {
      if (width < 0.5) return;
      visit(n, QRectF(x, depth * kRowHeight, width, kRowHeight - 1));
      const CallNode& node = t->nodes[n];
      double cx = x;
      for (std::uint32_t c : node.children) {
        const double cw =
            node.cpuTotal > 0 ? width * double(t->nodes[c].cpuTotal) / double(node.cpuTotal) : 0.0;
        walk(c, cx, cw, depth + 1);
        cx += cw;
      }
    };
    if (zoom != kNone) {
      // The zoom root's ancestors stay above it, full width, so the path back is visible.
      std::vector<std::uint32_t> chain;
      for (std::uint32_t a = t->nodes[zoom].parent; a != kNone; a = t->nodes[a].parent)
        chain.push_back(a);
      int depth = 0;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        visit(*it, QRectF(0, depth++ * kRowHeight, w, kRowHeight - 1));
      walk(zoom, 0, w, depth);
      return;
    }
    double x = 0;
    for (std::uint32_t r : t->roots) {
      const double rw =
          t->cpuTotal > 0 ? w * double(t->nodes[r].cpuTotal) / double(t->cpuTotal) : 0.0;
      walk(r, x, rw, 0);
      x += rw;
    }
  }

  std::uint32_t nodeAt(QPointF pos) const {
    std::uint32_t found = kNone;
    layout([&](std::uint32_t n, QRectF r) {
      if (r.contains(pos)) found = n;
    });
    return found;
  }

  QRectF rectOf(std::uint32_t node) const {
    QRectF out;
    layout([&](std::uint32_t n, QRectF r) {
      if (n == node) out = r;
    });
    return out;
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    const Theme& theme = themeFor(*this);
    p.fillRect(rect(), theme.background);
    const ThreadCallTree* t = tree();
    if (!t) {
      p.setPen(theme.labelDimText);
      p.drawText(rect(), Qt::AlignCenter, tr("No host calls in the range."));
      return;
    }
    QFont font = p.font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    p.setFont(font);
    const QFontMetrics metrics(font);
    layout([&](std::uint32_t n, QRectF r) {
      const CallNode& node = t->nodes[n];
      const std::size_t colour = std::size_t(node.klass) % theme.chartSeries.size();
      QColor fill = theme.chartSeries[colour];
      if (!matches(n)) fill = theme.chartGrid;
      p.fillRect(r, fill);
      if (n == selected) {
        p.setPen(QPen(theme.selection, 2));
        p.drawRect(r.adjusted(1, 1, -1, -1));
      }
      if (r.width() > 30) {
        p.setPen(theme.chartBackground.lightness() > 128 ? Qt::black : Qt::white);
        const QString text =
            metrics.elidedText(QString::fromUtf8(owner_->trace_->names.view(node.name)),
                               Qt::ElideRight, int(r.width()) - 6);
        p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
      }
    });
  }

  void mousePressEvent(QMouseEvent* event) override {
    const std::uint32_t n = nodeAt(event->position());
    if (n != kNone) owner_->select(n);
  }
  void mouseDoubleClickEvent(QMouseEvent* event) override {
    const std::uint32_t n = nodeAt(event->position());
    if (n != kNone) owner_->zoomTo(n);
  }
  void mouseMoveEvent(QMouseEvent* event) override {
    owner_->showStatus(nodeAt(event->position()));
  }
  void keyPressEvent(QKeyEvent* event) override {
    if (event->key() == Qt::Key_Escape)
      owner_->resetZoom();
    else
      QWidget::keyPressEvent(event);
  }

 private:
  FlameGraphView* owner_;
};

FlameGraphView::FlameGraphView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Thread:")));
  threads_ = new QComboBox;
  threads_->setObjectName("FlameGraphThread");
  bar->addWidget(threads_, 1);
  search_ = new QLineEdit;
  search_->setObjectName("FlameGraphSearch");
  search_->setPlaceholderText(tr("Search names"));
  search_->setClearButtonEnabled(true);
  bar->addWidget(search_, 1);
  auto* reset = new QPushButton(tr("Whole range"));
  reset->setObjectName("FlameGraphReset");
  bar->addWidget(reset);
  layout->addLayout(bar);
  canvas_ = new FlameGraphCanvas(this);
  layout->addWidget(canvas_, 1);
  status_ = new QLabel;
  status_->setObjectName("FlameGraphStatus");
  layout->addWidget(status_);
  connect(threads_, &QComboBox::currentIndexChanged, this, [this](int i) { setThread(i); });
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) { setSearch(t); });
  connect(reset, &QPushButton::clicked, this, [this] { resetZoom(); });
}

void FlameGraphView::setCallTree(std::shared_ptr<const Trace> trace, CallTree tree) {
  trace_ = std::move(trace);
  tree_ = std::move(tree);
  const QSignalBlocker block(threads_);
  threads_->clear();
  int busiest = tree_.threads.empty() ? -1 : 0;
  for (std::size_t i = 0; i < tree_.threads.size(); ++i) {
    const ThreadCallTree& t = tree_.threads[i];
    const Lane& lane = trace_->lanes[t.lane];
    QString label = QString::fromStdString(lane.pid + "/" + lane.tid);
    if (!lane.threadName.empty()) label += " (" + QString::fromStdString(lane.threadName) + ")";
    threads_->addItem(label + " · " + durationText(t.cpuTotal));
    if (t.cpuTotal > tree_.threads[std::size_t(busiest)].cpuTotal) busiest = int(i);
  }
  threads_->setCurrentIndex(busiest);
  setThread(busiest);
}

void FlameGraphView::setThread(int index) {
  thread_ = index;
  if (threads_->currentIndex() != index) {
    const QSignalBlocker block(threads_);
    threads_->setCurrentIndex(index);
  }
  canvas_->zoom = kNone;
  canvas_->selected = kNone;
  const auto* t = canvas_->tree();
  canvas_->setMinimumHeight(0);
  if (t) {
    int depth = 0;
    for (const CallNode& n : t->nodes) {
      int d = 1;
      for (std::uint32_t a = n.parent; a != kNone; a = t->nodes[a].parent) ++d;
      depth = std::max(depth, d);
    }
    canvas_->setMinimumHeight(int(depth * kRowHeight) + 4);
  }
  showStatus(kNone);
  canvas_->update();
}

void FlameGraphView::setSearch(const QString& text) {
  canvas_->search = text;
  if (search_->text() != text) search_->setText(text);
  showStatus(kNone);
  canvas_->update();
}

int FlameGraphView::matchCount() const {
  const ThreadCallTree* t = canvas_->tree();
  if (!t || canvas_->search.isEmpty()) return 0;
  int count = 0;
  for (std::uint32_t n = 0; n < t->nodes.size(); ++n) count += canvas_->matches(n) ? 1 : 0;
  return count;
}

void FlameGraphView::zoomTo(std::uint32_t node) {
  canvas_->zoom = node;
  canvas_->update();
}
void FlameGraphView::resetZoom() { zoomTo(kNone); }
std::uint32_t FlameGraphView::zoomRoot() const { return canvas_->zoom; }
std::uint32_t FlameGraphView::selectedNode() const { return canvas_->selected; }
QRectF FlameGraphView::nodeRect(std::uint32_t node) const { return canvas_->rectOf(node); }
std::uint32_t FlameGraphView::nodeAt(QPointF pos) const { return canvas_->nodeAt(pos); }
QWidget* FlameGraphView::canvas() const { return canvas_; }

void FlameGraphView::select(std::uint32_t node) {
  canvas_->selected = node;
  canvas_->update();
  showStatus(node);
  const ThreadCallTree* t = canvas_->tree();
  if (t && node < t->nodes.size() && !t->nodes[node].events.empty()) {
    emit eventSelected(t->nodes[node].events.front());
    navigation_.select(t->nodes[node].events.front());
  }
}

void FlameGraphView::showStatus(std::uint32_t node) {
  const ThreadCallTree* t = canvas_->tree();
  if (!t) {
    status_->clear();
    return;
  }
  if (node == kNone) node = canvas_->selected;
  if (node == kNone || node >= t->nodes.size()) {
    QString text = tr("%1 of CPU time, %2 of device time launched; double-click zooms, Esc zooms "
                      "out")
                       .arg(durationText(t->cpuTotal), durationText(t->deviceTotal));
    if (!canvas_->search.isEmpty()) text += tr("; %1 boxes match").arg(matchCount());
    status_->setText(text);
    return;
  }
  const CallNode& n = t->nodes[node];
  status_->setText(tr("%1: %2 calls, total CPU %3 (self %4), device %5 (self %6)")
                       .arg(QString::fromUtf8(trace_->names.view(n.name)))
                       .arg(n.calls)
                       .arg(durationText(n.cpuTotal), durationText(n.selfCpu),
                            durationText(n.deviceTotal), durationText(n.selfDevice)));
}

}  // namespace sutra::widgets
