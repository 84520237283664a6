// SPDX-License-Identifier: MIT
#include "analysis_window.h"

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <algorithm>

#include "link/steps.h"
#include "trace_actions.h"
#include "trace_session.h"

namespace sutra::gui {

std::vector<AnalysisWindow>& analysisWindows() {
  static std::vector<AnalysisWindow> windows;
  return windows;
}

RegisterAnalysisWindow::RegisterAnalysisWindow(AnalysisWindow window) {
  analysisWindows().push_back(std::move(window));
}

RegisterAnalysisWindow::RegisterAnalysisWindow(int order, const char* text, const char* name,
                                               std::function<void(const AnalysisContext&)> open) {
  analysisWindows().push_back(
      {order, [text, name, open = std::move(open)](QMenu* menu, const AnalysisContext& context) {
         addAnalysisAction(menu, context, QCoreApplication::translate("QObject", text),
                           QString::fromLatin1(name), open);
       }});
}

int AnalysisContext::rankIndex() const {
  const int index = currentRank ? currentRank() : 0;
  return index >= 0 && std::size_t(index) < session->ranks().size() ? index : 0;
}

std::shared_ptr<const widgets::RankData> AnalysisContext::rank() const {
  const auto& ranks = session->ranks();
  return ranks.empty() ? nullptr : ranks[std::size_t(rankIndex())];
}

std::shared_ptr<const widgets::RankData> AnalysisContext::analysedRank(const QString& title) const {
  auto data = rank();
  if (!data) return nullptr;
  if (!data->run->has(RunStage::Analyse) || data->run->steps().empty()) {
    QMessageBox::information(window, title,
                             QObject::tr("The traces are still loading; try again when done."));
    return nullptr;
  }
  return data;
}

widgets::RankNavigation AnalysisContext::rankNavigation() const {
  return widgets::RankNavigation(navigation, rankIndex());
}

QAction* addAnalysisAction(QMenu* menu, const AnalysisContext& context, const QString& text,
                           const QString& name, std::function<void(const AnalysisContext&)> open) {
  QAction* action =
      menu->addAction(text, context.window, [context, open = std::move(open)] { open(context); });
  action->setObjectName(name);
  enableWithTrace(action, context.session);
  return action;
}

void installAnalysisWindows(QMenu* menu, const AnalysisContext& context) {
  std::vector<AnalysisWindow> windows = analysisWindows();
  std::stable_sort(
      windows.begin(), windows.end(),
      [](const AnalysisWindow& a, const AnalysisWindow& b) { return a.order < b.order; });
  for (std::size_t i = 0; i < windows.size(); ++i) {
    if (i > 0 && windows[i].order / 100 != windows[i - 1].order / 100) menu->addSeparator();
    windows[i].install(menu, context);
  }
}

TimeWindow selectedWindow(const Trace& trace, const widgets::RankNavigation& navigation) {
  const view::TimeRange range = navigation.selectedRange();
  if (range.span() <= 0) return wholeTraceWindow(trace);
  return {range.start, range.end};
}

}  // namespace sutra::gui
