// SPDX-License-Identifier: MIT
#pragma once
// The bundled samples (resources/samples/<case>/) are real recordings, but for a synthetic GPU
// model where no recording shows the same thing, and the window says which while one is open:
// each sample directory holds a SAMPLE.md whose first bold line says what recorded it.
#include <QString>
#include <QStringList>

namespace sutra::gui {

// "<case>: Recorded on the CPU with PyTorch 2.13.0 (...) by tools/collect." or "<case>: Synthetic:
// ..." for paths in (or naming) a sample directory; empty for any other trace.
QString sampleNotice(const QStringList& paths);

}  // namespace sutra::gui
