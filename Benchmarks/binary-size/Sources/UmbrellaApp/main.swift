import Actuate
import Dispatch

let appQueue = DispatchQueue(label: "app")

final class GreetAction: Action {
    static var queue: DispatchQueue { appQueue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        print("hello")
        return completion.completedSync(.success)
    }
}

final class AppFeature: Feature {
    static let greet = action(GreetAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(greet)
    }
}

let system = try ActuateSystem.quickSetup(group: AppFeature.self)
appQueue.sync { ActionSession.main.perform(AppFeature.greet) { print($0.isSuccess) } }
print(system.timeline.textDump())
