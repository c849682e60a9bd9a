/// Outcomes compare equal when they are the same case and their errors are equal: by `==` when the error
/// type is `Equatable`, otherwise when the errors have the same type and the same reflected description.
extension ActionPerformOutcome: Equatable {
    public static func == (lhs: ActionPerformOutcome, rhs: ActionPerformOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.success, .success), (.successWithFeatureTermination, .successWithFeatureTermination): true
        case (.failure(let left), .failure(let right)),
            (.failureWithFeatureTermination(let left), .failureWithFeatureTermination(let right)):
            ErrorEquality.areEqual(left, right)
        default: false
        }
    }
}

/// Outcomes compare equal when both succeeded, or both failed with equal errors (see
/// ``ActionPerformOutcome``'s `==`).
extension ActionOutcome: Equatable {
    public static func == (lhs: ActionOutcome, rhs: ActionOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.success, .success): true
        case (.failure(let left), .failure(let right)): ErrorEquality.areEqual(left, right)
        default: false
        }
    }
}

/// Compares two type-erased errors, as outcomes and plugins' result types do.
public enum ErrorEquality {
    /// Whether two errors are equal: by `==` when `left`'s type is `Equatable`, otherwise when both have the
    /// same type and the same `String(reflecting:)`, which is compared and never printed.
    ///
    /// - Parameters:
    ///   - left: One error.
    ///   - right: The other error.
    /// - Returns: Whether they are equal.
    public static func areEqual(_ left: any Error, _ right: any Error) -> Bool {
        // Cast through `Any`: a direct cast from `any Error` is wrongly diagnosed as always succeeding.
        let erased: Any = left
        if let equatable = erased as? any Equatable {
            return equatable.isEqual(toErased: right)
        }
        return ObjectIdentifier(type(of: left)) == ObjectIdentifier(type(of: right))
            && String(reflecting: left) == String(reflecting: right)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(toErased other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
