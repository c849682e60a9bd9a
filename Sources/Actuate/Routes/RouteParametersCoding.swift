import Foundation

/// An action input that can be built from the parameters of a URL route.
///
/// `String`, `Int` and `UUID` read the route's only path parameter; ``NoInput`` ignores the parameters.
public protocol RouteParametersDecodable {
    /// Builds the input from a route's parameters.
    ///
    /// - Parameter routeParameters: The path parameters and query items of the URL being opened.
    /// - Throws: Preferably a ``RouteParameterError``, so that the router can name the parameter at fault.
    init(routeParameters: RouteParameters) throws
}

/// An action input that can be written into the parameters of a URL route, for building links.
///
/// ```swift
/// extension ProductLink: RouteParametersEncodable {
///     var routeParameterValues: RouteParameterValues {
///         .named(["id": String(id), "ref": referrer].compactMapValues { $0 })
///     }
/// }
/// ```
public protocol RouteParametersEncodable {
    /// The values to put into the link.
    var routeParameterValues: RouteParameterValues { get }
}

/// An input that links can carry both ways.
public typealias RouteParametersCodable = RouteParametersDecodable & RouteParametersEncodable

/// The values an input puts into a link.
public enum RouteParameterValues: Sendable, Hashable {
    /// No values, for routes without parameters.
    case none
    /// One value, for the route's only path parameter.
    case single(String)
    /// Values by name: path parameters take theirs, and the rest become query items, sorted by name.
    case named([String: String])
}

extension String: RouteParametersDecodable, RouteParametersEncodable {
    /// Reads the route's only path parameter.
    ///
    /// - Throws: ``RouteParameterError/notSingle(names:)`` when the route has no path parameter or several.
    public init(routeParameters: RouteParameters) throws {
        self = try routeParameters.singleValue().value
    }

    /// The string, as the route's only path parameter.
    public var routeParameterValues: RouteParameterValues { .single(self) }
}

extension Int: RouteParametersDecodable, RouteParametersEncodable {
    /// Reads the route's only path parameter as a decimal integer.
    ///
    /// - Throws: ``RouteParameterError`` when the route has no single path parameter or it is not an integer.
    public init(routeParameters: RouteParameters) throws {
        let (name, value) = try routeParameters.singleValue()
        guard let number = Int(value) else {
            throw RouteParameterError.invalid(name: name, value: value, reason: "not a valid Int")
        }
        self = number
    }

    /// The number in decimal, as the route's only path parameter.
    public var routeParameterValues: RouteParameterValues { .single(String(self)) }
}

extension UUID: RouteParametersDecodable, RouteParametersEncodable {
    /// Reads the route's only path parameter as a UUID string.
    ///
    /// - Throws: ``RouteParameterError`` when the route has no single path parameter or it is not a UUID.
    public init(routeParameters: RouteParameters) throws {
        let (name, value) = try routeParameters.singleValue()
        guard let uuid = UUID(uuidString: value) else {
            throw RouteParameterError.invalid(name: name, value: value, reason: "not a valid UUID")
        }
        self = uuid
    }

    /// The UUID string, as the route's only path parameter.
    public var routeParameterValues: RouteParameterValues { .single(uuidString) }
}

extension NoInput: RouteParametersDecodable, RouteParametersEncodable {
    /// Ignores the parameters.
    public init(routeParameters: RouteParameters) {
        self = .noInput
    }

    /// No values.
    public var routeParameterValues: RouteParameterValues { .none }
}
