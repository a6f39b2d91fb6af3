// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// `import ExecKit` is all most users need: it brings the mutex, the Dispatch helpers and Dispatch itself.
@_exported public import Dispatch
@_exported public import ExecDispatch
@_exported public import ExecMutex
