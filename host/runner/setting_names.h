// SPDX-License-Identifier: MIT
// The setting names of the public enums, also reached through runner/ by the GPU tests (settings/setting_names.h).
#pragma once

#include "settings/setting_names.h"
