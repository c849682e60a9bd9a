import Foundation

/// A platform and its operating system version, as availability constraints see it.
struct RuntimePlatform: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The platforms constraints can name, and `other` for the rest, which never satisfy a constraint.
    enum Kind: Sendable, Hashable, Codable, CustomStringConvertible {
        /// iOS and iPadOS, including Mac Catalyst apps, which are compared by the iOS version they run as.
        case iOS
        /// macOS.
        case macOS
        /// tvOS.
        case tvOS
        /// watchOS.
        case watchOS
        /// visionOS.
        case visionOS
        /// Linux.
        case linux
        /// A platform constraints cannot name, such as Windows or Android.
        case other(String)

        var description: String {
            switch self {
            case .iOS: "iOS"
            case .macOS: "macOS"
            case .tvOS: "tvOS"
            case .watchOS: "watchOS"
            case .visionOS: "visionOS"
            case .linux: "Linux"
            case .other(let name): name
            }
        }
    }

    /// The platform.
    var kind: Kind
    /// The operating system version.
    var version: PlatformVersion

    /// Creates a platform description, for example to test constraints for another platform.
    init(kind: Kind, version: PlatformVersion) {
        self.kind = kind
        self.version = version
    }

    /// The platform the process runs on.
    ///
    /// A Mac Catalyst app is iOS at the iOS version it runs as: `operatingSystemVersion` is the macOS version
    /// there, which ``macCatalyst(macOSVersion:)`` maps, so an `.iOS(18)` requirement holds on macOS 15.
    static var current: RuntimePlatform {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        let version = PlatformVersion(os.majorVersion, os.minorVersion, os.patchVersion)
        #if targetEnvironment(macCatalyst)
        return macCatalyst(macOSVersion: version)
        #else
        return RuntimePlatform(kind: currentKind, version: version)
        #endif
    }

    /// A Mac Catalyst app on macOS `macOSVersion`: iOS, at the iOS version that macOS runs Catalyst apps as.
    ///
    /// From macOS 26 the two share their numbers. Before, each macOS major release ran one iOS release: macOS 15.x
    /// is iOS 18.x and 14.x is iOS 17.x, minor for minor; 13.x is iOS 16.(x+1); 12.0 is iOS 15.0 and 12.x then
    /// iOS 15.(x+1); 11.x is iOS 14.(x+2); 10.15, the first with Catalyst, is taken as iOS 13.1, its lowest.
    ///
    /// - Parameter macOSVersion: The macOS version, as `ProcessInfo.operatingSystemVersion` reports it there.
    /// - Returns: The platform, of kind ``Kind/iOS``.
    static func macCatalyst(macOSVersion: PlatformVersion) -> RuntimePlatform {
        let major = macOSVersion.major
        let minor = macOSVersion.minor
        let patch = macOSVersion.patch
        let iOS: PlatformVersion =
            switch major {
            case 26...: macOSVersion
            case 14...25: PlatformVersion(major + 3, minor, patch)
            case 13: PlatformVersion(16, minor + 1, patch)
            case 12: PlatformVersion(15, minor == 0 ? 0 : minor + 1, patch)
            case 11: PlatformVersion(14, minor + 2, patch)
            default: PlatformVersion(13, 1)
            }
        return RuntimePlatform(kind: .iOS, version: iOS)
    }

    private static var currentKind: Kind {
        #if os(iOS)
        .iOS
        #elseif os(macOS)
        .macOS
        #elseif os(tvOS)
        .tvOS
        #elseif os(watchOS)
        .watchOS
        #elseif os(visionOS)
        .visionOS
        #elseif os(Linux)
        .linux
        #elseif os(Windows)
        .other("Windows")
        #else
        .other("unknown")
        #endif
    }

    var description: String { "\(kind) \(version)" }
}

/// An operating system version, compared component by component.
struct PlatformVersion: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The major version.
    var major: Int
    /// The minor version.
    var minor: Int
    /// The patch version.
    var patch: Int

    /// Creates a version.
    init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    static func < (lhs: PlatformVersion, rhs: PlatformVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }
}

/// A platform a feature supports, with its minimum version.
///
/// A feature that names platforms is available only on those, at or above their versions; on any other
/// platform, including unknown ones, it is unavailable. A feature that names none runs everywhere.
public struct PlatformRequirement: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The platform.
    let kind: RuntimePlatform.Kind
    /// The lowest version supported.
    let minimumVersion: PlatformVersion

    /// Creates a requirement.
    init(_ kind: RuntimePlatform.Kind, minimumVersion: PlatformVersion = PlatformVersion(0)) {
        self.kind = kind
        self.minimumVersion = minimumVersion
    }

    /// iOS at or above `major.minor`.
    public static func iOS(_ major: Int, _ minor: Int = 0) -> PlatformRequirement {
        PlatformRequirement(.iOS, minimumVersion: PlatformVersion(major, minor))
    }

    /// macOS at or above `major.minor`.
    public static func macOS(_ major: Int, _ minor: Int = 0) -> PlatformRequirement {
        PlatformRequirement(.macOS, minimumVersion: PlatformVersion(major, minor))
    }

    /// tvOS at or above `major.minor`.
    public static func tvOS(_ major: Int, _ minor: Int = 0) -> PlatformRequirement {
        PlatformRequirement(.tvOS, minimumVersion: PlatformVersion(major, minor))
    }

    /// watchOS at or above `major.minor`.
    public static func watchOS(_ major: Int, _ minor: Int = 0) -> PlatformRequirement {
        PlatformRequirement(.watchOS, minimumVersion: PlatformVersion(major, minor))
    }

    /// visionOS at or above `major.minor`.
    public static func visionOS(_ major: Int, _ minor: Int = 0) -> PlatformRequirement {
        PlatformRequirement(.visionOS, minimumVersion: PlatformVersion(major, minor))
    }

    /// Linux, any version.
    public static let linux = PlatformRequirement(.linux)

    /// Whether `platform` meets the requirement. Platforms of kind `other` never do.
    func isSatisfied(by platform: RuntimePlatform) -> Bool {
        if case .other = platform.kind { return false }
        return platform.kind == kind && platform.version >= minimumVersion
    }

    public var description: String {
        minimumVersion == PlatformVersion(0) ? "\(kind)" : "\(kind) \(minimumVersion.major).\(minimumVersion.minor)+"
    }
}
