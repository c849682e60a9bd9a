import Actuate
import ActuateTesting
import Dispatch
import Synchronization

/// Queues shared by the fixtures. Each test builds its own dispatcher; the queues are stateless.
enum TestQueues {
    static let background = DispatchQueue(label: "actuate.tests.background")
    static let other = DispatchQueue(label: "actuate.tests.other")
}

final class SayHelloAction: Action {
    typealias InputType = String
    typealias PresenterType = RecordingPresenter
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<String>, presenter: RecordingPresenter, completion: Completion)
        -> Completion.Status {
        presenter.record("hello", context.input)
        return completion.completedSync(.success)
    }
}

final class NoOpAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class NeverDeclaredAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class GreetingFeature: Feature {
    static let sayHello = action(SayHelloAction.self)
    static let noOp = action(NoOpAction.self)
    static let undeclared = action(NeverDeclaredAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(sayHello)
        actions.declare(noOp)
    }
}
