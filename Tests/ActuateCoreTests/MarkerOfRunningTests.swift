import Dispatch
import Testing

@testable import ActuateCore

/// ``DispatchQueueMarker/markerOfRunning(_:)``: the marker recorded for the running body when it is the asked
/// queue's, the looked-up one otherwise.
@Suite("Marker of the running queue")
struct MarkerOfRunningTests {
    // Static, as action queues are: a queue and its marker hold each other for the life of the process.
    static let outside = DispatchQueue(label: "marker-of-running-outside")
    static let inside = DispatchQueue(label: "marker-of-running-inside")
    static let other = DispatchQueue(label: "marker-of-running-other")

    @Test("outside a body it looks the marker up")
    func outsideABody() {
        let queue = Self.outside
        #expect(DispatchQueueMarker.markerOfRunning(queue) === DispatchQueueMarker.marker(for: queue))
    }

    @Test("inside a body it returns the running queue's marker, and looks up any other queue's")
    func insideABody() {
        let queue = Self.inside
        let other = Self.other
        let marker = DispatchQueueMarker.marker(for: queue)
        let previous = RunningQueue.enter(UnownedReference(marker))
        #expect(DispatchQueueMarker.markerOfRunning(queue) === marker)
        #expect(DispatchQueueMarker.markerOfRunning(other) === DispatchQueueMarker.marker(for: other))
        RunningQueue.leave(restoring: previous)
    }
}
