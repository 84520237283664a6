// SPDX-License-Identifier: MIT
#pragma once
// The explorer window: the timeline in the middle; docks for the details of the selection, the
// operator table, the dependency chain and the problems; File menu with recent items; drag and
// drop; loading through a TraceSession with a progress bar and Cancel.
#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "model/trace.h"
#include "view/time_axis.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QCheckBox;
class QProgressBar;
class QPushButton;
class QMenu;
class QAction;
class QDockWidget;
class QTableView;
class QSortFilterProxyModel;

namespace sutra::widgets {
class TimelineView;
class EventDetailsView;
class ProblemsModel;
class OpTableView;
class ChainView;
class Navigation;
struct EventRef;
struct RankData;
struct TimelinePart;
}  // namespace sutra::widgets

namespace sutra::gui {

class TraceSession;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  void openPaths(const QStringList& paths);
  TraceSession& session() { return *session_; }
  widgets::TimelineView& timeline() { return *timeline_; }
  // The selection, ranges and highlights as (run, rank, event): what every view of the window
  // shares. The timeline is mirrored into it; a reference the views send is brought on screen.
  widgets::Navigation& navigation() { return *navigation_; }
  // The rank the tables, the chain and the details follow: the one shown alone, or in the
  // all-ranks view the rank of the last selection.
  int currentRank() const { return currentRank_; }
  // Shows rank `index` alone.
  void setCurrentRank(int index);
  // Shows every loaded rank on one time axis (the default for 2..16 ranks).
  void showAllRanks();
  bool showingAllRanks() const { return allRanks_; }
  // View > Align Ranks on First ProfilerStep (off: ranks as recorded, on their shared clock).
  void setAlignRanks(bool on);
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
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildMenus();
  void buildDocks();
  void showError(const QString& message);
  void addRecent(const QStringList& paths);
  void rebuildRecentMenu();
  void onRankReady(int index);
  // The ranks were laid out again (View > Group Lanes by Layer): the same view, new lanes.
  void onLayoutsChanged();
  void showRankSummary();      // the current rank's counts in the status bar
  void followRank(int index);  // the tables, chain and details follow rank `index`
  widgets::TimelinePart partOf(int index) const;
  void applyAlignment();          // the all-ranks view's offsets and what the ruler says of them
  void selectRankItem(int data);  // the rank selector's entry for a rank, or All ranks
  void onSelection(EventId event);
  void showAnalyses(int index);
  void showChain(EventId event);
  // In the all-ranks view: the collective `event` belongs to, on every rank, and who started it
  // last.
  void showCollective(EventId event);
  void updateTitle();
  // The navigation model's side of the timeline (navigation.h).
  int rankOfPart(int part) const;  // the rank a part of the timeline shows
  int partOfRank(int rank) const;  // -1 where the timeline does not show it
  bool showRank(int rank);         // shows it alone unless the all-ranks view has it
  void showReference(const widgets::EventRef& ref, bool reveal);
  void showHighlights(bool clearing);
  void showRange(int rank, view::TimeRange own);
  // The timeline's offsets and ranges copied into the navigation, after it changed its parts.
  void mirrorRanges();
  std::shared_ptr<const widgets::RankData> rank() const;

  TraceSession* session_ = nullptr;
  widgets::TimelineView* timeline_ = nullptr;
  widgets::Navigation* navigation_ = nullptr;
  bool revealing_ = false;  // showing the navigation's selection: a rank switch keeps it
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
  QAction* alignAction_ = nullptr;             // View > Align Ranks on First ProfilerStep
  QAction* alignCollectivesAction_ = nullptr;  // View > Align Ranks on Collectives
  int currentRank_ = -1;
  bool allRanks_ = false;
  QString alignmentNote_;  // what the status bar says of the all-ranks view's alignment
  QString rankNote_;       // why the view is not all ranks, where it is not by default
};

}  // namespace sutra::gui
