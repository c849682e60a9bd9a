// Stand-in for Apple's `os` module (unified logging): the declarations `OSLogBackend.swift` uses, in the shapes of
// the real ones (`os.Logger` and `OSLogType`: macOS 11, iOS 14, tvOS 14, watchOS 7, visionOS 1). Type-checked
// against on Linux by `.ci/apple-only`; never linked.

/// `os.Logger`.
public struct Logger: @unchecked Sendable {
    public init(subsystem: String, category: String) {}
    public func log(level: OSLogType, _ message: OSLogMessage) {}
    public func log(_ message: OSLogMessage) {}
}

/// `os_log_type_t`.
public struct OSLogType: RawRepresentable, Equatable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)
}

/// The privacy of an interpolated value.
public struct OSLogPrivacy: Equatable, Sendable {
    private let level: Int
    public static let auto = OSLogPrivacy(level: 0)
    public static let `public` = OSLogPrivacy(level: 1)
    public static let `private` = OSLogPrivacy(level: 2)
    public static let sensitive = OSLogPrivacy(level: 3)
}

/// A log message: a string literal with interpolations that each take a privacy.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation(
            _ argumentString: @autoclosure @escaping () -> String,
            privacy: OSLogPrivacy = .auto
        ) {}
        public mutating func appendInterpolation(
            _ number: @autoclosure @escaping () -> Int,
            privacy: OSLogPrivacy = .auto
        ) {}
    }
    public init(stringInterpolation: StringInterpolation) {}
    public init(stringLiteral value: String) {}
}
