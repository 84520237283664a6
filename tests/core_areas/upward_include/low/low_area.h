// SPDX-License-Identifier: MIT
#pragma once
// The lower area of the fixture, including a header of the area above it: what
// scripts/check_core_includes.py must refuse, naming this file and line.
#include "high/high_area.h"
