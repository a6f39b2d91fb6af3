// swift-tools-version: 6.1
// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// ExecKit's benchmarks: a package of their own, so that the library keeps zero dependencies.
// Run from the repository root: `swift package --package-path Benchmarks benchmark`.
//
// `EXECKIT_BENCHMARK_NIO=1` when SwiftPM reads this manifest adds one more suite, NIOComparisonBenchmarks: ExecKit
// beside SwiftNIO's event loop (issue #21). Without it the manifest names no SwiftNIO package, so the usual runs never
// resolve, fetch or build it.

import PackageDescription

/// One benchmark executable per library module, in `Benchmarks/<Suite>/`. To add a suite: append its name here, create `Benchmarks/<Suite>/<Suite>.swift` defining
/// `let benchmarks: @Sendable () -> Void`, and put allocation thresholds in `Thresholds/<Suite>.<benchmark>.p90.json`.
let suites = [
    "ExecKitBenchmarks",
    "ExecMutexBenchmarks",
    "ExecNotificationsBenchmarks",
    "ExecTestingBenchmarks",
]

/// Whether to build the SwiftNIO comparison suite: `EXECKIT_BENCHMARK_NIO=1` in the environment of the `swift` command.
let besideSwiftNIO = Context.environment["EXECKIT_BENCHMARK_NIO"] == "1"

let package = Package(
    name: "ExecKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ExecKit", path: ".."),
        // Only the MallocInterposer trait, which counts mallocs for the allocation thresholds. The harness's default
        // traits add a runtime interposer package that is not needed (and not available offline).
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
        )
    ]
        + suites.map { suite in
            .executableTarget(
                name: suite,
                dependencies: [
                    "BenchmarkSupport",
                    .product(name: "ExecKit", package: "ExecKit"),
                    .product(name: "ExecNotifications", package: "ExecKit"),
                    .product(name: "Benchmark", package: "benchmark"),
                ] + (suite == "ExecTestingBenchmarks" ? [.product(name: "ExecTesting", package: "ExecKit")] : []),
                path: "Benchmarks/\(suite)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)

// ExecKit beside SwiftNIO (issue #21): only with `EXECKIT_BENCHMARK_NIO=1`. No allocation thresholds: its rows are
// for people, not for CI.
if besideSwiftNIO {
    package.dependencies.append(.package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"))
    package.targets.append(
        .executableTarget(
            name: "NIOComparisonBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ExecKit", package: "ExecKit"),
                .product(name: "ExecMutex", package: "ExecKit"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Benchmarks/NIOComparisonBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}
