import ActuateReporting
import Foundation

/// The campaign a notification came from, read from its payload.
///
/// The payload is the notification's user info as JSON. It must carry the campaign and message ids as
/// top-level strings (whole numbers are accepted too); the campaign's name, experience and target are
/// optional:
///
/// ```json
/// { "aps": { "alert": "Back in stock" }, "campaignId": "restock", "messageId": "m-7",
///   "campaignName": "Restock alert", "experienceId": "e-2", "target": "product-banner" }
/// ```
package struct CampaignNotification: Sendable, Hashable {
    /// The campaign's id.
    package var campaignID: String
    /// The message's id.
    package var messageID: String
    /// The campaign's name.
    package var campaignName: String?
    /// The experience's id.
    package var experienceID: String?
    /// The campaign's target.
    package var target: String?

    /// Reads the campaign from a notification payload.
    /// - Parameter payload: The notification's user info as JSON.
    /// - Throws: ``CampaignNotificationError`` when the campaign or message id is missing, empty or not a
    ///   string or whole number.
    package init(payload: [String: JSONValue]) throws(CampaignNotificationError) {
        campaignID = try Self.requiredID("campaignId", in: payload)
        messageID = try Self.requiredID("messageId", in: payload)
        campaignName = payload["campaignName"]?.stringValue
        experienceID = Self.id(payload["experienceId"])
        target = payload["target"]?.stringValue
    }

    /// The campaign as reporting names content.
    package var contentReference: ContentReference {
        .campaign(id: campaignID, name: campaignName)
    }

    /// Converts a notification's user info, as Apple platforms deliver it, to a JSON payload.
    ///
    /// Keys that are not strings and values that are not JSON (dates, data) are left out.
    /// - Parameter userInfo: The user info.
    /// - Returns: The payload.
    package static func payload(fromUserInfo userInfo: [AnyHashable: Any]) -> [String: JSONValue] {
        var payload: [String: JSONValue] = [:]
        for (key, value) in userInfo {
            guard let key = key as? String, let json = json(from: value) else { continue }
            payload[key] = json
        }
        return payload
    }

    private static func json(from value: Any) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool where type(of: value) == Bool.self: return .bool(flag)
        // Before Int and Double: on Apple platforms a Boolean in user info is an NSNumber that also casts to Int.
        case let number as NSNumber:
            return String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case let number as Int: return .number(Double(number))
        case let number as Double: return .number(number)
        case let array as [Any]: return .array(array.compactMap(json(from:)))
        case let object as [AnyHashable: Any]: return .object(payload(fromUserInfo: object))
        case is NSNull: return .null
        default: return nil
        }
    }

    private static func requiredID(
        _ key: String,
        in payload: [String: JSONValue]
    ) throws(CampaignNotificationError)
        -> String
    {
        guard let value = payload[key] else { throw .missing(key: key) }
        guard let id = id(value) else { throw .invalid(key: key, found: value) }
        return id
    }

    private static func id(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number) where number.rounded() == number && abs(number) < 1e15:
            return String(Int64(number))
        default:
            return nil
        }
    }
}

/// A notification payload that does not name its campaign.
package enum CampaignNotificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload has no value for `key` (`campaignId` or `messageId`).
    case missing(key: String)
    /// The value for `key` is empty, or neither a string nor a whole number.
    case invalid(key: String, found: JSONValue)

    package var description: String {
        switch self {
        case .missing(let key):
            "The notification payload has no \"\(key)\"; it did not come from a campaign, so no clickthrough was tracked."
        case .invalid(let key, let found):
            "The notification payload's \"\(key)\" is \(Self.describe(found)); expected a non-empty string, so no clickthrough was tracked."
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number(let number): "the number \(number)"
        case .string: "empty"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
