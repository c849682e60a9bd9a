import Actuate
import ActuateReporting
import Dispatch
import Foundation

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

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binary-size-\(UUID().uuidString)")
let store = try FileEventStore(directory: directory.appendingPathComponent("events"))
let reporter = Reporter(
    store: store,
    delivery: nil,
    scheduler: SystemScheduler.shared,
    identity: Identity(storage: FileIdentityStorage(directory: directory))
)
let system = try ActuateSystem.quickSetup(
    group: AppFeature.self,
    configuration: ActuateConfiguration(plugins: [ReportingPlugin(reporter: reporter)])
)
appQueue.sync { ActionSession.main.perform(AppFeature.greet) { print($0.isSuccess) } }
reporter.record(type: "screen_view", properties: ["screen": "home"])
print(try ReportingStatistics(store: store))
