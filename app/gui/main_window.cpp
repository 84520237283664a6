// SPDX-License-Identifier: MIT
#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>

#include "analysis/chain.h"
#include "analysis/op_table.h"
#include "analysis_menus.h"
#include "chain_view.h"
#include "event_details.h"
#include "io/discover.h"
#include "navigation.h"
#include "op_table_view.h"
#include "problems_model.h"
#include "query_action.h"
#include "rank_overview_action.h"
#include "run_naming.h"
#include "sample_notice.h"
#include "text/alignment_text.h"
#include "text/format.h"
#include "theme_menu.h"
#include "timeline_keys.h"
#include "timeline_view.h"
#include "trace_actions.h"
#include "trace_session.h"

namespace sutra::gui {

namespace {
constexpr int kMaxRecent = 10;
// The rank selector's entries carry the rank's index; this one is the all-ranks view.
constexpr int kAllRanksItem = -1;
// Past this many ranks the window opens on rank 0 alone: every rank's lanes stacked would be a
// very long page to scroll, and reading them all first takes a while.
constexpr int kMaxDefaultAllRanks = 16;

// How many ranks with a Kineto trace `paths` hold, as discovery finds them (0 where it fails: the
// open then says why).
int kinetoRankCount(const QStringList& paths) {
  std::vector<std::string> files;
  for (const QString& p : paths) files.push_back(p.toStdString());
  auto found = discoverTraces(files);
  if (!found) return 0;
  return static_cast<int>(std::count_if(found->ranks.begin(), found->ranks.end(),
                                        [](const RankGroup& r) { return r.kineto.has_value(); }));
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("MainWindow");
  setAcceptDrops(true);
  session_ = new TraceSession(this);
  timeline_ = new widgets::TimelineView(this);
  navigation_ = new widgets::Navigation(this);
  setCentralWidget(timeline_);
  buildDocks();
  buildMenus();
  installAnalysisMenus(this, session_, navigation_, [this] { return currentRank(); });
  installTimelineKeys(this, timeline_);
  installQueryDock(this);

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  cancelButton_ = new QPushButton(tr("Cancel"), this);
  cancelButton_->setVisible(false);
  statusLabel_ =
      new QLabel(tr("Open a trace directory or files (File menu), or drop them here."), this);
  statusLabel_->setObjectName(QStringLiteral("StatusText"));
  statusBar()->addWidget(statusLabel_, 1);
  sampleLabel_ = new QLabel(this);
  sampleLabel_->setObjectName(QStringLiteral("sampleNotice"));
  styleAsWarning(sampleLabel_);
  sampleLabel_->setVisible(false);
  statusBar()->addPermanentWidget(sampleLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancelButton_);
  connect(cancelButton_, &QPushButton::clicked, session_, &TraceSession::cancel);

  connect(session_, &TraceSession::started, this, [this](const QStringList& paths) {
    progress_->setValue(0);
    progress_->setVisible(true);
    cancelButton_->setVisible(true);
    statusLabel_->setText(tr("Opening %1").arg(paths.join(QStringLiteral(", "))));
  });
  // What was loaded stays on screen until the new run has its first rank to show.
  connect(session_, &TraceSession::replacing, this, [this](const QStringList& paths) {
    const QString notice = sampleNotice(paths);
    sampleLabel_->setText(notice);
    sampleLabel_->setToolTip(notice.isEmpty() ? QString() : tr("See SAMPLE.md beside the traces"));
    sampleLabel_->setVisible(!notice.isEmpty());
    {
      const QSignalBlocker block(rankBox_);
      rankBox_->clear();
    }
    currentRank_ = -1;
    allRanks_ = false;
    rankNote_.clear();
    timeline_->clear();
    timeline_->setAxisNote({});
    navigation_->beginRun();  // what the open views point at names nothing from here on
    details_->showDetails(nullptr, kNoEvent);
    ops_->clear();
    chain_->clear();
    updateTitle();
  });
  connect(session_, &TraceSession::progressChanged, this,
          [this](int percent, const QString& stage) {
            progress_->setValue(percent);
            statusLabel_->setText(stage);
          });
  connect(session_, &TraceSession::ranksFound, this, [this](int count) {
    if (count < 2) return;
    allRanks_ = count <= kMaxDefaultAllRanks;
    if (!allRanks_)
      rankNote_ = tr("%1 ranks: showing rank 0 alone (the all-ranks view opens by itself for up to "
                     "%2 ranks; "
                     "choose All ranks in the rank selector, or File > Rank Overview)")
                      .arg(count)
                      .arg(kMaxDefaultAllRanks);
    const QSignalBlocker block(rankBox_);
    rankBox_->addItem(tr("All ranks (%1)").arg(count), kAllRanksItem);
    rankBox_->setCurrentIndex(allRanks_ ? 0 : -1);
  });
  connect(session_, &TraceSession::rankReady, this, &MainWindow::onRankReady);
  connect(session_, &TraceSession::layoutsChanged, this, &MainWindow::onLayoutsChanged);
  connect(session_, &TraceSession::collectivesReady, this, [this] {
    if (alignCollectivesAction_->isChecked()) {
      applyAlignment();
      showRankSummary();
    }
    if (timeline_->selectedEvent() != kNoEvent) showCollective(timeline_->selectedEvent());
  });
  connect(session_, &TraceSession::linksReady, this, [this](int index) {
    if (index == currentRank_) onSelection(timeline_->selectedEvent());
  });
  connect(session_, &TraceSession::problemsChanged, this, [this] {
    problems_->setProblems(session_->problems());
    problemsView_->resizeColumnsToContents();
  });
  auto done = [this] {
    progress_->setVisible(false);
    cancelButton_->setVisible(false);
  };
  connect(session_, &TraceSession::finished, this, [this, done] {
    done();
    showRankSummary();                 // the last stage's "Done" gives way to what was loaded
    if (!session_->notes().isEmpty())  // e.g. a simulation left for later
      statusLabel_->setText(statusLabel_->text() + "  ·  " + session_->notes().join("; "));
    updateTitle();
    addRecent(session_->paths());  // only what opened enters Open Recent
    emit loadFinished();
  });
  connect(session_, &TraceSession::canceled, this, [this, done] {
    done();
    statusLabel_->setText(rank() ? tr("Loading cancelled; the trace loaded before is still shown.")
                                 : tr("Loading cancelled."));
  });
  connect(session_, &TraceSession::failed, this, [this, done](const QString& message) {
    done();
    statusLabel_->setText(
        rank() ? tr("Could not open the trace; the trace loaded before is still shown.")
               : tr("Could not open the trace."));
    showError(message);
  });

  connect(timeline_, &widgets::TimelineView::selectionChanged, this, &MainWindow::onSelection);
  // The timeline into the navigation, each event with the rank of its part...
  connect(timeline_, &widgets::TimelineView::partSelectionChanged, this,
          [this](int part, EventId event) {
            navigation_->select(navigation_->ref(rankOfPart(part), event), false);
          });
  connect(timeline_, &widgets::TimelineView::timeRangeSelected, this,
          [this](TimeNs start, TimeNs end) {
            navigation_->setSelectedRange({start, end});
          });
  connect(timeline_, &widgets::TimelineView::visibleRangeChanged, this,
          [this](TimeNs start, TimeNs end) {
            navigation_->setVisibleRange({start, end});
          });
  // ...and what the views send through it onto the timeline, on the rank they name.
  connect(navigation_, &widgets::Navigation::selectionChanged, this, &MainWindow::showReference);
  connect(navigation_, &widgets::Navigation::highlightsChanged, this,
          [this] { showHighlights(true); });
  connect(navigation_, &widgets::Navigation::selectedRangeChanged, this,
          [this](view::TimeRange range) { timeline_->setSelectedTimeRange(range); });
  connect(navigation_, &widgets::Navigation::rangeRequested, this, &MainWindow::showRange);
  connect(session_, &TraceSession::analysesReady, this, [this](int index) {
    if (index == currentRank_) showAnalyses(index);
  });
  connect(session_, &TraceSession::opTableReady, this,
          [this](int index, std::shared_ptr<const OpTable> table) {
            if (index == currentRank_) ops_->setTable(std::move(table));
          });
  connect(ops_, &widgets::OpTableView::tableRequested, this,
          [this](TimeWindow window, bool shapes) {
            session_->requestOpTable(currentRank_, window, shapes);
          });
  // A table row: its occurrences highlighted in the timeline, the first selected; the timeline's
  // next/previous buttons (and Enter in the search box) step through them.
  connect(ops_, &widgets::OpTableView::rowSelected, this,
          [this](const std::vector<EventId>& events) {
            searchBox_->blockSignals(true);
            searchBox_->clear();
            searchBox_->blockSignals(false);
            timeline_->showMatches(events);
            timeline_->nextMatch();
          });
  connect(ops_, &widgets::OpTableView::rowActivated, this, [this](EventId event) {
    timeline_->selectEvent(event, true);
    timeline_->fitSelection();
    chainDock_->show();
    chainDock_->raise();
  });
  // A hop selects its event in the timeline and keeps the chain it belongs to on screen.
  connect(chain_, &widgets::ChainView::hopClicked, this, [this](EventId event) {
    selectingFromChain_ = true;
    timeline_->selectEvent(event, true);
    selectingFromChain_ = false;
  });
  connect(timeline_, &widgets::TimelineView::eventActivated, this, [this](EventId) {
    chainDock_->show();
    chainDock_->raise();
  });
  connect(timeline_, &widgets::TimelineView::matchesChanged, this, [this](int current, int total) {
    if (searchBox_->text().isEmpty()) {
      matchLabel_->clear();
    } else if (total < 0) {
      matchLabel_->setText(tr("invalid expression"));
    } else {
      matchLabel_->setText(current >= 0 ? tr("%1 of %2").arg(current + 1).arg(total)
                                        : tr("%1 matches").arg(total));
    }
  });
  // A range dragged on the ruler is the operator table's window (a click on the ruler clears it).
  connect(timeline_, &widgets::TimelineView::timeRangeSelected, this,
          [this](TimeNs start, TimeNs end) {
            const TimeNs origin = timeline_->timeOrigin();
            // The table counts in its rank's own times; the ruler may show that rank moved by its
            // offset.
            const TimeNs offset =
                timeline_->partCount() > 0 ? timeline_->part(timeline_->currentPart()).offset : 0;
            const QString rankName =
                allRanks_ && rank() ? rank()->label + QStringLiteral(": ") : QString();
            ops_->followRange({start - offset, end - offset},
                              rankName + tr("Range +%1 .. +%2 (%3)")
                                             .arg(widgets::durationText(start - origin),
                                                  widgets::durationText(end - origin),
                                                  widgets::durationText(end - start)));
          });
  connect(details_, &widgets::EventDetailsView::eventLinkActivated, this,
          [this](EventId event) { timeline_->selectEvent(event, true); });

  resize(1500, 950);
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  if (!restoreState(settings.value("window/state").toByteArray())) {
    // First run: the dependency chain gets two thirds of the column beside the timeline, so a
    // whole chain (op, launch, kernel, sync, resumed op) shows without scrolling.
    QMetaObject::invokeMethod(
        this,
        [this] {
          auto* details = findChild<QDockWidget*>(QStringLiteral("DetailsDock"));
          if (details && chainDock_)
            resizeDocks({details, chainDock_}, {height() / 3, height() * 2 / 3}, Qt::Vertical);
        },
        Qt::QueuedConnection);
  }
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* openDir = file->addAction(tr("Open Trace &Directory..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Trace Directory"));
    if (!dir.isEmpty()) openPaths({dir});
  });
  openDir->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  QAction* openFiles = file->addAction(tr("&Open Files..."), this, [this] {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Trace Files"), {}, tr("Traces (*.json *.json.gz *.et *.gz);;All files (*)"));
    if (!files.isEmpty()) openPaths(files);
  });
  openFiles->setShortcut(QKeySequence::Open);
  QAction* overview = file->addAction(tr("Rank &Overview..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Rank Overview of a Folder"));
    if (!dir.isEmpty())
      showRankOverview(this, {dir}, [this](const QStringList& p) { openPaths(p); });
  });
  overview->setObjectName(QStringLiteral("RankOverviewAction"));
  overview->setToolTip(
      tr("Every rank of a job, each read once and summarised with bounded memory: "
         "step breakdown, waits at collectives, stragglers"));
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  rebuildRecentMenu();
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  enableWithTrace(viewMenu_->addAction(tr("Fit &All"), QKeySequence(tr("Ctrl+0")), timeline_,
                                       &widgets::TimelineView::fitAll),
                  session_);
  enableWithTrace(viewMenu_->addAction(tr("Fit &Selection"), QKeySequence(tr("Ctrl+F2")), timeline_,
                                       &widgets::TimelineView::fitSelection),
                  session_);
  alignAction_ = viewMenu_->addAction(tr("Align Ranks on First &ProfilerStep"));
  alignAction_->setObjectName(QStringLiteral("AlignRanksAction"));
  alignAction_->setCheckable(true);
  alignAction_->setChecked(false);
  alignAction_->setToolTip(
      tr("In the all-ranks view, line up each rank's first ProfilerStep: for ranks whose "
         "clocks differ. Off: ranks on one host share its clock and are shown as recorded."));
  alignCollectivesAction_ = viewMenu_->addAction(tr("Align Ranks on &Collectives"));
  alignCollectivesAction_->setObjectName(QStringLiteral("AlignCollectivesAction"));
  alignCollectivesAction_->setCheckable(true);
  alignCollectivesAction_->setToolTip(
      tr("In the all-ranks view, move each rank so that its collectives end when the "
         "other ranks' do: for clocks that differ; a late rank stays late."));
  auto* alignment = new QActionGroup(this);  // one alignment at most; none: as recorded
  alignment->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  alignment->addAction(alignAction_);
  alignment->addAction(alignCollectivesAction_);
  for (QAction* action : {alignAction_, alignCollectivesAction_})
    connect(action, &QAction::toggled, this, [this] {
      applyAlignment();
      showRankSummary();
    });
  // Lanes in layer sections (framework, runtime, hardware: Neuron Explorer's order) or per process;
  // remembered. A change lays the loaded run out again (it is read again).
  QAction* layers = viewMenu_->addAction(tr("Group Lanes by &Layer"));
  layers->setObjectName(QStringLiteral("GroupLanesByLayerAction"));
  layers->setCheckable(true);
  layers->setChecked(QSettings().value(QStringLiteral("timeline/groupByLayer"), true).toBool());
  layers->setToolTip(
      tr("On: every thread's framework lanes, then every runtime lane, then each device's "
         "streams. Off: one group per process and device."));
  session_->setLaneGrouping(layers->isChecked() ? view::LaneGrouping::Layers
                                                : view::LaneGrouping::Processes);
  connect(layers, &QAction::toggled, this, [this](bool on) {
    QSettings().setValue(QStringLiteral("timeline/groupByLayer"), on);
    // The loaded run is laid out again (layoutsChanged), not read again.
    session_->regroup(on ? view::LaneGrouping::Layers : view::LaneGrouping::Processes);
  });
  // A with_stack recording's Python frames nest a dozen deep over the steps: folded (the default)
  // into one thin band per thread, so the window opens on the steps and their ops. This window's
  // own state, not remembered: every window opens folded.
  QAction* frames = viewMenu_->addAction(tr("Fold &Python Frames"));
  frames->setObjectName(QStringLiteral("FoldPythonFramesAction"));
  frames->setCheckable(true);
  frames->setChecked(session_->foldPythonFrames());
  frames->setShortcut(QKeySequence(Qt::Key_P));
  frames->setToolTip(
      tr("On: each thread's Python frames in one thin band over its ops. "
         "Off: a row per frame depth, as recorded."));
  connect(frames, &QAction::toggled, session_, &TraceSession::setFoldPythonFrames);
  enableWithTrace(viewMenu_->addAction(tr("Fold All Ranks"), QKeySequence(tr("Ctrl+Shift+[")), this,
                                       [this] { timeline_->setAllPartsCollapsed(true); }),
                  session_);
  enableWithTrace(viewMenu_->addAction(tr("Unfold All Ranks"), QKeySequence(tr("Ctrl+Shift+]")),
                                       this, [this] { timeline_->setAllPartsCollapsed(false); }),
                  session_);
  viewMenu_->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    viewMenu_->addAction(dock->toggleViewAction());
  viewMenu_->addSeparator();
  viewMenu_->addMenu(createThemeMenu(this));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("Timeline &Keys"), this, [this] {
    QMessageBox::information(
        this, tr("Timeline keys"),
        tr("W / S or Ctrl+wheel: zoom in / out\nA / D, Shift+wheel or drag: pan\n"
           "F: fit the range selected on the ruler, else the selected event\n"
           "0: fit everything\nEsc: clear the selection\n"
           "P: fold or unfold the Python frames (View > Fold Python Frames)\n"
           "(W, A, S, D, F, 0 and P work wherever focus is, except in a text field)\n"
           "Click: select; double-click a merged run: zoom into it\n"
           "Click a group header: collapse or expand it\n"
           "All ranks: click a rank's header to fold or unfold the whole rank"));
  });
  help->addAction(tr("&About Sutra"), this, [this] {
    QMessageBox::about(
        this, tr("About Sutra"),
        tr("<b>Sutra %1</b><br>A trace explorer for PyTorch workloads: Kineto traces, "
           "execution traces and Chakra.")
            .arg(QApplication::applicationVersion()));
  });

  // Toolbar: rank selector and search.
  QToolBar* bar = addToolBar(tr("Timeline"));
  bar->setObjectName("TimelineToolBar");
  bar->setMovable(false);
  bar->addWidget(new QLabel(tr(" Rank "), bar));
  rankBox_ = new QComboBox(bar);
  rankBox_->setMinimumContentsLength(8);
  rankBox_->setSizeAdjustPolicy(
      QComboBox::AdjustToContents);  // "All ranks (16)" and file names read whole
  rankBox_->setObjectName(QStringLiteral("RankSelector"));
  rankBox_->setToolTip(
      tr("The rank whose trace the timeline shows, or all ranks on one time axis"));
  bar->addWidget(rankBox_);
  connect(rankBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index < 0) return;
    const int data = rankBox_->itemData(index).toInt();
    if (data == kAllRanksItem) {
      if (!allRanks_) showAllRanks();
    } else if (allRanks_ || data != currentRank_) {
      setCurrentRank(data);
    }
  });
  bar->addSeparator();
  searchBox_ = new QLineEdit(bar);
  searchBox_->setPlaceholderText(tr("Search event names (Enter: next, Shift+Enter: previous)"));
  searchBox_->setClearButtonEnabled(true);
  searchBox_->setMinimumWidth(320);
  bar->addWidget(searchBox_);
  regexBox_ = new QCheckBox(tr("Regex"), bar);
  bar->addWidget(regexBox_);
  QAction* previous =
      bar->addAction(tr("\u25C0"), timeline_, &widgets::TimelineView::previousMatch);
  previous->setToolTip(tr("Previous match"));
  QAction* next = bar->addAction(tr("\u25B6"), timeline_, &widgets::TimelineView::nextMatch);
  next->setToolTip(tr("Next match"));
  matchLabel_ = new QLabel(bar);
  matchLabel_->setMinimumWidth(110);
  bar->addWidget(matchLabel_);
  auto runSearch = [this] { timeline_->search(searchBox_->text(), regexBox_->isChecked()); };
  connect(searchBox_, &QLineEdit::textChanged, this, runSearch);
  connect(regexBox_, &QCheckBox::toggled, this, runSearch);
  connect(searchBox_, &QLineEdit::returnPressed, this, [this] {
    if (QApplication::keyboardModifiers() & Qt::ShiftModifier) {
      timeline_->previousMatch();
    } else {
      timeline_->nextMatch();
    }
  });
  QAction* find = new QAction(this);
  find->setShortcut(QKeySequence::Find);
  connect(find, &QAction::triggered, this, [this] {
    searchBox_->setFocus();
    searchBox_->selectAll();
  });
  addAction(find);
}

void MainWindow::buildDocks() {
  setDockOptions(AnimatedDocks | AllowTabbedDocks);
  auto dock = [this](const QString& title, const QString& name, QWidget* content,
                     Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(content);
    addDockWidget(area, d);
    return d;
  };
  details_ = new widgets::EventDetailsView(this);
  dock(tr("Details"), "DetailsDock", details_, Qt::RightDockWidgetArea)->setMinimumWidth(240);
  chain_ = new widgets::ChainView(this);
  auto* chainScroll = new QScrollArea(this);
  chainScroll->setWidget(chain_);
  chainScroll->setWidgetResizable(true);  // the boxes take the dock's width
  chainScroll->setBackgroundRole(QPalette::Base);
  chainDock_ = dock(tr("Dependency chain"), "ChainDock", chainScroll, Qt::RightDockWidgetArea);

  problems_ = new widgets::ProblemsModel(this);
  auto* proxy = new QSortFilterProxyModel(this);
  proxy->setSourceModel(problems_);
  proxy->setSortRole(widgets::kSortRole);
  problemsView_ = new QTableView(this);
  problemsView_->setModel(proxy);
  problemsView_->setSortingEnabled(true);
  problemsView_->sortByColumn(widgets::ProblemsModel::Count, Qt::DescendingOrder);
  problemsView_->verticalHeader()->hide();
  problemsView_->horizontalHeader()->setStretchLastSection(true);
  problemsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  problemsView_->setAlternatingRowColors(true);
  ops_ = new widgets::OpTableView(this);
  QDockWidget* opsDock = dock(tr("Operators"), "OperatorsDock", ops_, Qt::BottomDockWidgetArea);
  QDockWidget* problemsDock =
      dock(tr("Problems"), "ProblemsDock", problemsView_, Qt::BottomDockWidgetArea);
  tabifyDockWidget(opsDock, problemsDock);
  opsDock->raise();
}

void MainWindow::openPaths(const QStringList& paths) {
  if (paths.isEmpty()) return;
  // A job of more ranks than the all-ranks view shows opens as a whole first: its rank overview,
  // read one rank at a time in bounded memory, from which the user opens the ranks to look at.
  if (kinetoRankCount(paths) > kMaxDefaultAllRanks) {
    showRankOverview(this, paths, [this](const QStringList& picked) { session_->open(picked); });
    return;
  }
  session_->open(paths);
}

void MainWindow::showError(const QString& message) {
  // Window-modal and non-blocking, so a test or a script can see it and go on.
  auto* box = new QMessageBox(QMessageBox::Critical, tr("Cannot open the trace"), message,
                              QMessageBox::Ok, this);
  box->setObjectName("ErrorDialog");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  emit errorShown(message);
}

void MainWindow::addRecent(const QStringList& paths) {
  QSettings settings;
  QStringList absolute;
  for (const auto& p : paths) absolute << QFileInfo(p).absoluteFilePath();
  const QString entry = absolute.join(QLatin1Char('\n'));
  QStringList recent = settings.value("recent").toStringList();
  recent.removeAll(entry);
  recent.prepend(entry);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("recent", recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value("recent").toStringList();
  for (const QString& entry : recent) {
    const QStringList paths = entry.split(QLatin1Char('\n'));
    QString text = paths.front();
    if (paths.size() > 1) text += tr(" (+%1 more)").arg(paths.size() - 1);
    recentMenu_->addAction(text, this, [this, paths] { openPaths(paths); });
  }
  recentMenu_->setEnabled(!recent.isEmpty());
  if (!recent.isEmpty()) {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear"), this, [this] {
      QSettings().remove("recent");
      rebuildRecentMenu();
    });
  }
}

std::shared_ptr<const widgets::RankData> MainWindow::rank() const {
  const auto& ranks = session_->ranks();
  if (currentRank_ < 0 || currentRank_ >= static_cast<int>(ranks.size())) return nullptr;
  return ranks[static_cast<std::size_t>(currentRank_)];
}

void MainWindow::onRankReady(int index) {
  const auto& data = session_->ranks()[static_cast<std::size_t>(index)];
  navigation_->addRank(index, data->run->trace->events.size());
  {
    const QSignalBlocker block(rankBox_);
    rankBox_->addItem(data->label + QStringLiteral("  (%1)").arg(QFileInfo(data->path).fileName()),
                      index);
  }
  rankBox_->setEnabled(rankBox_->count() > 1);
  if (!allRanks_) {
    if (currentRank_ < 0) setCurrentRank(index);
    return;
  }
  // All ranks: each joins the view as it is read; the first one fills the tables.
  timeline_->addPart(partOf(index));
  applyAlignment();
  if (!searchBox_->text().isEmpty()) timeline_->search(searchBox_->text(), regexBox_->isChecked());
  if (currentRank_ < 0) followRank(index);
  showRankSummary();
}

void MainWindow::onLayoutsChanged() {
  // The parts keep their traces; the view keeps its window and selection (they name events).
  const auto& ranks = session_->ranks();
  std::vector<std::shared_ptr<const view::LaneLayout>> layouts;
  for (int i = 0; i < timeline_->partCount(); ++i) {
    const int rank = allRanks_ ? i : currentRank_;
    layouts.push_back(rank >= 0 && rank < static_cast<int>(ranks.size())
                          ? ranks[static_cast<std::size_t>(rank)]->layout
                          : nullptr);
  }
  timeline_->setLayouts(layouts);
}

widgets::TimelinePart MainWindow::partOf(int index) const {
  const auto& data = session_->ranks()[static_cast<std::size_t>(index)];
  return {data->run->trace, data->layout,
          tr("%1  (%2, %3 events)")
              .arg(data->label, QFileInfo(data->path).fileName())
              .arg(data->run->trace->events.size()),
          0};
}

void MainWindow::selectRankItem(int data) {
  const QSignalBlocker block(rankBox_);
  rankBox_->setCurrentIndex(rankBox_->findData(data));
}

void MainWindow::setCurrentRank(int index) {
  const auto& ranks = session_->ranks();
  if (index < 0 || index >= static_cast<int>(ranks.size())) return;
  currentRank_ = index;
  allRanks_ = false;
  selectRankItem(index);
  const auto& data = ranks[static_cast<std::size_t>(index)];
  timeline_->setTrace(data->run->trace, data->layout);
  timeline_->setAxisNote({});
  if (!searchBox_->text().isEmpty()) timeline_->search(searchBox_->text(), regexBox_->isChecked());
  followRank(index);
  mirrorRanges();
  // The timeline dropped its selection with its rank; so does the window, unless this switch is
  // to show the selection.
  if (!revealing_) navigation_->clearSelection();
  showHighlights(false);
}

void MainWindow::showAllRanks() {
  const auto& ranks = session_->ranks();
  if (ranks.size() < 2) return;
  allRanks_ = true;
  rankNote_.clear();
  selectRankItem(kAllRanksItem);
  std::vector<widgets::TimelinePart> parts;
  for (int i = 0; i < static_cast<int>(ranks.size()); ++i) parts.push_back(partOf(i));
  timeline_->setParts(std::move(parts));
  applyAlignment();
  timeline_->fitAll();
  if (currentRank_ < 0) currentRank_ = 0;
  timeline_->setCurrentPart(currentRank_);
  if (!searchBox_->text().isEmpty()) timeline_->search(searchBox_->text(), regexBox_->isChecked());
  followRank(currentRank_);
  mirrorRanges();
  navigation_->clearSelection();
  showHighlights(false);
}

void MainWindow::followRank(int index) {
  const auto& ranks = session_->ranks();
  if (index < 0 || index >= static_cast<int>(ranks.size())) return;
  currentRank_ = index;
  timeline_->setCurrentPart(allRanks_ ? index : 0);
  details_->showDetails(nullptr, kNoEvent);
  ops_->clear();
  chain_->clear();
  if (ranks[static_cast<std::size_t>(index)]->run->has(RunStage::Analyse)) showAnalyses(index);
  showRankSummary();
  updateTitle();
}

void MainWindow::setAlignRanks(bool on) { alignAction_->setChecked(on); }

void MainWindow::applyAlignment() {
  if (!allRanks_) {
    timeline_->setAxisNote({});
    alignmentNote_.clear();
    mirrorRanges();
    return;
  }
  std::vector<const Trace*> traces;
  std::vector<QString> labels;
  for (int i = 0; i < timeline_->partCount(); ++i) {
    traces.push_back(timeline_->part(i).trace.get());
    labels.push_back(session_->ranks()[static_cast<std::size_t>(i)]->label);
  }
  const auto mode = alignAction_->isChecked() ? widgets::RankAlignment::FirstProfilerStep
                    : alignCollectivesAction_->isChecked() ? widgets::RankAlignment::Collectives
                                                           : widgets::RankAlignment::SharedClock;
  const auto collectives = session_->collectives();
  const widgets::RankOffsets offsets = widgets::rankOffsets(
      traces, mode, collectives ? collectives->clockOffsets : std::vector<TimeNs>{});
  timeline_->setPartOffsets(offsets.offsets);
  timeline_->setAxisNote(widgets::alignmentTag(offsets, mode));
  alignmentNote_ = widgets::alignmentNote(offsets, mode, labels);
  mirrorRanges();
}

int MainWindow::rankOfPart(int part) const { return allRanks_ ? part : currentRank_; }

int MainWindow::partOfRank(int rank) const {
  if (allRanks_) return rank >= 0 && rank < timeline_->partCount() ? rank : -1;
  return rank == currentRank_ && timeline_->partCount() > 0 ? 0 : -1;
}

bool MainWindow::showRank(int rank) {
  if (rank < 0 || rank >= static_cast<int>(session_->ranks().size())) return false;
  if (!allRanks_ && rank != currentRank_) setCurrentRank(rank);
  return partOfRank(rank) >= 0;
}

void MainWindow::showReference(const widgets::EventRef& ref, bool reveal) {
  if (ref.event == kNoEvent) {
    if (timeline_->selectedEvent() != kNoEvent) timeline_->selectEvent(kNoEvent, false);
    return;
  }
  const int shownPart = partOfRank(ref.rank);
  if (shownPart >= 0 && timeline_->selectedPart() == shownPart &&
      timeline_->selectedEvent() == ref.event && !reveal)
    return;  // the timeline's own selection, come back
  // A view's reference: its rank on screen first (alone, where one rank is shown).
  revealing_ = true;
  const bool shown = reveal ? showRank(ref.rank) : shownPart >= 0;
  revealing_ = false;
  if (shown) timeline_->selectEvent(partOfRank(ref.rank), ref.event, reveal);
}

void MainWindow::showHighlights(bool clearing) {
  const widgets::Highlights& highlights = navigation_->highlights();
  const int part = highlights.run == navigation_->run() ? partOfRank(highlights.rank) : -1;
  if (part < 0 || highlights.events.empty()) {
    if (clearing) {
      timeline_->setHighlighted({});
      timeline_->setPathEdges({});
    }
    return;
  }
  // The timeline's highlights and arrows are of its current part.
  timeline_->setCurrentPart(part);
  if (highlights.steppable)
    timeline_->showMatches(highlights.events);
  else
    timeline_->setHighlighted(highlights.events);
  timeline_->setPathEdges(highlights.edges);
}

void MainWindow::showRange(int rank, view::TimeRange own) {
  if (!showRank(rank)) return;
  const TimeNs offset = navigation_->rankOffset(rank);
  const view::TimeRange range{own.start + offset, own.end + offset};
  navigation_->setSelectedRange(range);  // the timeline follows it
  timeline_->setVisibleRange(range);
}

void MainWindow::mirrorRanges() {
  std::vector<TimeNs> offsets;
  if (allRanks_)
    for (int i = 0; i < timeline_->partCount(); ++i) offsets.push_back(timeline_->part(i).offset);
  navigation_->setRankOffsets(std::move(offsets));
  navigation_->setVisibleRange(timeline_->visibleRange());
  navigation_->setSelectedRange(timeline_->selectedTimeRange());
}

void MainWindow::showRankSummary() {
  const auto data = rank();
  if (!data) return;
  const Trace& trace = *data->run->trace;
  QString text = tr("%1: %2 events on %3 lanes, %4, %5 flows")
                     .arg(data->label)
                     .arg(trace.events.size())
                     .arg(data->layout->tracks().size())
                     .arg(widgets::durationText(trace.endNs - trace.startNs))
                     .arg(trace.flows.size());
  // Which execution trace the rank is paired with, how and how well (after the link stage).
  if (!data->etPath.isEmpty() && data->run->has(RunStage::Link))
    text += QStringLiteral("; ") + QString::fromStdString(describeEtLink(*data->run));
  if (allRanks_)
    text = tr("All %1 ranks on one time axis, %2. Tables follow the selection: %3")
               .arg(timeline_->partCount())
               .arg(alignmentNote_, text);
  if (!rankNote_.isEmpty()) text = rankNote_ + QStringLiteral(". ") + text;
  statusLabel_->setText(text);
}

void MainWindow::searchAndSelect(const QString& pattern) {
  searchBox_->setText(pattern);
  timeline_->nextMatch();
}

void MainWindow::showAnalyses(int index) {
  const auto& data = session_->ranks()[static_cast<std::size_t>(index)];
  ops_->setSteps(data->run->steps());
  ops_->setTable(data->run->opTable());
}

void MainWindow::showChain(EventId event) {
  const auto data = rank();
  if (!data || !data->run->has(RunStage::Link) || event == kNoEvent) {
    chain_->clear();
    return;
  }
  // With the rank's ET linked, the chain also lists the op's data dependencies (ET producers and
  // consumers of its tensors), as `sutra-cli chain --et` does.
  const LinkedTrace* linked = data->run->linked().get();
  chain_->setChain(data->run->trace, dependencyChain(*data->run->trace, *data->run->launches(),
                                                     *data->run->syncs(), event, linked));
}

void MainWindow::showCollective(EventId event) {
  const auto collectives = session_->collectives();
  const auto* members = allRanks_ && collectives && event != kNoEvent
                            ? collectives->collectiveOf(currentRank_, event)
                            : nullptr;
  if (!members) {
    timeline_->setLinkedEvents({});
    return;
  }
  // Where each rank's kernel starts on the shared axis: the last to start is the rank the others
  // waited for.
  std::vector<widgets::TimelineEvent> linked;
  int first = -1, last = -1;
  TimeNs firstStart = 0, lastStart = 0;
  for (const auto& m : *members) {
    if (m.rank >= timeline_->partCount()) continue;
    linked.push_back({m.rank, m.event});
    const auto& part = timeline_->part(m.rank);
    const TimeNs start = part.trace->events[m.event].start + part.offset;
    if (first < 0 || start < firstStart) first = m.rank, firstStart = start;
    if (last < 0 || start > lastStart) last = m.rank, lastStart = start;
  }
  timeline_->setLinkedEvents(linked);
  if (linked.size() < 2) return;
  const auto& ranks = session_->ranks();
  statusLabel_->setText(tr("One collective on %1 ranks: %2 started it last, %3 after %4 (%5)")
                            .arg(linked.size())
                            .arg(ranks[static_cast<std::size_t>(last)]->label,
                                 widgets::durationText(lastStart - firstStart),
                                 ranks[static_cast<std::size_t>(first)]->label,
                                 timeline_->axisNote()));
}

void MainWindow::onSelection(EventId event) {
  // In the all-ranks view a selection on another rank makes it the rank the tables follow.
  if (allRanks_ && event != kNoEvent && timeline_->selectedPart() != currentRank_)
    followRank(timeline_->selectedPart());
  const auto data = rank();
  // In the all-ranks view the start counts from the ruler's origin, in this rank's own times.
  std::optional<TimeNs> origin;
  if (allRanks_ && timeline_->partCount() > currentRank_)
    origin = timeline_->timeOrigin() - timeline_->part(currentRank_).offset;
  details_->showDetails(data, event, origin);
  if (!selectingFromChain_) showChain(event);
  showCollective(event);
  // Selecting a step in the timeline puts the operator table on that step.
  if (!data || event == kNoEvent) return;
  for (std::size_t i = 0; i < data->run->steps().size(); ++i)
    if (data->run->steps()[i].annotation == event) ops_->followStep(static_cast<int>(i));
}

void MainWindow::updateTitle() {
  // Named by the run, not by its first file: every sample's rank 0 is "rank0.kineto.json.gz".
  setWindowTitle(rank() ? QStringLiteral("%1 - Sutra").arg(runName(session_->paths()))
                        : QStringLiteral("Sutra"));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  if (!paths.isEmpty()) {
    event->acceptProposedAction();
    openPaths(paths);
  }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // The events keep at least half of a small window: the docks beside the timeline give way to
  // 30 % of the width (and the timeline's label column to a quarter of its own). Queued: the
  // docks have their widths once the layout has run.
  QMetaObject::invokeMethod(
      this,
      [this] {
        QList<QDockWidget*> beside;
        for (QDockWidget* dock : findChildren<QDockWidget*>())
          if (!dock->isHidden() && !dock->isFloating() &&
              dockWidgetArea(dock) == Qt::RightDockWidgetArea)
            beside << dock;
        const int most = width() * 3 / 10;
        if (!beside.isEmpty() && beside.front()->width() > most)
          resizeDocks(beside, QList<int>(beside.size(), most), Qt::Horizontal);
      },
      Qt::QueuedConnection);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  session_->cancel();
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  QMainWindow::closeEvent(event);
}

}  // namespace sutra::gui
