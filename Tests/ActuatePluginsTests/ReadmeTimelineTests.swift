import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// The "Reading the timeline" snippet of the DocC article "Debugging with the timeline" (its first lines are
// the README's), verbatim between the marked lines, run against a dispatcher of
// the test's own.

private enum ReadmeTimelineQueue {
    static let queue = DispatchQueue(label: "actuate.tests.readme-timeline")
}

private struct NoSuchProduct: Error, Loggable {
    var sku: String
    var loggingDescription: String { "There is no product \(sku)." }
}

private final class ShowProductAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { ReadmeTimelineQueue.queue }

    static func perform(
        context: ActionContext<String>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.failure(error: NoSuchProduct(sku: context.input)))
    }
}

private final class ReadmeCatalogFeature: Feature {
    static let showProduct = action(ShowProductAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(showProduct)
    }
}

@Suite("README: reading the timeline")
struct ReadmeTimelineTests {
    @Test("the snippet compiles, and reads back the failure it recorded")
    func snippet() async throws {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("actuate-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let performActions = {
            await ActionSession(named: "main", dispatcher: dispatcher)
                .perform(ReadmeCatalogFeature.showProduct, input: "p404")
        }

        // README begins
        let timeline = Timeline(maxEntries: 500)  // a ring buffer: O(1) append and eviction
        dispatcher.add(plugin: timeline)  // ActionDispatcher.shared is the one behind ActionSession.main
        // ... perform actions ...
        _ = await performActions()
        print(timeline.textDump())
        // ✓ #1 2026-11-21T10:00:00.000Z [main] Cart › Add Item (sku-1) → success in 38 µs
        // ✗ #2 2026-11-21T10:00:01.000Z [main] Catalog › Show Product (p404) → FAILED: There is no product p404. in 9 µs

        let files = try DebugReport(reportables: [timeline], dispatcher: dispatcher).write(to: directory)
        let report = try DebugReportDecoder().decodeReport(from: Data(contentsOf: files.json))
        for entry in report.timeline?.entries ?? [] where entry.outcome?.isFailure == true {
            print(entry.actionName, entry.outcome?.message ?? "", entry.durationNanoseconds ?? 0)
        }
        // README ends

        #expect(report.timeline?.entries.map(\.outcome) == [.failure(message: "There is no product p404.")])
        #expect(
            timeline.textDump().contains("Readme Catalog › Show Product (p404) → FAILED: There is no product p404.")
        )
    }
}
