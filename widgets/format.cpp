// SPDX-License-Identifier: MIT
#include "format.h"
