import Actuate

/// How a rendered document talks to the app: the message handler it posts to, which links it may report, and how
/// large a message may be. Content actions and content blocks share it (a block's bridge is its configuration's
/// link schemes with the handler `actuateContentBlock`), with one parser, `BridgeMessage`, and one document
/// builder, `BridgeDocument`.
///
/// The page reports clicks on these elements (the nearest marked ancestor of the clicked element wins):
///
/// | markup | status | `arg` | `href` |
/// |---|---|---|---|
/// | `data-actuate-close="N"` | `close` | N, the sessions not to show the content (empty means 0) | empty |
/// | `data-actuate-product="ID"` | `product` | the product id | the enclosing link, if any |
/// | `data-actuate-article="ID"` | `article` | the article id | the enclosing link, if any |
/// | `data-actuate-target="ARG"` | `target` | the attribute's value | the enclosing link, if any |
/// | `<a href>` or `<area href>` without a mark | `target` | empty | the link |
///
/// A link's `href` is reported only when its scheme is in `allowedSchemes` and it is at most
/// `maximumHrefLength` characters; otherwise the click is reported with an empty `href`. The schemes are
/// the web schemes (`http`, `https`, `mailto`, `tel`) by default; a bridge built from the app's
/// routes (``init(routes:handlerName:maximumHrefLength:maximumArgumentLength:maximumMessageBytes:)``, which
/// ``ContentAction/render(on:system:clickedCallback:)`` uses) adds the app's own schemes, so a banner can link
/// to `shop://product/p1`. `javascript:`, `data:`, `blob:` and `file:` URLs (`ContentLinkSchemes.neverAllowed`)
/// never reach the app, whatever the list says. No click on a link navigates the page, and `window.open` is
/// disabled.
///
/// Each message is the JSON object `{"status": …, "href": …, "arg": …, "token": …}`, every value a string.
/// `token` is the secret of the rendered document: ``ContentAction/render(on:bridge:clickedCallback:)`` makes a
/// fresh one for each document it loads, the bridge script keeps it where the page's own scripts cannot read it
/// (it is the document's first script, removes its own element, and posts through functions it captured before
/// any script of the page ran), and the app refuses every message that does not carry it.
///
/// The app checks every message again when it arrives (the page's own scripts can post too): a message that
/// is not a JSON object with string `status`, `href` and `arg` fields, does not carry the document's `token`,
/// names another status, carries a link with a scheme that is not allowed, or is larger than the limits below is
/// reported as an `error` event and otherwise ignored.
public struct ContentBridge: Sendable, Hashable {
    /// The name the page posts to, `window.webkit.messageHandlers.<handlerName>`; `actuate` by default.
    var handlerName: String
    /// The URL schemes whose links are reported, lowercase. Those in ``ContentLinkSchemes/neverAllowed`` are
    /// never reported, even when set here.
    var allowedSchemes: Set<String>
    /// The longest `href` reported, in characters.
    var maximumHrefLength: Int
    /// The longest `arg` accepted, in characters.
    var maximumArgumentLength: Int
    /// The largest message accepted, in UTF-8 bytes.
    var maximumMessageBytes: Int
    /// Whether the content may load images over `https`; `false` by default, when images must be `data:` URLs.
    ///
    /// An image request tells its server that the content was shown, whatever the user's tracking consent: the
    /// document's policy refuses it unless this is set. Set it only for content whose images you cannot inline
    /// (Personyze-style content that links its images), and only while tracking consent is granted.
    var allowsHTTPSImages = false

    /// The default bridge: handler `actuate`, links `http`, `https`, `mailto` and `tel`, `href` up to 2,048
    /// characters, `arg` up to 256, messages up to 8,192 bytes (the one limit of content actions and blocks).
    @usableFromInline
    package static let standard = ContentBridge()

    /// Creates a bridge configuration.
    ///
    /// - Parameters:
    ///   - handlerName: The message handler name. Letters, digits and underscores only; anything else is
    ///     replaced by `actuate`.
    ///   - allowedSchemes: The URL schemes whose links are reported; those in `ContentLinkSchemes.neverAllowed`
    ///     and malformed ones are left out.
    ///   - maximumHrefLength: The longest `href` reported, in characters.
    ///   - maximumArgumentLength: The longest `arg` accepted, in characters.
    ///   - maximumMessageBytes: The largest message accepted, in UTF-8 bytes; 8,192 by default.
    public init(
        handlerName: String = "actuate",
        allowedSchemes: Set<String> = ContentLinkSchemes.web,
        maximumHrefLength: Int = 2_048,
        maximumArgumentLength: Int = 256,
        maximumMessageBytes: Int = 8_192
    ) {
        let isIdentifier =
            !handlerName.isEmpty
            && handlerName.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            }
        self.handlerName = isIdentifier ? handlerName : "actuate"
        self.allowedSchemes = ContentLinkSchemes.checked(allowedSchemes)
        self.maximumHrefLength = max(0, maximumHrefLength)
        self.maximumArgumentLength = max(0, maximumArgumentLength)
        self.maximumMessageBytes = max(0, maximumMessageBytes)
    }

    /// Creates the bridge of an app whose URL router answers `routes`: links in the app's own schemes are
    /// reported, besides the web schemes (`http`, `https`, `mailto`, `tel`).
    ///
    /// - Parameters:
    ///   - routes: The app's router configuration, such as `system.router.configuration`.
    ///   - handlerName: The message handler name.
    ///   - maximumHrefLength: The longest `href` reported, in characters.
    ///   - maximumArgumentLength: The longest `arg` accepted, in characters.
    ///   - maximumMessageBytes: The largest message accepted, in UTF-8 bytes.
    public init(
        routes: URLRouterConfiguration,
        handlerName: String = "actuate",
        maximumHrefLength: Int = 2_048,
        maximumArgumentLength: Int = 256,
        maximumMessageBytes: Int = 8_192
    ) {
        self.init(
            handlerName: handlerName,
            allowedSchemes: ContentLinkSchemes.allowed(by: routes),
            maximumHrefLength: maximumHrefLength,
            maximumArgumentLength: maximumArgumentLength,
            maximumMessageBytes: maximumMessageBytes
        )
    }

    /// The schemes the page may report: ``allowedSchemes`` without ``ContentLinkSchemes/neverAllowed``.
    var reportedSchemes: Set<String> {
        ContentLinkSchemes.checked(allowedSchemes)
    }
}
