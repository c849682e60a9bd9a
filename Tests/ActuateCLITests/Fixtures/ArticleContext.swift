// The app around the DocC articles' Swift snippets, beyond ReadmeContext.swift: what only the articles use
// without declaring it. DocCArticleCompileTests type-checks it with the README's and the articles' snippets, as
// one module; it is never run.
import Actuate
import ActuateTesting
import Foundation

/// The action whose body the deferred-completion snippet of "Defining and performing actions" shows.
final class SaveItemAction: Action {
    typealias InputType = String
    typealias PresenterType = any CartPresenter
}

/// The feature of the analytics snippet's `CheckoutAction` ("Plugins").
final class CheckoutFeature: Feature {
    static let checkout = action(CheckoutAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.publish(checkout) }
}

/// Where "Getting started" writes its debug report.
let dumpDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("shop-dump")

/// What the upload of "Testing your actions" sends.
let batch = "events 1 to 20"

/// An upload that waits for the server and, in the virtual-time snippet, never hears back.
final class UploadAction: Action {
    typealias InputType = String
    static func perform(
        context: ActionContext<String>,
        presenter: NoPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.willCompleteAsync()
    }
}

/// The feature of ``UploadAction``.
final class SyncFeature: Feature {
    static let upload = action(UploadAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(upload) }
}

/// The notes screen of the dependencies article.
struct NotesView: NotesPresenter {
    func showSynced(_ count: Int) {}
}

let notesView = NotesView()

/// The rules file's JSON a test hands the personalization test harness.
let rules = #"{"campaigns": [], "contentBlocks": []}"#
