import ActuateCore
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
    enum Status: Sendable, Hashable {
        /// Nothing is selected, so defaults apply.
        case noSelection
        /// The feature is selected, or lies inside a selected path.
        case focused
        /// Other features are selected, not this one.
        case notFocused
    }

    private let paths: Mutex<Set<FeaturePath>>
    /// The number of selected paths, written under the lock after each change, so that a request reads an
    /// empty selection, the common case, without taking the lock.
    private let count: Atomic<Int>

    /// Creates a selection.
    ///
    /// - Parameter paths: The paths selected at first; none by default.
    public init(_ paths: Set<FeaturePath> = []) {
        self.paths = Mutex(paths)
        self.count = Atomic(paths.count)
    }

    /// The selected paths.
    var focusedPaths: Set<FeaturePath> { paths.withLock { $0 } }

    /// Whether nothing is selected.
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Selects a path, and so every feature inside it.
    ///
    /// - Parameter path: A feature's identifier, such as `CheckoutFeature.identifier`.
    public func focus(_ path: FeaturePath) {
        change { _ = $0.insert(path) }
    }

    /// Deselects a path. Features inside it stay focused if another selected path contains them.
    ///
    /// - Parameter path: A selected path.
    public func unfocus(_ path: FeaturePath) {
        change { _ = $0.remove(path) }
    }

    /// Replaces the selection.
    ///
    /// - Parameter newPaths: The paths to select.
    public func replace(with newPaths: Set<FeaturePath>) {
        change { $0 = newPaths }
    }

    /// Deselects everything, so that defaults apply again.
    func removeAll() {
        change { $0.removeAll() }
    }

    /// Whether a feature is focused.
    ///
    /// - Parameter path: The feature's identifier.
    /// - Returns: `true` when the path equals or lies inside a selected path.
    func isFocused(_ path: FeaturePath) -> Bool {
        status(of: path) == .focused
    }

    /// How a feature stands in the selection, read under one lock, or with no lock while nothing is selected.
    ///
    /// - Parameter path: The feature's identifier.
    /// - Returns: The feature's status.
    func status(of path: FeaturePath) -> Status {
        if count.load(ordering: .acquiring) == 0 { return .noSelection }
        return paths.withLock { paths in
            if paths.isEmpty { return .noSelection }
            return paths.contains { path.isWithin($0) } ? .focused : .notFocused
        }
    }

    private func change(_ body: (inout Set<FeaturePath>) -> Void) {
        paths.withLock { paths in
            body(&paths)
            count.store(paths.count, ordering: .releasing)
        }
    }
}
