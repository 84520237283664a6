// SPDX-License-Identifier: MIT
#include "event_details.h"

#include <QEvent>
#include <QUrl>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "link/linked_trace.h"
#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {

QString prettyArgs(const Trace& trace, EventId event) {
  const std::string_view text = trace.argsJson(trace.events[event]);
  if (text.empty()) return {};
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded())
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
  return QString::fromStdString(parsed.dump(2));
}

namespace {

QString link(const Trace& trace, EventId id) {
  const Event& e = trace.events[id];
  return QStringLiteral("<a href=\"event:%1\">%2</a> (%3)")
      .arg(id)
      .arg(QString::fromUtf8(trace.name(e)).toHtmlEscaped(), durationText(e.dur));
}

QString row(const QString& key, const QString& value) {
  return QStringLiteral("<tr><td style='color:%1;padding-right:10px'>%2</td><td>%3</td></tr>")
      .arg(applicationTheme().dimText.name(), key, value);
}

}  // namespace

namespace {

QString utf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// "Tensor(float) [2, 3]" for each value of an ET node's inputs or outputs.
QStringList etValues(const EtArgs& args) {
  QStringList out;
  for (std::size_t i = 0; i < args.types().size(); ++i) {
    QString text = utf8(args.types()[i]);
    if (i < args.shapes().size() && !args.shapes()[i].empty()) {
      QStringList dims;
      for (std::int64_t d : args.shapes()[i]) dims << QString::number(d);
      text += QStringLiteral(" [%1]").arg(dims.join(QStringLiteral(", ")));
    }
    out << text;
  }
  return out;
}

// The ET nodes whose outputs this node reads (the last writer of each input tensor before it):
// its data dependencies, as the Chakra converter derives them.
std::vector<const EtNode*> dataDependencies(const EtTrace& et, const EtNode& node) {
  std::vector<const EtNode*> producers;
  for (const EtTensor& input : node.inputs.tensors) {
    const EtNode* last = nullptr;
    for (const EtNode& other : et.nodes) {
      if (other.id >= node.id) continue;
      for (const EtTensor& output : other.outputs.tensors)
        if (output.tensorId == input.tensorId && output.storageId == input.storageId &&
            (!last || other.id > last->id))
          last = &other;
    }
    if (last && std::find(producers.begin(), producers.end(), last) == producers.end())
      producers.push_back(last);
  }
  return producers;
}

}  // namespace

QString etNodeHtml(const RankData& rank, EventId event) {
  if (!rank.run->linked()) return {};
  const LinkedTrace& linked = *rank.run->linked();
  for (const LinkedOp& op : linked.ops) {
    if (!op.isCpu() || op.kinetoEvent != event) continue;
    const EtNode* node = linked.etNode(op);
    if (!node) return {};
    QString html = QStringLiteral("<h4 style='margin:6px 0 2px 0'>%1</h4><table>")
                       .arg(QObject::tr("execution trace node"));
    html += row(QObject::tr("ET node"),
                QStringLiteral("%1 (%2)").arg(node->id).arg(utf8(node->name).toHtmlEscaped()));
    if (!node->opSchema.empty())
      html += row(QObject::tr("schema"), utf8(node->opSchema).toHtmlEscaped());
    const QStringList inputs = etValues(node->inputs), outputs = etValues(node->outputs);
    for (int i = 0; i < inputs.size(); ++i)
      html += row(i == 0 ? QObject::tr("inputs") : QString(), inputs[i].toHtmlEscaped());
    for (int i = 0; i < outputs.size(); ++i)
      html += row(i == 0 ? QObject::tr("outputs") : QString(), outputs[i].toHtmlEscaped());
    if (linked.et) {
      const auto producers = dataDependencies(*linked.et, *node);
      for (std::size_t i = 0; i < producers.size() && i < 12; ++i)
        html += row(i == 0 ? QObject::tr("data deps") : QString(),
                    QStringLiteral("%1 (%2)")
                        .arg(producers[i]->id)
                        .arg(utf8(producers[i]->name).toHtmlEscaped()));
    }
    return html + QStringLiteral("</table>");
  }
  return {};
}

QString eventDetailsHtml(const RankData& rank, EventId event, std::optional<TimeNs> origin) {
  const Trace& trace = *rank.run->trace;
  if (event >= trace.events.size()) return {};
  const Event& e = trace.events[event];
  QString html = QStringLiteral("<h3 style='margin:2px 0'>%1</h3><table>")
                     .arg(QString::fromUtf8(trace.name(e)).toHtmlEscaped());
  html += row(QObject::tr("category"), QString::fromUtf8(trace.category(e)).toHtmlEscaped());
  const std::uint32_t r = rank.layout->rowOf(event);
  if (r != kNoRow)
    html += row(QObject::tr("lane"),
                QString::fromStdString(rank.layout->tracks()[rank.layout->rows()[r].track].label)
                    .toHtmlEscaped());
  html += row(QObject::tr("start"), QStringLiteral("+%1 (%2 ns)")
                                        .arg(durationText(e.start - origin.value_or(trace.startNs)))
                                        .arg(e.start));
  html += row(QObject::tr("duration"), durationText(e.dur));
  if (e.correlation != kNoId)
    html += row(QObject::tr("correlation"), QString::number(e.correlation));
  if (e.externalId != kNoId) html += row(QObject::tr("external id"), QString::number(e.externalId));
  if (e.recordFunctionId != kNoId)
    html += row(QObject::tr("record function id"), QString::number(e.recordFunctionId));
  if (e.parent != kNoEvent) html += row(QObject::tr("parent"), link(trace, e.parent));
  if (rank.run->has(RunStage::Link)) {
    const EventId call = rank.run->launches()->runtimeCallOf(event);
    if (call != kNoEvent) html += row(QObject::tr("launched by"), link(trace, call));
    const EventId launcher = rank.run->launches()->launcherOf(event);
    if (launcher != kNoEvent) html += row(QObject::tr("launching op"), link(trace, launcher));
    const auto ops = rank.run->launches()->deviceOpsOf(event);
    for (std::size_t i = 0; i < ops.size() && i < 16; ++i)
      html += row(i == 0 ? QObject::tr("launched") : QString(), link(trace, ops[i]));
    if (ops.size() > 16) html += row(QString(), QObject::tr("... %1 more").arg(ops.size() - 16));
  }
  if (rank.run->syncs()) {
    for (const auto& dep : *rank.run->syncs()) {
      if (dep.waiter == event)
        html += row(QObject::tr("waited on (%1)").arg(QString::fromUtf8(syncKindName(dep.kind))),
                    link(trace, dep.waitedOn));
      if (dep.waitedOn == event)
        html +=
            row(QObject::tr("waited for by (%1)").arg(QString::fromUtf8(syncKindName(dep.kind))),
                link(trace, dep.waiter));
    }
  }
  html += QStringLiteral("</table>");
  html += etNodeHtml(rank, event);
  const QString args = prettyArgs(trace, event);
  if (!args.isEmpty())
    html += QStringLiteral("<h4 style='margin:6px 0 2px 0'>%1</h4><pre style='margin:0'>%2</pre>")
                .arg(QObject::tr("args"), args.toHtmlEscaped());
  return html;
}

EventDetailsView::EventDetailsView(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(false);
  setPlaceholderText(tr("Select an event in the timeline to see its details and args."));
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == QLatin1String("event"))
      emit eventLinkActivated(static_cast<EventId>(url.path().toULongLong()));
  });
}

void EventDetailsView::showDetails(std::shared_ptr<const RankData> rank, EventId event,
                                   std::optional<TimeNs> origin) {
  rank_ = std::move(rank);
  event_ = event;
  origin_ = origin;
  if (!rank_ || event == kNoEvent) {
    clear();
    return;
  }
  setHtml(eventDetailsHtml(*rank_, event, origin_));
}

void EventDetailsView::changeEvent(QEvent* event) {
  QTextBrowser::changeEvent(event);
  // The HTML holds the theme's colours (and Qt's link colour) from when it was made: remake it.
  if (event->type() == QEvent::PaletteChange && rank_ && event_ != kNoEvent)
    setHtml(eventDetailsHtml(*rank_, event_, origin_));
}

}  // namespace sutra::widgets
