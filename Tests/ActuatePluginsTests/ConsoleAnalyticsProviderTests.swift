import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Console analytics provider")
struct ConsoleAnalyticsProviderTests {
    @Test("each event is one line: phase, analytics ID, name, then outcome and duration on end, attributes by key")
    func lines() async throws {
        let lines = Mutex<[String]>([])
        let console = ConsoleAnalyticsProvider { line in lines.withLock { $0.append(line) } }
        let harness = ActionTestHarness(plugins: [AnalyticsPlugin(provider: console)])
        let input = TrackedSignInInput(email: "ada@example.com", password: Redacted("hunter2"))
        #expect(await harness.perform(AccountsFeature.signIn, input: input, presenter: ()).isSuccess)

        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(
            written.first
                == #"analytics: began sign-in "Tracked Sign In" attempt=1 emailDomain=example.com method=password"#
        )
        let ended = try #require(written.last)
        #expect(ended.hasPrefix(#"analytics: ended sign-in "Tracked Sign In" success "#), "\(ended)")
        #expect(ended.hasSuffix(" s attempt=1 emailDomain=example.com method=password"), "\(ended)")
        #expect(!written.joined().contains("hunter2"))
    }
}
