/// An immutable list of a dispatcher's plugins in the order they run, as one dispatch sees it.
///
/// The dispatcher publishes a new list with one atomic store whenever a plugin is added or removed, and
/// keeps every list it published until it is itself deinitialized, so a dispatch reads the current list
/// with one atomic load and holds it without a reference count (see `ActionDispatcher`).
@usableFromInline
final class ObserverList: Sendable {
    /// The plugins, by stage and then in the order they were added.
    @usableFromInline let observers: ContiguousArray<any ActionDispatchObserver>
    /// Whether the list is empty: a dispatch with no plugins skips every plugin step.
    @usableFromInline let isEmpty: Bool

    init(_ observers: [any ActionDispatchObserver]) {
        self.observers = ContiguousArray(observers)
        self.isEmpty = observers.isEmpty
    }

    /// Tells every plugin, in order, that `request` begins.
    @inlinable
    func notifyWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        // Called in place through the element's address: no copy of the existential, so no reference count.
        observers.withUnsafeBufferPointer { plugins in
            guard let first = plugins.baseAddress else { return }
            for index in 0..<plugins.count { Self.tellWillBegin((first + index).pointee, request) }
        }
    }

    /// Tells every plugin, in order, that `request` completed with `outcome`.
    @inlinable
    func notifyDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        observers.withUnsafeBufferPointer { plugins in
            guard let first = plugins.baseAddress else { return }
            for index in 0..<plugins.count { Self.tellDidComplete((first + index).pointee, request, outcome) }
        }
    }

    /// Calls one plugin on a borrowed existential, which is opened in place rather than copied.
    @inlinable
    static func tellWillBegin<F, A>(_ observer: borrowing any ActionDispatchObserver, _ request: ActionRequest<F, A>) {
        observer.actionWillBegin(request)
    }

    /// Calls one plugin on a borrowed existential, which is opened in place rather than copied.
    @inlinable
    static func tellDidComplete<F, A>(
        _ observer: borrowing any ActionDispatchObserver,
        _ request: ActionRequest<F, A>,
        _ outcome: ActionPerformOutcome
    ) {
        observer.actionDidComplete(request, outcome: outcome)
    }
}
