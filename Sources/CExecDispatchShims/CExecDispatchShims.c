// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Everything but three variables lives in the headers as static inline functions.

#include "CExecDispatchShims.h"

int execkit_main_queue_reader_validated = 0;
int execkit_raw_queue_layout_state = 0;

_Thread_local void *execkit_entered_queue_record = 0;
