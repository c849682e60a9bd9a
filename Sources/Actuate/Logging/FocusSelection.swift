import Synchronization

/// The features to focus logging on: a thread-safe set of feature paths that can change at runtime.
///
/// A feature is focused when its path equals a selected path or lies inside one, so selecting a group
/// focuses all its subfeatures. Changes apply to requests made afterwards.
///
/// ```swift
/// let selection = FocusSelection()
/// selection.focus(CheckoutFeature.identifier)
/// ```
public final class FocusSelection: Sendable {
    /// How a feature stands in a selection.
    public enum Status: Sendable, Hashable {
        /// Nothing is selected, so defaults apply.
        case noSelection
        /// The feature is selected, or lies inside a selected path.
        case focused
        /// Other features are selected, not this one.
        case notFocused
    }

    private let paths: Mutex<Set<FeaturePath>>

    /// Creates a selection.
    ///
    /// - Parameter paths: The paths selected at first; none by default.
    public init(_ paths: Set<FeaturePath> = []) {
        self.paths = Mutex(paths)
    }

    /// The selected paths.
    public var focusedPaths: Set<FeaturePath> { paths.withLock { $0 } }

    /// Whether nothing is selected.
    public var isEmpty: Bool { paths.withLock { $0.isEmpty } }

    /// Selects a path, and so every feature inside it.
    ///
    /// - Parameter path: A feature's identifier, such as `CheckoutFeature.identifier`.
    public func focus(_ path: FeaturePath) {
        _ = paths.withLock { $0.insert(path) }
    }

    /// Deselects a path. Features inside it stay focused if another selected path contains them.
    ///
    /// - Parameter path: A selected path.
    public func unfocus(_ path: FeaturePath) {
        _ = paths.withLock { $0.remove(path) }
    }

    /// Replaces the selection.
    ///
    /// - Parameter newPaths: The paths to select.
    public func replace(with newPaths: Set<FeaturePath>) {
        paths.withLock { $0 = newPaths }
    }

    /// Deselects everything, so that defaults apply again.
    public func removeAll() {
        paths.withLock { $0.removeAll() }
    }

    /// Whether a feature is focused.
    ///
    /// - Parameter path: The feature's identifier.
    /// - Returns: `true` when the path equals or lies inside a selected path.
    public func isFocused(_ path: FeaturePath) -> Bool {
        status(of: path) == .focused
    }

    /// How a feature stands in the selection, read under one lock.
    ///
    /// - Parameter path: The feature's identifier.
    /// - Returns: The feature's status.
    public func status(of path: FeaturePath) -> Status {
        paths.withLock { paths in
            if paths.isEmpty { return .noSelection }
            return paths.contains { path.isWithin($0) } ? .focused : .notFocused
        }
    }
}
