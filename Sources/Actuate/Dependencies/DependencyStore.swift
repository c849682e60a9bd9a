import Synchronization

/// The dependency values one dispatch carries: held by its dispatcher, or made by a test kit for one request, and
/// shared (never copied) by every request that uses them.
///
/// A request holds one counted reference to its store, or nil when its dispatcher has no values set: a dispatch
/// without dependencies then carries nothing. A store is immutable; setting values publishes a new one.
///
/// While a body runs, ``current`` holds its store, so that the actions it performs, through any session, inherit
/// the values (see ``ActionDispatcher/dependencies``).
@usableFromInline
package final class DependencyStore: Sendable {
    /// The values.
    let values: DependencyValues
    /// An object of the test kit's, for the request this store was made for; nil for a dispatcher's store.
    package let scope: (any Sendable & AnyObject)?

    /// The store of the body running in the current task, or of the callback body running on this thread.
    @TaskLocal package static var current: DependencyStore?

    /// How many bodies run with a store bound to ``current`` at this moment, anywhere in the process: a dispatch
    /// reads the task-local only when there can be something to find.
    @usableFromInline static let activeScopes = Atomic<Int>(0)

    /// Creates a store of `values`, with the test kit's `scope` for one request.
    package init(_ values: DependencyValues, scope: (any Sendable & AnyObject)? = nil) {
        self.values = values
        self.scope = scope
    }

    /// A store of the same values, for one request, with the test kit's `scope`.
    package func scoped(_ scope: any Sendable & AnyObject) -> DependencyStore {
        DependencyStore(values, scope: scope)
    }

    /// The store of the body that is performing an action now, or nil when no body with a store is running.
    @inlinable
    static func ofCaller() -> DependencyStore? {
        activeScopes.load(ordering: .relaxed) == 0 ? nil : currentForDispatch()
    }

    /// Reads ``current``; kept out of line, off the common dispatch path.
    @usableFromInline
    static func currentForDispatch() -> DependencyStore? {
        current
    }

    /// Runs a synchronous body with `store` as the current store.
    @usableFromInline
    static func run<Result>(with store: DependencyStore, _ body: () -> Result) -> Result {
        activeScopes.wrappingAdd(1, ordering: .relaxed)
        defer { activeScopes.wrappingSubtract(1, ordering: .relaxed) }
        return $current.withValue(store, operation: body)
    }

    /// Runs an async body with `store`, if any, as the current store.
    @usableFromInline
    nonisolated(nonsending) static func run<Result>(
        with store: DependencyStore?,
        _ body: nonisolated(nonsending) () async -> Result
    ) async -> Result {
        guard let store else { return await body() }
        activeScopes.wrappingAdd(1, ordering: .relaxed)
        defer { activeScopes.wrappingSubtract(1, ordering: .relaxed) }
        return await $current.withValue(store, operation: body)
    }
}
