import Foundation

/// The values a URL route captured: its path parameters, percent-decoded, and the URL's query items.
///
/// ```swift
/// struct ProductLink: RouteParametersDecodable {
///     var id: Int
///     var referrer: String?
///     init(routeParameters: RouteParameters) throws {
///         id = try routeParameters.value("id", as: Int.self)
///         referrer = routeParameters["ref"]
///     }
/// }
/// ```
public struct RouteParameters: Sendable, Hashable {
    /// The path parameters by name, percent-decoded.
    public let path: [String: String]
    /// The path parameter names in the order the pattern declares them.
    let pathParameterNames: [String]
    /// The URL's query items, in order, percent-decoded.
    public let query: [URLQueryItem]

    /// Creates parameters, for example to test a decoder.
    ///
    /// - Parameters:
    ///   - path: The path parameters by name.
    ///   - query: The query items.
    public init(path: [String: String] = [:], query: [URLQueryItem] = []) {
        self.init(path: path, names: path.keys.sorted(), query: query)
    }

    init(path: [String: String], names: [String], query: [URLQueryItem]) {
        self.path = path
        self.pathParameterNames = names
        self.query = query
    }

    /// The path parameter called `name`, or else the first query item called `name` that has a value.
    public subscript(_ name: String) -> String? {
        path[name] ?? query.first { $0.name == name && $0.value != nil }?.value
    }

    /// The value of a path parameter or query item.
    ///
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteParameterError/missing(name:)`` when there is no such parameter.
    public func value(_ name: String) throws(RouteParameterError) -> String {
        guard let value = self[name] else { throw .missing(name: name) }
        return value
    }

    /// The value of a path parameter or query item, converted to `type`.
    ///
    /// - Parameters:
    ///   - name: The parameter's name.
    ///   - type: The type to convert to, such as `Int.self`.
    /// - Returns: The converted value.
    /// - Throws: ``RouteParameterError`` when the parameter is missing or does not convert.
    public func value<T: LosslessStringConvertible>(
        _ name: String,
        as type: T.Type
    ) throws(RouteParameterError)
        -> T
    {
        let text = try value(name)
        guard let converted = T(text) else {
            throw .invalid(name: name, value: text, reason: "not a valid \(String(describing: type))")
        }
        return converted
    }

    /// The route's only path parameter, which single-value inputs such as `String`, `Int` and `UUID` use.
    ///
    /// - Returns: The parameter's name and value.
    /// - Throws: ``RouteParameterError/notSingle(names:)`` when the route has no path parameter or several.
    func singleValue() throws(RouteParameterError) -> (name: String, value: String) {
        guard pathParameterNames.count == 1, let name = pathParameterNames.first, let value = path[name] else {
            throw .notSingle(names: pathParameterNames)
        }
        return (name, value)
    }
}

/// Why route parameters could not be turned into an action's input.
public enum RouteParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No path parameter or query item has this name.
    case missing(name: String)
    /// The parameter's value is not acceptable.
    case invalid(name: String, value: String, reason: String)
    /// A single-value input needs exactly one path parameter; the route has these.
    case notSingle(names: [String])

    /// The name of the parameter at fault, or an empty string when no single parameter is.
    package var parameterName: String {
        switch self {
        case .missing(let name), .invalid(let name, _, _): name
        case .notSingle(let names): names.joined(separator: ",")
        }
    }

    /// The reason, without the parameter's name.
    package var reason: String {
        switch self {
        case .missing: "missing"
        case .invalid(_, let value, let reason): "'\(value)' is \(reason)"
        case .notSingle(let names):
            "a single-value input needs exactly one path parameter, the route has \(names.count)"
        }
    }

    public var description: String { "Route parameter '\(parameterName)': \(reason)." }
}
