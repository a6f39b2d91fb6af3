// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Which frames of a captured stack are the caller's, rather than ExecKit's, the standard library's or generated code.
enum CallSiteFilter {
    /// The directory holding ExecKit's module sources (`…/Sources/`), from this file's own path: a frame whose source
    /// lies there is library code, whichever ExecKit module it belongs to.
    static let librarySources: String? = {
        let path = "\(#filePath)"
        guard let range = path.ranges(of: "/Sources/ExecTesting/").last else { return nil }
        return String(path[..<range.lowerBound]) + "/Sources/"
    }()

    /// Mangled-name prefixes of ExecKit's modules (`$s` + length + name), for builds whose debug paths were remapped.
    private static let libraryManglingPrefixes = libraryModules.map { "$s\($0.utf8.count)\($0)" }
    private static let libraryModules = ["ExecKit", "ExecTesting", "ExecDispatch", "ExecMutex", "ExecNotifications"]
    /// The source directories of ExecKit's targets, as a release build's debug information names them: relative to
    /// the package that was built (`Sources/ExecKit/…`, or `…/checkouts/execkit/Sources/ExecKit/…` for a dependency).
    private static let libraryDirectories = (libraryModules + ["CExecDispatchShims"]).map { "Sources/\($0)/" }

    /// Whether `path` is a file of ExecKit's sources, named absolutely or relative to a package.
    static func isLibrarySource(_ path: String) -> Bool {
        if let librarySources, path.hasPrefix(librarySources) { return true }
        return libraryDirectories.contains { path.hasPrefix($0) || path.contains("/\($0)") }
    }

    /// Whether a frame at `path`:`line` in function `symbol` (mangled) is code that called into ExecKit: it has a real
    /// line, is not compiler-generated, and belongs to neither ExecKit nor the Swift toolchain's own sources.
    static func isCallerFrame(path: String, line: Int, symbol: String) -> Bool {
        guard line > 0, !path.hasSuffix("<compiler-generated>") else { return false }
        if isLibrarySource(path) || !isCallerFunction(symbol: symbol) { return false }
        // The standard library's and the concurrency runtime's inlinable code, emitted into the caller, keeps the
        // path it was compiled from on the toolchain's build machine.
        if path.contains("/swift/stdlib/public/") { return false }
        return true
    }

    /// Whether a function, by its mangled name, belongs to none of ExecKit's modules.
    static func isCallerFunction(symbol: String) -> Bool {
        !libraryManglingPrefixes.contains { symbol.hasPrefix($0) }
    }
}
