// A minimal program that reproduces each leak LeakSanitizer (part of `swift test --sanitize=address`) reports in
// the toolchain's own libraries during our test run. lsan-suppressions.txt names exactly these allocations;
// ./run-foundation-leaks checks that each mode leaks without the suppressions, is clean with them, and that a
// leak of our own (--own-cycle) is still reported with them.
//
//   --process      Foundation.Process after run(): the object stays in a reference cycle, with what it holds.
//   --bundles      Bundle.allBundles from several threads: CoreFoundation leaks the array copies it makes.
//   --urlsession   one URLSession request: libcurl's per-transfer strings and FoundationNetworking's weak
//                  references are never freed.
//   --own-cycle    two objects of ours that hold each other: a real leak, which must stay reported.
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class Node {
    var other: Node?
}

switch CommandLine.arguments.dropFirst().first {
case "--process":
    // Not every run leaks (it depends on which thread sees the child exit first); five always have.
    for _ in 0..<5 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/echo")
        process.arguments = ["hello"]
        let output = Pipe()
        process.standardOutput = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
    }
case "--bundles":
    DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = Bundle.allBundles }
case "--urlsession":
    let session = URLSession(configuration: .ephemeral)
    let finished = DispatchSemaphore(value: 0)
    // Nothing listens on port 1: the transfer fails at once, and still leaks.
    session.dataTask(with: URL(string: "http://127.0.0.1:1/")!) { _, _, _ in finished.signal() }.resume()
    finished.wait()
    session.finishTasksAndInvalidate()
case "--own-cycle":
    let first = Node()
    let second = Node()
    first.other = second
    second.other = first
default:
    print("usage: FoundationLeaks --process | --bundles | --urlsession | --own-cycle")
    exit(2)
}
