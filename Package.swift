// swift-tools-version: 6.2
//
// ExecKit: execution contexts for Swift callback APIs.
// The library depends on no package; only the toolchain's Dispatch and Synchronization.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ExecKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ExecKit", targets: ["ExecKit"]),
        .library(name: "ExecMutex", targets: ["ExecMutex"]),
        .library(name: "ExecDispatch", targets: ["ExecDispatch"]),
        .library(name: "ExecNotifications", targets: ["ExecNotifications"]),
        // For tests only: virtual time and simulated queues. Production code never links it.
        .library(name: "ExecTesting", targets: ["ExecTesting"]),
    ],
    targets: [
        // Direct links to libdispatch symbols that Swift's Dispatch module hides or wraps, and the C globals and
        // thread-local that the hot paths read (see its header).
        .target(name: "CExecDispatchShims"),
        // ExecMutex reads one thread-local of the shims' (LockObserver.h): ExecTesting's view of lock acquisitions.
        .target(name: "ExecMutex", dependencies: ["CExecDispatchShims"], swiftSettings: strictSettings),
        .target(name: "ExecDispatch", dependencies: ["CExecDispatchShims"], swiftSettings: strictSettings),
        .target(name: "ExecKit", dependencies: ["ExecMutex", "ExecDispatch", "CExecDispatchShims"], swiftSettings: strictSettings),
        .target(name: "ExecNotifications", dependencies: ["ExecKit"], swiftSettings: strictSettings),
        .target(name: "ExecTesting", dependencies: ["ExecKit", "CExecDispatchShims"], swiftSettings: strictSettings),
        .executableTarget(
            name: "ExecKitTour",
            dependencies: ["ExecKit"],
            path: "Examples/ExecKitTour",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ConcurrencyTour",
            dependencies: ["ExecKit"],
            path: "Examples/ConcurrencyTour",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "NotificationsTour",
            dependencies: ["ExecNotifications"],
            path: "Examples/NotificationsTour",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CallbackAPI",
            dependencies: ["ExecKit"],
            path: "Examples/CallbackAPI",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CustomContext",
            dependencies: ["ExecNotifications"],
            path: "Examples/CustomContext",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "Timers",
            dependencies: ["ExecKit"],
            path: "Examples/Timers",
            swiftSettings: strictSettings
        ),
        // What the test targets share (stress and memory helpers, polling for releases); not a product.
        .target(
            name: "ExecTestSupport", dependencies: ["ExecKit"], path: "Tests/ExecTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "ExecMutexTests", dependencies: ["ExecMutex", "ExecTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "ExecDispatchTests", dependencies: ["ExecDispatch", "ExecMutex"], swiftSettings: strictSettings),
        .testTarget(
            name: "ExecKitTests",
            dependencies: ["ExecKit", "ExecKitMainQueueProbe", "ExecKitAsyncMainProbe", "ExecTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ExecNotificationsTests",
            dependencies: ["ExecNotifications", "ExecTestSupport"],
            swiftSettings: strictSettings
        ),
        // For the call-site tests: a call whose frame-pointer chain is broken on purpose (C and assembly).
        .target(name: "CExecTestSupport", path: "Tests/CExecTestSupport"),
        .testTarget(
            name: "ExecTestingTests",
            dependencies: ["ExecTesting", "ExecNotifications", "ExecTestSupport", "CExecTestSupport"],
            swiftSettings: strictSettings),
        // The stress suite (issue #16): scenarios that repeat every asynchronous API, the driver that runs each in a
        // process of its own (CI also runs its release build at a larger size), and the tests that run the driver.
        .target(
            name: "ExecStressScenarios",
            dependencies: ["ExecKit", "ExecNotifications", "ExecTesting", "ExecTestSupport"],
            path: "Tests/ExecStressScenarios",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ExecKitStress",
            dependencies: ["ExecStressScenarios"],
            path: "Tests/ExecKitStress",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ExecStressTests",
            dependencies: ["ExecStressScenarios", "ExecKitStress", "ExecTestSupport"],
            swiftSettings: strictSettings
        ),
        // A helper process for ExecKitTests: checks `.main` in a `dispatchMain()`-driven process.
        .executableTarget(
            name: "ExecKitMainQueueProbe",
            dependencies: ["ExecKit", "CExecDispatchShims"],
            path: "Tests/ExecKitMainQueueProbe",
            swiftSettings: strictSettings
        ),
        // A helper process for ExecKitTests: checks `.main` in an async `@main` program.
        .executableTarget(
            name: "ExecKitAsyncMainProbe",
            dependencies: ["ExecKit", "ExecMutex"],
            path: "Tests/ExecKitAsyncMainProbe",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The test-driven examples (Examples/): a debounce written with ExecKit timers, and a checkout with an ordering bug,
// each with its tests in virtual time, which run with `swift test`.
package.targets += [
    .target(
        name: "DebounceTesting",
        dependencies: ["ExecKit"],
        path: "Examples/DebounceTesting",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "DebounceTestingTests",
        dependencies: ["DebounceTesting", "ExecTesting"],
        path: "Examples/DebounceTestingTests",
        swiftSettings: strictSettings
    ),
    // The exploration example: a checkout with an ordering bug, found and fixed with TestCoordinator.explore.
    .target(
        name: "OrderingBugs",
        dependencies: ["ExecKit"],
        path: "Examples/OrderingBugs",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "OrderingBugsTests",
        dependencies: ["OrderingBugs", "ExecTesting"],
        path: "Examples/OrderingBugsTests",
        swiftSettings: strictSettings
    ),
]
