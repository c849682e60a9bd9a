import Foundation

/// A platform and its operating system version, as availability constraints see it.
struct RuntimePlatform: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The platforms constraints can name, and `other` for the rest, which never satisfy a constraint.
    enum Kind: Sendable, Hashable, Codable, CustomStringConvertible {
        /// iOS and iPadOS, including Mac Catalyst apps.
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
    static var current: RuntimePlatform {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        return RuntimePlatform(
            kind: currentKind,
            version: PlatformVersion(os.majorVersion, os.minorVersion, os.patchVersion)
        )
    }

    private static var currentKind: Kind {
        #if targetEnvironment(macCatalyst) || os(iOS)
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
