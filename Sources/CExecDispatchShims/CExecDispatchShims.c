// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Everything but one flag lives in the header as static inline functions.

#include "CExecDispatchShims.h"

int execkit_main_queue_reader_validated = 0;
