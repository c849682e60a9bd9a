// swift-tools-version: 6.2
import PackageDescription

// The tiny apps whose release binaries `measure` compares with `Empty`'s: what each of Actuate's products adds to an
// app. Each app does what a real one would first do with the product, so that dead-stripping keeps what that needs.
let package = Package(
    name: "BinarySize",
    dependencies: [.package(name: "Actuate", path: "../..")],
    targets: [
        // Prints one line: the hello-world every other app is measured against.
        .executableTarget(name: "Empty"),
        // Imports the core module alone: features, actions, one dispatch. SwiftPM has no product of the core alone,
        // so this links the `Actuate` product like the next two.
        .executableTarget(name: "CoreApp", dependencies: [.product(name: "Actuate", package: "Actuate")]),
        // The core and the built-in plugins: `ActuateSystem.quickSetup`, the timeline.
        .executableTarget(name: "PluginsApp", dependencies: [.product(name: "Actuate", package: "Actuate")]),
        // The same through `import Actuate`, the umbrella.
        .executableTarget(name: "UmbrellaApp", dependencies: [.product(name: "Actuate", package: "Actuate")]),
        // Adds reporting: a file event store, a reporter and its plugin.
        .executableTarget(
            name: "ReportingApp",
            dependencies: [
                .product(name: "Actuate", package: "Actuate"),
                .product(name: "ActuateReporting", package: "Actuate"),
            ]
        ),
        // Adds personalization: a tracker over a rules file, a content action.
        .executableTarget(
            name: "PersonalizationApp",
            dependencies: [
                .product(name: "Actuate", package: "Actuate"),
                .product(name: "ActuateReporting", package: "Actuate"),
                .product(name: "ActuatePersonalization", package: "Actuate"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
