import Synchronization

/// A base for mock presenters: subclass it, conform to your presenter protocol, and record each call.
///
/// ```swift
/// final class MockCartPresenter: RecordingPresenter, CartPresenter, @unchecked Sendable {
///     func show(itemCount: Int) { record("show", itemCount) }
/// }
///
/// #expect(presenter.calls == ["show(2)"])
/// ```
open class RecordingPresenter: @unchecked Sendable {
    // Safe: the only state is a Mutex-protected array.
    private let recorded = Mutex<[String]>([])

    /// Creates a presenter with no calls recorded.
    public init() {}

    /// Records a call by name, with its arguments' descriptions.
    public func record(_ name: String, _ arguments: Any...) {
        let call = arguments.isEmpty
            ? name : "\(name)(\(arguments.map { String(describing: $0) }.joined(separator: ", ")))"
        recorded.withLock { $0.append(call) }
    }

    /// Every call recorded so far, in order, as `name(arguments)`.
    public var calls: [String] { recorded.withLock { $0 } }

    /// Forgets the recorded calls.
    public func removeAllCalls() {
        recorded.withLock { $0.removeAll() }
    }
}
