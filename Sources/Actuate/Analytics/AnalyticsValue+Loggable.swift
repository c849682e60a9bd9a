extension AnalyticsValue {
    /// An attribute value for a ``Loggable`` value: ``redacted`` when it is a ``Redacted`` value, otherwise its
    /// ``Loggable/loggingDescription`` as a string.
    ///
    /// Use it for attributes built from inputs, so that a private value is marked as withheld rather than
    /// described:
    ///
    /// <!-- readme: in extension BuyAction -->
    /// ```swift
    /// static func analyticsAttributes<F>(forRequest request: ActionRequest<F, BuyAction>) -> [String: AnalyticsValue]? {
    ///     ["card": .loggable(request.context.input.cardNumber), "items": .int(request.context.input.items)]
    /// }
    /// ```
    /// - Parameter value: The value.
    /// - Returns: ``redacted`` or ``string(_:)``.
    public static func loggable(_ value: some Loggable) -> AnalyticsValue {
        value is any RedactedMarker ? .redacted : .string(value.loggingDescription)
    }
}

/// Recognises ``Redacted`` whatever it wraps, so that generic code can tell a withheld value apart.
protocol RedactedMarker {}

extension Redacted: RedactedMarker {}
