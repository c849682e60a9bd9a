import Actuate
import ActuateReporting
import Foundation
import Synchronization

/// Keeps the mirrored cart, the purchased order ids and the campaigns last delivered to the global context in
/// `campaign-tracking.json` in a campaign manager's directory, so that after a relaunch a repeated order id is
/// still ignored, the cart is still there, and an identical campaign is still a duplicate within the window.
///
/// ```json
/// {"version": 1, "cart": [{"item": {"type": "Product", "id": "sku-1", …}, "quantity": 2, "price": 80}],
///  "orderIds": ["order-1", "order-2"],
///  "delivered": [{"campaign": {"target": "banner", "campaignId": "summer", …}, "at": 1798761600.5}]}
/// ```
///
/// `delivered` (seconds since 1970 on the scheduler's wall clock) is absent from files written before it existed.
///
/// Writes replace the file atomically, readable by its owner only (0600, see ``OwnerOnlyFile``), and are ordered
/// by generation: a snapshot older than the one already written is skipped. The campaign engine calls ``save(_:generation:)``
/// on its writer queue only (see ``WriteBehind``), never on the caller's. At most
/// ``TrackingState/maxRememberedOrderIDs`` order ids are kept, the most recent. A file that cannot be read back
/// (not JSON, an unknown version, a line item its initialiser refuses, larger than ``maxFileBytes``) is moved
/// aside to `campaign-tracking.json.corrupt`, never deleted, and tracking starts with an empty cart and no order
/// ids; the problem is returned for the manager to record.
final class CampaignTrackingStore: Sendable {
    static let fileName = "campaign-tracking.json"
    /// The largest file read back: far above a thousand order ids and a large cart.
    static let maxFileBytes = 4 * 1024 * 1024

    let directory: URL
    private let written = Mutex<UInt64>(0)

    var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    init(directory: URL) {
        self.directory = directory
    }

    /// Reads the saved cart and order ids; a missing file is an empty start, not a problem.
    /// - Returns: What was saved, and what went wrong when the file had to be set aside or could not be read.
    func load() -> (saved: TrackingState.Saved, problem: String?) {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: fileURL)
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maxFileBytes + 1) ?? Data()
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return (TrackingState.Saved(), nil) }
            return (TrackingState.Saved(), "reading \(fileURL.path) failed: \(error.localizedDescription)")
        }
        do {
            guard data.count <= Self.maxFileBytes else {
                throw Damage(reason: "it is larger than \(Self.maxFileBytes) bytes")
            }
            return (try Self.decode(data), nil)
        } catch {
            let aside = fileURL.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: fileURL, to: aside)
            let problem =
                "\(fileURL.path) is damaged (\(error)); it was moved to \(aside.lastPathComponent), and tracking "
                + "starts with an empty cart and no remembered order ids"
            return (TrackingState.Saved(), problem)
        }
    }

    /// Replaces the file with the snapshot of `generation`, unless a newer one was written.
    /// - Returns: What went wrong, or nil when the file was written or a newer one already had been.
    func save(_ saved: TrackingState.Saved, generation: UInt64) -> String? {
        let file: JSONValue = [
            "version": 1,
            "cart": .array(saved.cart.map(\.jsonValue)),
            "orderIds": .array(saved.orderIDs.map(JSONValue.string)),
            "delivered": .array(saved.delivered.compactMap(Self.encode)),
        ]
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(file)
        } catch {
            return "encoding \(fileURL.path) failed: \(error)"
        }
        return written.withLock { written -> String? in
            guard generation > written else { return nil }
            do {
                try OwnerOnlyFile.write(data, to: fileURL)
                written = generation
                return nil
            } catch {
                return String(describing: error)
            }
        }
    }

    /// Why a file cannot be read back, in words that name the field.
    private struct Damage: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    private static func encode(_ delivery: TrackingState.RecentDelivery) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(delivery.campaign),
            let campaign = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return nil }
        return ["campaign": campaign, "at": .number(delivery.date.timeIntervalSince1970)]
    }

    private static func decode(_ data: Data) throws -> TrackingState.Saved {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw Damage(reason: "not valid JSON: \(RulesDocumentReader.reason(error, in: data))")
        }
        guard case .object(let object) = root else { throw Damage(reason: "expected an object") }
        guard object["version"] == 1 else { throw Damage(reason: "expected version 1") }
        guard case .array(let lines) = object["cart"] ?? .array([]) else {
            throw Damage(reason: "cart: expected an array")
        }
        guard case .array(let ids) = object["orderIds"] ?? .array([]) else {
            throw Damage(reason: "orderIds: expected an array")
        }
        guard case .array(let delivered) = object["delivered"] ?? .array([]) else {
            throw Damage(reason: "delivered: expected an array")
        }
        var saved = TrackingState.Saved()
        for (index, entry) in delivered.enumerated() {
            guard case .object(let fields) = entry, let campaign = fields["campaign"],
                case .number(let seconds) = fields["at"], seconds.isFinite
            else {
                throw Damage(reason: "delivered[\(index)]: expected an object with a campaign and a number at")
            }
            do {
                let decoded = try JSONDecoder().decode(Campaign.self, from: JSONEncoder().encode(campaign))
                saved.delivered.append(.init(campaign: decoded, date: Date(timeIntervalSince1970: seconds)))
            } catch {
                throw Damage(reason: "delivered[\(index)].campaign: \(error)")
            }
        }
        for (index, line) in lines.enumerated() {
            do {
                saved.cart.append(try ItemJSONReader.lineItem(line))
            } catch {
                throw Damage(reason: "cart[\(index)]: \(error)")
            }
        }
        for (index, id) in ids.enumerated() {
            guard let orderID = id.stringValue, !orderID.isEmpty else {
                throw Damage(reason: "orderIds[\(index)]: expected a non-empty string")
            }
            saved.orderIDs.append(orderID)
        }
        return saved
    }
}
