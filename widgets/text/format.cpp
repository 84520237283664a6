// SPDX-License-Identifier: MIT
#include "text/format.h"
