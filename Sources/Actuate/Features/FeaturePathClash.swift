/// Two different feature types of one group that would have the same ``FeaturePath``.
///
/// A path is made of unqualified type names, so `Books.SearchFeature` and `Music.SearchFeature` in one group
/// would share availability, action stacks and focus; registering such a group fails with this error instead
/// of merging them.
public struct FeaturePathClash: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path both types would have.
    package let path: FeaturePath
    /// The full name of the type met first, such as `MyApp.Books.SearchFeature`.
    package let firstTypeName: String
    /// The full name of the type met second.
    package let secondTypeName: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - path: The path both types would have.
    ///   - firstTypeName: The full name of the type met first.
    ///   - secondTypeName: The full name of the type met second.
    package init(path: FeaturePath, firstTypeName: String, secondTypeName: String) {
        self.path = path
        self.firstTypeName = firstTypeName
        self.secondTypeName = secondTypeName
    }

    public var description: String {
        "Two features of the group have the path \(path): \(firstTypeName) and \(secondTypeName). Paths are made "
            + "of unqualified type names and must be unique in a group, so rename one of the two types."
    }
}
