import ActuateTesting
import Dispatch
import Synchronization
import Testing

@testable import ActuateCore

private protocol AuditedAction: Action {
    static var auditCategory: String { get }
}

private enum TraitsQueue {
    static let queue = DispatchQueue(label: "actuate.tests.action-traits")
}

private final class TransferAction: AuditedAction {
    static var auditCategory: String { "money" }
    static var queue: DispatchQueue { TraitsQueue.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class BrowseAction: Action {
    static var queue: DispatchQueue { TraitsQueue.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class BankFeature: Feature {
    static let transfer = action(TransferAction.self)
    static let browse = action(BrowseAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(transfer)
        actions.declare(browse)
    }
}

/// Counts how often the audit trait was resolved per action type.
private let auditResolutions = Mutex<[ObjectIdentifier: Int]>([:])

private let audited = ActionTrait<String>("audited") { action in
    auditResolutions.withLock { $0[ObjectIdentifier(action), default: 0] += 1 }
    return (action as? any AuditedAction.Type)?.auditCategory
}

/// Records, for each completed request, the audit category its action declares, if any.
private final class AuditPlugin: ActionDispatchPlugin {
    let seen = Mutex<[String]>([])

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let entry = "\(request.action.name): \(request.hasTrait(audited)) \(request.trait(audited) ?? "-")"
        seen.withLock { $0.append(entry) }
    }
}

// Serialized: the tests share the process-wide resolution count and the registry's BankFeature metadata.
@Suite("Action traits", .serialized)
struct ActionTraitTests {
    @Test("a plugin reads the trait an action declares, and nil for an action without it, resolved once per type")
    func pluginReadsTrait() async {
        let plugin = AuditPlugin()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: plugin)
        let session = ActionSession(named: "traits", dispatcher: dispatcher)

        for _ in 0..<3 {
            _ = await session.perform(BankFeature.transfer)
            _ = await session.perform(BankFeature.browse)
        }

        let expected = Array(repeating: ["Transfer: true money", "Browse: false -"], count: 3).flatMap { $0 }
        #expect(plugin.seen.withLock { $0 } == expected)
        let counts = auditResolutions.withLock { $0 }
        #expect(counts[ObjectIdentifier(TransferAction.self)] == 1)
        #expect(counts[ObjectIdentifier(BrowseAction.self)] == 1)
    }

    @Test("a trait made after the action's feature was prepared is resolved on its first read")
    func lateTrait() async {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "late traits", dispatcher: dispatcher)
        _ = await session.perform(BankFeature.transfer)
        let metadata = FeatureRegistry.shared.metadata(for: BankFeature.self)
        let late = ActionTrait<Int>("late") { action in action is TransferAction.Type ? 7 : nil }

        #expect(metadata.actions.map { $0.trait(late) } == [7, nil])
        #expect(metadata.actions.map { $0.trait(late) } == [7, nil])
    }

    @Test("whether an action has a trait agrees with its value for traits inside and beyond the one-word presence")
    func presenceOfManyTraits() {
        let metadata = FeatureRegistry.shared.metadata(for: BankFeature.self)
        let count = ActionTraitStore.presenceSlots + 12
        let traits = (0..<count).map { number in
            ActionTrait<Int>("numbered \(number)") { action in
                action is TransferAction.Type && number % 3 != 0 ? number : nil
            }
        }
        #expect(traits.last.map { $0.index >= ActionTraitStore.presenceSlots } == true)
        for _ in 0..<2 {  // the first read resolves the new traits; the second reads what was published
            for (number, trait) in traits.enumerated() {
                let has = metadata.actions.map { $0.traits.has(slot: trait.index) }
                #expect(has == [number % 3 != 0, false], "trait \(number)")
                #expect(metadata.actions.map { $0.trait(trait) } == [number % 3 != 0 ? number : nil, nil])
            }
        }
    }
}
