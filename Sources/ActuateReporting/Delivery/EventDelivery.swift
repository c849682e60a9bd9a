/// What the recording side of the reporting layer needs from delivery.
///
/// ``EventUploader`` is the real implementation. The recorder tells it when events were appended, so that a
/// count-based ``FlushPolicy`` can trigger, and asks it to flush before the identity changes.
package protocol EventDelivery: Sendable {
    /// Tells delivery that `count` events were appended to the store.
    func eventsAppended(_ count: Int)

    /// Uploads what is stored now, and returns when that attempt has finished, acknowledged or not.
    func flushNow() async
}
