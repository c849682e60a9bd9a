import Foundation

/// The events of many sources, each event once: store directories, collected batch files and NDJSON files, read
/// one after another and deduplicated by event id across all of them, because at-least-once delivery repeats
/// events (a batch resent after a lost acknowledgement, a file copied twice).
///
/// Memory stays bounded: stores are read a page at a time, files a megabyte at a time, and the ids seen are kept
/// as 64-bit fingerprints in six bytes each (``EventIDSet``).
package struct AudienceEvents {
    /// What reading the sources found.
    package struct Summary: Sendable, Hashable {
        /// Events read, repeats included.
        package var eventsRead = 0
        /// Events handed on: each id once.
        package var uniqueEvents = 0
        /// The stores' dead letters, added up.
        package var deadLetterCount = 0
        /// One line per source that could not be read, or not wholly: the path and the reason.
        package var problems: [String] = []
        /// The repeats left out.
        package var repeats: Int { eventsRead - uniqueEvents }
    }

    /// The sources, in the order given.
    package let sources: [String]
    /// The events read from a store at a time.
    package var pageSize: Int

    /// Names the sources.
    /// - Parameters:
    ///   - sources: Paths of store directories and files.
    ///   - pageSize: The events read from a store at a time.
    package init(sources: [String], pageSize: Int = ReportingStatistics.defaultPageSize) {
        self.sources = sources
        self.pageSize = pageSize
    }

    /// Calls `body` once per distinct event id over all the sources, in source order and then in each source's
    /// order. A source that cannot be read, or only in part, is listed in the summary's problems, and the others are
    /// read all the same.
    /// - Parameter body: Called with each event the first time its id is seen.
    /// - Returns: The counts and the problems.
    package func forEachUniqueEvent(_ body: (ReportEvent) -> Void) -> Summary {
        var decoding = ReportEventDecoding()
        return forEachUniqueEvent(decoding: &decoding, body)
    }

    /// Calls `body` once per distinct event id over all the sources, as ``forEachUniqueEvent(_:)`` does, with each
    /// event as the statistics read it: collected batch files are decoded straight from their bytes.
    /// - Parameters:
    ///   - texts: Where the events' texts are numbered; the accumulators read them back from it.
    ///   - body: Called with each event the first time its id is seen.
    /// - Returns: The counts and the problems.
    package func forEachUniqueEvent(
        texts: inout StatisticsTexts,
        _ body: (StatisticsEvent) -> Void
    ) -> Summary {
        var decoding = StatisticsEventDecoding(texts: texts)
        defer { texts = decoding.texts }
        return forEachUniqueEvent(decoding: &decoding) { event in body(event) }
    }

    private func forEachUniqueEvent<Decoding: CollectedEventDecodingStrategy>(
        decoding: inout Decoding,
        _ body: (Decoding.Event) -> Void
    ) -> Summary where Decoding.Event: IdentifiedEvent {
        var summary = Summary()
        var seen = EventIDSet(expectedCount: Self.expectedEventCount(sources))
        // The test is written out in each closure below rather than in a local function: a local function's captured
        // variables are boxed and checked for exclusive access at run time, three times an event.
        for path in sources {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                summary.problems.append("\(path): there is no such directory or file")
                continue
            }
            if isDirectory.boolValue {
                var skipped: [String] = []
                do {
                    summary.deadLetterCount += try ReportingStatistics.forEachEvent(
                        inFileStoreDirectory: URL(fileURLWithPath: path),
                        pageSize: pageSize,
                        skippedFiles: &skipped
                    ) { stored in
                        let event = decoding.event(stored)
                        summary.eventsRead += 1
                        if seen.insert(event.id) {
                            summary.uniqueEvents += 1
                            body(event)
                        }
                    }
                } catch {
                    summary.problems.append("\(path): \(Self.reason(error))")
                }
                for name in skipped {
                    summary.problems.append(
                        "skipped \(name) in \(path): not a regular file (a symbolic link or another kind of file), "
                            + "so it was neither read nor changed, and its events are not in the figures"
                    )
                }
            } else {
                do {
                    try CollectedEventFile.forEachEvent(atPath: path, decoding: &decoding) { event in
                        summary.eventsRead += 1
                        if seen.insert(event.id) {
                            summary.uniqueEvents += 1
                            body(event)
                        }
                    }
                } catch {
                    summary.problems.append("\(path): \(error)")
                }
            }
        }
        return summary
    }

    /// About how many events the files among `paths` hold, for sizing the id set up front: their bytes over 256, a
    /// little more than an event of Actuate's batches takes (about 230), so the set starts near its final size
    /// rather than above it; at most 16 M (about 140 MB of tables), and 0 for store directories.
    static func expectedEventCount(_ paths: [String]) -> Int {
        var bytes = 0
        for path in paths {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? Int
            else { continue }
            bytes += size
        }
        return min(bytes / 256, 1 << 24)
    }

    private static func reason(_ error: ReportingError) -> String {
        if case .storeFailed(_, let reason) = error { return reason }
        return error.description
    }
}

/// An event with an id, for deduplication.
protocol IdentifiedEvent {
    var id: UUID { get }
}

extension ReportEvent: IdentifiedEvent {}
extension StatisticsEvent: IdentifiedEvent {}
