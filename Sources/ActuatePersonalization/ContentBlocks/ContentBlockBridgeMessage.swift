/// A message a shown block's bridge script posted, once ``BridgeMessage/parseBlockMessage(_:bridge:token:)`` has
/// checked it.
package enum ContentBlockBridgeMessage: Sendable, Hashable {
    /// The user clicked a link.
    case click(ContentBlockLink)
    /// The user clicked the close element.
    case close
}
