import Actuate
import Foundation
import Testing

/// Runs the built `actuate` binary as a child process: real exit statuses, real standard streams.
@Suite("actuate as a process")
struct ActuateProcessTests {
    private func run(_ arguments: [String], input: Data = Data()) async throws -> ChildProcess.Result {
        try await ChildProcess.run(ChildProcess.actuateExecutable(), arguments, input: input)
    }

    @Test("--help goes to standard output with status 0")
    func help() async throws {
        let result = try await run(["--help"])
        #expect(result.status == 0)
        #expect(result.outputText.hasPrefix("actuate: look at what an Actuate app did and what it can do."))
        #expect(result.error == "")
    }

    @Test("a report in a newer format exits with 1, the message on standard error, nothing on standard output")
    func newerFormat() async throws {
        let result = try await run(["dump", Fixtures.path("report-v2.json")])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("is in format 2, but this actuate reads format 1"))
    }

    @Test("a report written before format 1 exits with 1 and says so")
    func beforeFormatOne() async throws {
        let result = try await run(["dump", Fixtures.path("report-before-format-1.json")])
        #expect(result.status == 1)
        #expect(result.error.contains("was written before format 1"))
    }

    @Test("a wrong command line exits with 2")
    func usage() async throws {
        let result = try await run(["dump", "--trace"])
        #expect(result.status == 2)
        #expect(result.error.contains("--trace needs a value"))
    }

    @Test("a missing store exits with 1")
    func missingStore() async throws {
        let result = try await run(["stats", "/no/such/store"])
        #expect(result.status == 1)
        #expect(result.error.contains("/no/such/store"))
        #expect(result.error.contains("there is no such directory"))
    }

    @Test("a catalog piped to standard input comes out as Markdown")
    func pipedCatalog() async throws {
        let catalog = ActionCatalog(
            groupName: "Tiny",
            features: [
                ActionCatalog.FeatureEntry(
                    name: "Tiny",
                    path: "Tiny",
                    actions: [ActionCatalog.ActionEntry(name: "Ping", typeName: "PingAction", queueLabel: "q")]
                )
            ]
        )
        let result = try await run(["catalog"], input: try catalog.jsonData())
        #expect(result.status == 0)
        #expect(result.outputText == catalog.markdown())
    }
}
