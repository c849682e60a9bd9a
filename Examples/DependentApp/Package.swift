// swift-tools-version: 6.2
// An app that depends on Actuate the way a newcomer's does: by package, from top-level code in main.swift.
// `.ci/run` builds it with warnings as errors and runs it, so the README's first call shapes hold outside the
// package's own targets.
import PackageDescription

let package = Package(
    name: "DependentApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "Actuate", path: "../..")],
    targets: [
        .executableTarget(name: "DependentApp", dependencies: [.product(name: "Actuate", package: "Actuate")])
    ],
    swiftLanguageModes: [.v6]
)
