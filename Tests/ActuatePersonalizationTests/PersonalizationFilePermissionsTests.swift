import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting

// The tracker's state and cached result and the content-block history describe what a visitor did and saw: like
// the reporting module's files, they must be readable and writable by their owner only (0600), also after they
// are replaced, and a directory created for them must be usable by its owner only (0700). Checked with stat(2)
// on real files in a temporary directory, under the test process's usual umask (022, which gives 0644 to files
// written with `Data.write`).

@Suite("Personalization files are owner-only")
struct PersonalizationFilePermissionsTests {
    /// The permission bits of `url`.
    private static func permissions(_ url: URL) throws -> Int {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return Int(info.st_mode) & 0o777
    }

    /// Widens a file's permissions, as a file left by an older version would have them.
    private static func widen(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try permissions(url) == 0o644)
    }

    @Test("tracker-state.json and tracker-result.json are 0600 when created and when replaced; their directory 0700")
    func trackerFiles() async throws {
        // Two different answers, so the second result replaces the first file.
        let source = ScriptedDecisionSource(answers: [
            .result(TrackerResult(actions: [ContentAction.banner()])),
            .result(TrackerResult(actions: [ContentAction.banner(id: 8, name: "Summer banner")])),
        ])
        let fixture = TrackerFixture(source: source)
        try fixture.tracker.productViewed(productID: "p1")
        _ = try await fixture.tracker.getResult()
        await fixture.tracker.waitForWrites()
        let state = fixture.directory.appending("tracker-state.json")
        let result = fixture.directory.appending("tracker-result.json")
        #expect(try Self.permissions(state) == 0o600)
        #expect(try Self.permissions(result) == 0o600)
        #expect(try Self.permissions(fixture.directory.url) == 0o700)

        // Each save replaces the file with a new one: the new file is owner-only whatever the old one was.
        try Self.widen(state)
        try Self.widen(result)
        try fixture.tracker.productViewed(productID: "p2")
        _ = try await fixture.tracker.getResult()
        await fixture.tracker.waitForWrites()
        #expect(try Self.permissions(state) == 0o600)
        #expect(try Self.permissions(result) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
        #expect(names.sorted() == ["tracker-result.json", "tracker-state.json"], "no temporary file is left behind")
    }

    @Test("content-block-history.json is 0600 when created and when replaced; its directory 0700")
    func contentBlockHistory() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([
            .test("hero", frequency: .onlyOnce), .test("banner", placeholders: ["banner"], frequency: .onlyOnce),
        ])
        let manager = fixture.makeManager(source)
        let file = fixture.directory.appendingPathComponent("content-block-history.json")
        let first = await manager.loadedPlaceholder(surface: InstantHTMLSurface()).placeholder
        #expect(first.contentBlock?.id == "hero")
        #expect(try Self.permissions(file) == 0o600)
        #expect(try Self.permissions(fixture.directory) == 0o700)

        try Self.widen(file)
        let second = await manager.loadedPlaceholder("banner", surface: InstantHTMLSurface()).placeholder
        #expect(second.contentBlock?.id == "banner")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"banner\""), "the history was rewritten")
        #expect(try Self.permissions(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) == [file.lastPathComponent])
    }
}
