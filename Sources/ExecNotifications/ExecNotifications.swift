// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Observers take an `Exec` and return a `Lifetime`, so `import ExecNotifications` brings ExecKit along.
@_exported public import ExecKit
