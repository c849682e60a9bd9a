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
        .library(name: "Actuate", targets: ["Actuate"]),
        .library(name: "ActuateTesting", targets: ["ActuateTesting"]),
        .library(name: "ActuateReporting", targets: ["ActuateReporting"]),
        .library(name: "ActuatePersonalization", targets: ["ActuatePersonalization"]),
        .executable(name: "shop-demo", targets: ["ShopDemo"]),
        .executable(name: "actuate-bench", targets: ["ActuateBenchmarks"]),
    ],
    targets: [
        .target(name: "Actuate"),
        .target(name: "ActuateTesting", dependencies: ["Actuate"]),
        .target(name: "ActuateReporting", dependencies: ["Actuate"]),
        .target(
            name: "ActuatePersonalization",
            dependencies: ["Actuate", "ActuateReporting"],
            exclude: ["Rules/rules.schema.json"]
        ),
        .executableTarget(
            name: "ShopDemo",
            dependencies: ["Actuate", "ActuateReporting", "ActuatePersonalization"],
            path: "Examples/ShopDemo"
        ),
        .executableTarget(
            name: "ActuateBenchmarks",
            dependencies: ["Actuate", "ActuateReporting", "ActuatePersonalization"],
            path: "Benchmarks/ActuateBenchmarks"
        ),
        .executableTarget(
            name: "JournalWriter",
            dependencies: ["ActuateReporting"],
            path: "Tests/Support/JournalWriter"
        ),
        .testTarget(
            name: "ActuateTests",
            dependencies: ["Actuate", "ActuateTesting"]
        ),
        .testTarget(
            name: "ActuateReportingTests",
            dependencies: ["ActuateReporting", "ActuateTesting", "JournalWriter"]
        ),
        .testTarget(
            name: "ActuatePersonalizationTests",
            dependencies: ["ActuatePersonalization", "ActuateReporting", "ActuateTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
