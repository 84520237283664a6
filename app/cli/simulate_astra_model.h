// SPDX-License-Identifier: MIT
#pragma once
// `sutra-cli simulate --engine astra-model PREFIX`: a convert export run under ASTRA-sim's rules
// by Sutra itself (simulate/astra_model.h), beside what each rank measured.
#include "cli_args.h"

namespace sutra::cli {

int runAstraModelEngine(const Args& args);

}  // namespace sutra::cli
