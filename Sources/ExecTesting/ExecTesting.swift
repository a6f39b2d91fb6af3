// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// `import ExecTesting` in a test target brings ExecKit (and with it Dispatch) too. Production code never links this
// module: it exists for tests only.
@_exported public import ExecKit
