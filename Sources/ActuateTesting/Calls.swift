import Synchronization

/// A thread-safe record of typed calls, for mock presenters and other test doubles.
///
/// A mock holds one and records a value per call, so that it stays an honest `Sendable` type (no
/// `@unchecked Sendable`) and the test compares values, not strings:
///
/// <!-- readme: repeats README.md -->
/// ```swift
/// final class MockCart: CartPresenter {
///     enum Call: Equatable, Sendable { case showCart([String]) }
///     let calls = Calls<Call>()
///     func showCart(_ items: [String]) { calls.record(.showCart(items)) }
/// }
/// ```
public final class Calls<Call: Sendable & Equatable>: Sendable, CustomStringConvertible {
    private let calls = Mutex<[Call]>([])

    /// Creates an empty record.
    public init() {}

    /// Records one call.
    ///
    /// - Parameter call: The call, as a value of the mock's own `Call` type.
    public func record(_ call: Call) {
        calls.withLock { $0.append(call) }
    }

    /// Every call recorded so far, in order.
    public var recorded: [Call] { calls.withLock { $0 } }

    /// The most recent call, if any.
    package var last: Call? { calls.withLock { $0.last } }

    /// The number of calls recorded so far.
    package var count: Int { calls.withLock { $0.count } }

    /// Forgets every recorded call.
    public func removeAll() {
        calls.withLock { $0.removeAll() }
    }

    public var description: String { String(describing: recorded) }
}
