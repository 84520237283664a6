// SPDX-License-Identifier: MIT
#pragma once
// The higher area of the fixture, including the lower one as it may.
#include "low/low_area.h"
