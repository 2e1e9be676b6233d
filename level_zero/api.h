#pragma once
// Every Level Zero entry point Loom implements, for the generated DDI tables.
#include "level_zero/cmdlist/command_list.h"
#include "level_zero/cmdqueue/command_queue.h"
#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"
#include "level_zero/event/event_pool.h"
#include "level_zero/fence/fence.h"
#include "level_zero/kernel/kernel.h"
#include "level_zero/memory/memory.h"
#include "level_zero/memory/virtual_memory.h"
#include "level_zero/module/module.h"
