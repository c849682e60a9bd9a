import ActuateTestSupport
import Foundation

/// Helpers for the child processes the tests start, forwarding to ``ChildProcessIO``.
enum ChildProcess {
    /// The first executable called `name` on `PATH`, or `nil`.
    static func findOnPath(_ name: String) -> URL? {
        ChildProcessIO.findOnPath(name)
    }

    /// Reads everything until end of file, off the cooperative thread pool.
    static func readToEnd(_ handle: FileHandle) async -> Data {
        await ChildProcessIO.readToEnd(handle)
    }
}

/// A one-shot signal for a child process's exit, awaited without blocking a thread.
typealias ProcessExit = ExitSignal
