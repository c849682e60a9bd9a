import Dispatch
import Testing

@testable import Actuate

/// ``DispatchQueueMarker/markerOfRunning(_:)``: the marker recorded for the running body when it is the asked
/// queue's, the looked-up one otherwise.
@Suite("Marker of the running queue")
struct MarkerOfRunningTests {
    @Test("outside a body it looks the marker up")
    func outsideABody() {
        let queue = DispatchQueue(label: "marker-of-running-outside")
        #expect(DispatchQueueMarker.markerOfRunning(queue) === DispatchQueueMarker.marker(for: queue))
    }

    @Test("inside a body it returns the running queue's marker, and looks up any other queue's")
    func insideABody() {
        let queue = DispatchQueue(label: "marker-of-running-inside")
        let other = DispatchQueue(label: "marker-of-running-other")
        let marker = DispatchQueueMarker.marker(for: queue)
        let previous = RunningQueue.enter(Unmanaged.passUnretained(marker))
        #expect(DispatchQueueMarker.markerOfRunning(queue) === marker)
        #expect(DispatchQueueMarker.markerOfRunning(other) === DispatchQueueMarker.marker(for: other))
        RunningQueue.leave(restoring: previous)
    }
}
