// swift-tools-version: 6.2
// The Getting started article's app: a notes app on Actuate, as its own package that depends on Actuate by path,
// the way a newcomer's app does. `.ci/run` builds it with warnings as errors, runs it, and runs its tests in
// parallel, with each test on its own harness (`.ci/notes-app-check` keeps them that way).
import PackageDescription

let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [.executable(name: "NotesApp", targets: ["NotesApp"])],
    dependencies: [.package(name: "Actuate", path: "../..")],
    targets: [
        // The app's logic: features, actions and the dependencies they read.
        .target(name: "NotesKit", dependencies: [.product(name: "Actuate", package: "Actuate")]),
        // The app: sets the live dependencies, performs actions, opens a link.
        .executableTarget(name: "NotesApp", dependencies: ["NotesKit", .product(name: "Actuate", package: "Actuate")]),
        // The app's tests: the strict harness, virtual time, one-line dependency overrides.
        .testTarget(
            name: "NotesKitTests",
            dependencies: ["NotesKit", .product(name: "ActuateTesting", package: "Actuate")]
        ),
        // The app's promotions (a "What's new" campaign, an onlyOnce tip, the Pro upgrade): five-line tests on the
        // personalization harness, relaunches included.
        .testTarget(
            name: "NotesPromotionTests",
            dependencies: [
                .product(name: "ActuatePersonalization", package: "Actuate"),
                .product(name: "ActuatePersonalizationTesting", package: "Actuate"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
