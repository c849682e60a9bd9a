// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Actuate",
    platforms: [
        .macOS(.v15),
        .iOS(.v18),
        .tvOS(.v18),
        .watchOS(.v11),
        .visionOS(.v2),
    ],
    products: [
        .library(name: "Actuate", targets: ["Actuate", "ActuateCore", "ActuatePlugins"]),
        .library(name: "ActuateTesting", targets: ["ActuateTesting"]),
        .library(name: "ActuatePersonalizationTesting", targets: ["ActuatePersonalizationTesting"]),
        .library(name: "ActuateReporting", targets: ["ActuateReporting"]),
        .library(name: "ActuatePersonalization", targets: ["ActuatePersonalization"]),
        .executable(name: "shop-demo", targets: ["ShopDemo"]),
        .executable(name: "actuate-bench", targets: ["ActuateBenchmarks"]),
        .executable(name: "actuate", targets: ["ActuateCLI"]),
        .plugin(name: "ActionCatalogCommand", targets: ["ActionCatalogCommand"]),
        .plugin(name: "TimelineCommand", targets: ["TimelineCommand"]),
    ],
    targets: [
        // The core: features, actions, the dispatcher and the plugin contract. Its folder keeps the product's name.
        .target(name: "ActuateCore", path: "Sources/Actuate", exclude: ["Internal/OWNERSHIP.md"]),
        // The built-in plugins, written against the core's public API only (`.ci/run` type-checks them without
        // the package's name, so a `package` declaration of the core fails the check).
        .target(name: "ActuatePlugins", dependencies: ["ActuateCore"], exclude: ["Internal/OWNERSHIP.md"]),
        // `import Actuate`: re-exports the core and the built-in plugins; declares nothing.
        .target(name: "Actuate", dependencies: ["ActuateCore", "ActuatePlugins"], path: "Sources/ActuateUmbrella"),
        // The test kit depends on what it tests, no more: the core alone. Personalisation's helpers are apart.
        .target(name: "ActuateTesting", dependencies: ["Actuate"]),
        .target(
            name: "ActuatePersonalizationTesting",
            dependencies: ["ActuatePersonalization", "ActuateReporting", "ActuateTesting"]
        ),
        .target(name: "ActuateReporting", dependencies: ["Actuate"], exclude: ["Internal/OWNERSHIP.md"]),
        .target(
            name: "ActuatePersonalization",
            dependencies: ["Actuate", "ActuateReporting"],
            exclude: ["Rules/rules.schema.json", "Internal/OWNERSHIP.md"]
        ),
        .executableTarget(
            name: "ShopDemo",
            dependencies: [
                "Actuate", "ActuateReporting", "ActuatePersonalization", "ActuateTesting",
                "ActuatePersonalizationTesting",
            ],
            path: "Examples/ShopDemo"
        ),
        .executableTarget(
            name: "ActuateBenchmarks",
            dependencies: ["Actuate", "ActuateReporting", "ActuatePersonalization"],
            path: "Benchmarks/ActuateBenchmarks"
        ),
        .executableTarget(
            name: "ActuateCLI",
            dependencies: ["Actuate", "ActuateReporting", "ActuatePersonalization"],
            path: "Sources/ActuateCLI"
        ),
        .plugin(
            name: "ActionCatalogCommand",
            capability: .command(
                intent: .custom(
                    verb: "action-catalog",
                    description: "Print the features and actions of an executable product (shop-demo by default)"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "With --write, the catalog is written to ACTIONS.md")
                ]
            )
        ),
        .plugin(
            name: "TimelineCommand",
            capability: .command(
                intent: .custom(
                    verb: "timeline",
                    description: "Write a debug report's timeline as a self-contained HTML page"
                )
            )
        ),
        .executableTarget(
            name: "JournalWriter",
            dependencies: ["ActuateReporting", "ActuatePersonalization", "Actuate"],
            path: "Tests/Support/JournalWriter"
        ),
        // The entry points of the libFuzzer targets in Tests/Fuzz (built by .ci/fuzz) and of the regression tests that
        // replay their corpora; they reach the modules' `package` declarations. Not products, so they never ship. The
        // CLI's are apart: a target that depends on an executable target does not link its code, so only a test
        // target that depends on ActuateCLI itself can use them.
        .target(
            name: "ActuateFuzzEntryPoints",
            dependencies: ["Actuate", "ActuateReporting", "ActuatePersonalization"],
            path: "Tests/FuzzEntryPoints"
        ),
        .target(
            name: "ActuateCLIFuzzEntryPoints",
            dependencies: ["ActuateCLI"],
            path: "Tests/CLIFuzzEntryPoints"
        ),
        // What the test targets share: the loopback test servers' launcher, threads of their own; not a product.
        .target(
            name: "ActuateTestSupport",
            path: "Tests/Support/ActuateTestSupport"
        ),
        // The fixtures that the core's, the plugins' and the test kit's tests share (features, actions, queues, the
        // route testbed); tests reach their internal names with `@testable import`. Not a product.
        .target(
            name: "ActuateFixtures",
            dependencies: ["ActuateCore", "ActuateTesting"],
            path: "Tests/Support/ActuateFixtures"
        ),
        // One test target per module, importing the module, what it depends on and the test tools at its level;
        // `.ci/test-imports` holds each target's allowed imports and says why.
        .testTarget(
            name: "ActuateCoreTests",
            dependencies: [
                "ActuateCore", "ActuateTesting", "ActuateFixtures", "ActuateTestSupport", "ActuateFuzzEntryPoints",
            ]
        ),
        .testTarget(
            name: "ActuatePluginsTests",
            dependencies: [
                "ActuatePlugins", "ActuateCore", "Actuate", "ActuateTesting", "ActuateFixtures", "ActuateTestSupport",
            ]
        ),
        .testTarget(
            name: "ActuateTestingTests",
            dependencies: ["ActuateTesting", "Actuate", "ActuateCore", "ActuatePlugins", "ActuateFixtures"]
        ),
        .testTarget(
            name: "ActuateReportingTests",
            dependencies: [
                "ActuateReporting", "Actuate", "ActuateCore", "ActuatePlugins", "ActuateTesting", "ActuateTestSupport",
                // ActuateFuzzEntryPoints brings ActuatePersonalization along; `.ci/test-imports` keeps it unimported.
                "JournalWriter", "ActuateFuzzEntryPoints",
            ]
        ),
        .testTarget(
            name: "ActuateCLITests",
            dependencies: [
                "ActuateCLI", "Actuate", "ActuateReporting", "ActuateTestSupport", "ActuateCLIFuzzEntryPoints",
                "ActuatePersonalization", "ActuateTesting",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ActuatePersonalizationTests",
            dependencies: [
                "ActuatePersonalization", "ActuateReporting", "ActuateTesting", "ActuatePersonalizationTesting",
                "ActuateTestSupport", "ActuateFuzzEntryPoints", "JournalWriter",
                "ActuateCore", "ActuatePlugins",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
