import Actuate

/// Something a user did with a product, as the tracker records it.
package enum ProductEvent: String, Sendable, Hashable, Codable, CaseIterable {
    /// The product was viewed.
    case viewed
    /// The product was added to the cart.
    case addedToCart
    /// The product was liked.
    case liked
    /// The product was bought.
    case purchased
    /// A like was taken back.
    case unliked
    /// The product was taken out of the cart.
    case removedFromCart
}

/// Something a user did with an article, as the tracker records it.
package enum ArticleEvent: String, Sendable, Hashable, Codable, CaseIterable {
    /// The article was viewed.
    case viewed
    /// The article was liked.
    case liked
    /// The article was commented on.
    case commented
    /// A like was taken back.
    case unliked
    /// The article reached its goal (read to the end, shared, …).
    case goal
}

/// One behaviour command: what the user did, as the tracker records it, reports it and sends it to a
/// ``DecisionSource``.
///
/// Its JSON form is an object with a `command` field: `{"command": "navigate", "document": "home"}`,
/// `{"command": "product", "event": "viewed", "productId": "sku-1"}`,
/// `{"command": "article", "event": "liked", "articleId": "a-1"}`, `{"command": "userData", "field": "tier",
/// "value": "gold"}`.
package enum BehaviourCommand: Sendable, Hashable, Codable, Loggable {
    /// The user went to a document (a screen or page).
    case navigate(documentName: String)
    /// Something happened to a product.
    case product(ProductEvent, productID: String)
    /// Something happened to an article.
    case article(ArticleEvent, articleID: String)
    /// The app logged a field of user data.
    case userData(field: String, value: String)

    private enum CodingKeys: String, CodingKey {
        case command
        case document
        case event
        case productID = "productId"
        case articleID = "articleId"
        case field
        case value
    }

    /// Decodes a command from its JSON form.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the command is unknown or a field is missing.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let command = try container.decode(String.self, forKey: .command)
        switch command {
        case "navigate":
            self = .navigate(documentName: try container.decode(String.self, forKey: .document))
        case "product":
            self = .product(
                try container.decode(ProductEvent.self, forKey: .event),
                productID: try container.decode(String.self, forKey: .productID)
            )
        case "article":
            self = .article(
                try container.decode(ArticleEvent.self, forKey: .event),
                articleID: try container.decode(String.self, forKey: .articleID)
            )
        case "userData":
            self = .userData(
                field: try container.decode(String.self, forKey: .field),
                value: try container.decode(String.self, forKey: .value)
            )
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .command,
                in: container,
                debugDescription: "Unknown behaviour command \"\(command)\""
            )
        }
    }

    /// Encodes the command in its JSON form.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .navigate(let documentName):
            try container.encode("navigate", forKey: .command)
            try container.encode(documentName, forKey: .document)
        case .product(let event, let productID):
            try container.encode("product", forKey: .command)
            try container.encode(event, forKey: .event)
            try container.encode(productID, forKey: .productID)
        case .article(let event, let articleID):
            try container.encode("article", forKey: .command)
            try container.encode(event, forKey: .event)
            try container.encode(articleID, forKey: .articleID)
        case .userData(let field, let value):
            try container.encode("userData", forKey: .command)
            try container.encode(field, forKey: .field)
            try container.encode(value, forKey: .value)
        }
    }

    /// The name behaviour events carry in their `command` property, such as `navigate`, `product_viewed`,
    /// `article_goal` or `user_data`.
    package var eventName: String {
        switch self {
        case .navigate: "navigate"
        case .product(let event, _): "product_" + Self.snakeCase(event.rawValue)
        case .article(let event, _): "article_" + Self.snakeCase(event.rawValue)
        case .userData: "user_data"
        }
    }

    /// The command without user data values, which may be private: `user data tier = <redacted>`.
    package var loggingDescription: String {
        switch self {
        case .navigate(let documentName): "navigate \(documentName)"
        case .product(let event, let productID): "product \(event.rawValue) \(productID)"
        case .article(let event, let articleID): "article \(event.rawValue) \(articleID)"
        case .userData(let field, _): "user data \(field) = <redacted>"
        }
    }

    private static func snakeCase(_ camel: String) -> String {
        var result = ""
        for character in camel {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
