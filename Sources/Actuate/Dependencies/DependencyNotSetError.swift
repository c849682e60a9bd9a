/// The error ``ActionContext/dependency(_:)`` throws in a test harness for a key the test did not set and that
/// offers no ``DependencyKey/testValue``: the body stops there instead of reaching the live value.
public struct DependencyNotSetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key's type name.
    public let keyName: String

    /// Creates the error for the key named `keyName`.
    ///
    /// - Parameter keyName: The key's type name.
    public init(keyName: String) {
        self.keyName = keyName
    }

    public var description: String {
        "The dependency '\(keyName)' was not set for this test. Set it on the harness, for example "
            + "`harness.dependencies[\(keyName).self] = ...`, or give the key a `testValue`."
    }
}
