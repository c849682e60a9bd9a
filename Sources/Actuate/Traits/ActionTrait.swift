import Synchronization

/// One kind of per-action data that a plugin declares, read from a request in O(1).
///
/// A plugin that needs data from the actions it handles declares a protocol for actions to adopt, and one
/// trait that reads the protocol's members from an action type:
///
/// <!-- readme: repeats Sources/ActuatePlugins/ActuatePlugins.docc/Plugins.md -->
/// ```swift
/// protocol AuditedAction: Action {
///     static var auditCategory: String { get }
/// }
///
/// struct AuditPlugin: ActionDispatchPlugin {
///     static let audited = ActionTrait<String>("audited") { action in
///         (action as? any AuditedAction.Type)?.auditCategory
///     }
///
///     func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}
///
///     func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
///         guard let category = request.trait(Self.audited) else { return }
///         print("audit \(category): \(request.action.name), \(outcome)")
///     }
/// }
/// ```
///
/// Actuate resolves a trait once per action type, with the closure given here: when the action's feature is
/// prepared, for every trait that exists by then, and on the first read, for a trait made later. It keeps the
/// value with the action's ``ActionMetadata``, so that ``ActionRequest/trait(_:)`` and
/// ``RequestHeader/hasTrait(_:)`` are one array read: no lock, no cast, no reference count. Make each trait
/// once, as a `static let`: every trait takes one slot in every action's table for the life of the process.
public final class ActionTrait<Value: Sendable>: Sendable {
    /// The name, for diagnostics.
    package let name: String
    /// The slot of this trait in every action's table.
    @usableFromInline let index: Int

    /// Creates a trait.
    ///
    /// - Parameters:
    ///   - name: The name, for diagnostics.
    ///   - resolve: Reads the value from an action type, or returns nil when the action does not have the
    ///     trait. Called at most once per action type and trait (twice under a race, keeping one answer).
    public init(_ name: String, resolve: @escaping @Sendable (any Action.Type) -> Value?) {
        self.name = name
        self.index = ActionTraitRegistry.register { action in
            resolve(action).map { ActionTraitValue<Value>($0) }
        }
    }
}

/// A resolved trait value, as an action's trait table holds it.
@usableFromInline
class ActionTraitValueBox: @unchecked Sendable {
    // Safe: has no stored property; the subclass holds an immutable `Sendable` value.
    @usableFromInline init() {}
}

/// A resolved value of an ``ActionTrait`` of `Value`.
@usableFromInline
final class ActionTraitValue<Value: Sendable>: ActionTraitValueBox, @unchecked Sendable {
    // Safe: the one stored property is immutable and `Sendable`.
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
        super.init()
    }
}

/// Every trait made in this process, by slot.
enum ActionTraitRegistry {
    typealias Resolver = @Sendable (any Action.Type) -> ActionTraitValueBox?

    private static let resolvers = Mutex<[Resolver]>([])

    /// Adds a trait and returns its slot.
    static func register(_ resolver: @escaping Resolver) -> Int {
        resolvers.withLock { resolvers in
            resolvers.append(resolver)
            return resolvers.count - 1
        }
    }

    /// The resolvers of every trait made so far, by slot.
    static var all: [Resolver] { resolvers.withLock { $0 } }
}
