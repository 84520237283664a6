// SPDX-License-Identifier: MIT
#pragma once
// Memory copies and memsets in the steps: copies from or to pageable host memory (the runtime
// stages them through a pinned buffer, at a fraction of the bus's rate, and the call blocks), small
// copies (under kSmallCopyBytes: latency, not bandwidth), and memsets. The fixes: a pageable copy
// pinned runs at the best rate a pinned copy of the same direction achieved in the trace (not
// priced where there is none); a small copy or memset folded into other work costs its device
// time and its launch call.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

inline constexpr std::int64_t kSmallCopyBytes = 64 * 1024;

std::vector<Finding> findMemoryCopies(const AdviceScope& scope);

}  // namespace sutra
