// SPDX-License-Identifier: MIT
#include "astra_sim_results_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "text/format.h"

namespace sutra::widgets {
namespace {

QString durationOrDash(const std::optional<TimeNs>& ns) {
  return ns ? durationText(*ns) : QStringLiteral("-");
}

QTableWidgetItem* cell(const QString& text, bool number = true) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

QString astraSimVsMeasuredText(const AstraSimRankRow& row) {
  if (!row.measuredNs || *row.measuredNs <= 0) return QStringLiteral("-");
  const double percent = 100.0 * double(row.astraSimNs - *row.measuredNs) / double(*row.measuredNs);
  return QStringLiteral("%1%2 %").arg(percent >= 0 ? "+" : "").arg(percent, 0, 'f', 1);
}

AstraSimResultsView::AstraSimResultsView(QWidget* parent) : QWidget(parent) {
  header_ = new QLabel(this);
  header_->setObjectName("AstraSimHeader");
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setWordWrap(true);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName("AstraSimTable");
  table_->setHorizontalHeaderLabels({tr("Rank"), tr("Measured"), tr("Sutra"), tr("astra-model"),
                                     tr("ASTRA-sim"), tr("ASTRA-sim vs measured"),
                                     tr("Exposed communication")});
  table_->verticalHeader()->hide();
  // Each column as wide as its heading or numbers: no number stretched far from its heading.
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addWidget(table_, 1);
}

void AstraSimResultsView::setResults(const AstraSimComparison& results) {
  results_ = results;
  header_->setText(
      tr("ASTRA-sim: %1\nNetwork: %2\nRanks: %3; Sutra is its own replay of the same "
         "Chakra graphs, astra-model the same under ASTRA-sim's rules, measured is each graph's "
         "span")
          .arg(QString::fromStdString(results.binary), QString::fromStdString(results.network))
          .arg(results.rows.size()));
  table_->setRowCount(int(results.rows.size()));
  for (int i = 0; i < int(results.rows.size()); ++i) {
    const AstraSimRankRow& row = results.rows[std::size_t(i)];
    table_->setItem(i, Rank, cell(QString::number(row.rank)));
    table_->setItem(i, Measured, cell(durationOrDash(row.measuredNs)));
    table_->setItem(i, Sutra, cell(durationOrDash(row.sutraNs)));
    table_->setItem(i, AstraModel, cell(durationOrDash(row.astraModelNs)));
    table_->setItem(i, AstraSim, cell(durationText(row.astraSimNs)));
    table_->setItem(i, AstraSimVsMeasured, cell(astraSimVsMeasuredText(row)));
    table_->setItem(i, ExposedComm, cell(durationOrDash(row.exposedCommNs)));
  }
}

}  // namespace sutra::widgets
