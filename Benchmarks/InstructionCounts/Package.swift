// swift-tools-version: 6.0
// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A small driver for instruction counts under valgrind's callgrind, which hold still between runs where wall-clock
// ratios on a shared machine do not. See count.sh and Benchmarks/README.md.

import PackageDescription

let package = Package(
    name: "InstructionCounts",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ExecKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                .product(name: "ExecKit", package: "ExecKit"), .product(name: "ExecTesting", package: "ExecKit"),
                .product(name: "ExecNotifications", package: "ExecKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
