// SPDX-License-Identifier: MIT
#pragma once
// One CSV field as RFC 4180 writes it: quoted (with quotes doubled) only where it holds a comma, a
// quote or a line break. Every CSV that Sutra writes (the CLI's tables, the GUI's table export)
// quotes through here.
#include <string>
#include <string_view>

namespace sutra {

std::string csvField(std::string_view text);

}  // namespace sutra
