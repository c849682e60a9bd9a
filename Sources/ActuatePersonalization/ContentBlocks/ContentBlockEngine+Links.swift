import Actuate
import Foundation

extension ContentBlockEngine {
    /// Opens a link the user clicked, after its click was tracked: through the configuration's router when it
    /// answers the link's scheme or host, otherwise with the configuration's opener on the callback queue. A link
    /// that nothing opens is reported as ``ContentBlockError/linkNotOpened(url:reason:)``, never dropped in
    /// silence. The routing counts as work in flight, so ``ContentBlockManager/waitUntilIdle()`` waits for it.
    /// - Parameter link: The clicked link, already checked against the allowed schemes.
    func open(_ link: String) {
        guard let url = URL(string: link) else {
            report(.linkNotOpened(url: link, reason: "it is not a URL"))
            return
        }
        guard let router = configuration.router else {
            openWithOpener(url, notRoutedBecause: "no router is wired")
            return
        }
        work.begin()
        Task {
            defer { self.work.end() }
            let result = await router.open(url: url)
            switch result {
            case .performed:
                break
            case .unsupportedScope:
                self.onCallbackQueue {
                    self.openWithOpener(url, notRoutedBecause: "the router does not answer its scheme or host")
                }
            default:
                self.report(.linkNotOpened(url: link, reason: "the router could not open it (\(result))"))
            }
        }
    }

    /// Hands `url` to the configuration's opener, or reports that nothing opens it. Callback queue.
    private func openWithOpener(_ url: URL, notRoutedBecause reason: String) {
        guard let opener = configuration.urlOpener else {
            report(
                .linkNotOpened(url: url.absoluteString, reason: "\(reason) and the configuration has no urlOpener")
            )
            return
        }
        opener.open(url)
    }
}
