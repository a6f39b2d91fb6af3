// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Everything lives in the header as static inline functions; SwiftPM needs one source file per C target.

#include "CExecDispatchShims.h"
