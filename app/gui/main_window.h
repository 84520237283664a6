// SPDX-License-Identifier: MIT
#pragma once
// The explorer window: the timeline in the middle; docks for the details of the selection, the
// operator table, the dependency chain and the problems; File menu with recent items; drag and
// drop; loading through a TraceSession with a progress bar and Cancel.
#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "model/trace.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QCheckBox;
class QProgressBar;
class QPushButton;
class QMenu;
class QDockWidget;
class QTableView;
class QSortFilterProxyModel;

namespace sutra::widgets {
class TraceSession;
class TimelineView;
class EventDetailsView;
class ProblemsModel;
class OpTableView;
class ChainView;
struct RankData;
}  // namespace sutra::widgets

namespace sutra::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  void openPaths(const QStringList& paths);
  widgets::TraceSession& session() { return *session_; }
  widgets::TimelineView& timeline() { return *timeline_; }
  int currentRank() const { return currentRank_; }
  void setCurrentRank(int index);
  // Searches the timeline as the search box does, and selects the first match.
  void searchAndSelect(const QString& pattern);

 signals:
  // Emitted with the reason whenever an error dialog is shown (tests and scripts watch it).
  void errorShown(const QString& message);
  void loadFinished();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void buildDocks();
  void showError(const QString& message);
  void addRecent(const QStringList& paths);
  void rebuildRecentMenu();
  void onRankReady(int index);
  void showRankSummary();  // the current rank's counts in the status bar
  void onSelection(EventId event);
  void showAnalyses(int index);
  void showChain(EventId event);
  void updateTitle();
  std::shared_ptr<const widgets::RankData> rank() const;

  widgets::TraceSession* session_ = nullptr;
  widgets::TimelineView* timeline_ = nullptr;
  widgets::EventDetailsView* details_ = nullptr;
  widgets::ProblemsModel* problems_ = nullptr;
  widgets::OpTableView* ops_ = nullptr;
  widgets::ChainView* chain_ = nullptr;
  QDockWidget* chainDock_ = nullptr;
  bool selectingFromChain_ = false;
  QTableView* problemsView_ = nullptr;
  QComboBox* rankBox_ = nullptr;
  QLineEdit* searchBox_ = nullptr;
  QCheckBox* regexBox_ = nullptr;
  QLabel* matchLabel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QLabel* sampleLabel_ = nullptr;  // says that a bundled sample is synthetic
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  int currentRank_ = -1;
};

}  // namespace sutra::gui
