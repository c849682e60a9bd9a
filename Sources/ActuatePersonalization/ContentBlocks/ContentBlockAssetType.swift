import Foundation

/// The media types an asset may have: it is inlined as `data:<type>;base64,…` inside the block's HTML, so the
/// type must be one of a few known image and font types, never text a server chose.
///
/// SVG is not among them: an SVG image is a document that can carry scripts and links, and inlined where a
/// block uses it as a frame or an object it would run them.
enum ContentBlockAssetType {
    /// The types accepted.
    static let allowed: Set<String> = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif",
        "font/woff2", "font/woff", "font/ttf", "font/otf",
    ]

    /// The allowed type named by a `Content-Type` value, lower-cased and without its parameters, or nil when the
    /// value names no allowed type.
    static func allowed(_ contentType: String) -> String? {
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let type = essence.trimmingCharacters(in: .whitespaces).lowercased()
        return allowed.contains(type) ? type : nil
    }

    /// A short, printable quotation of a type a server sent, for an error message.
    static func quoted(_ contentType: String) -> String {
        let printable = contentType.unicodeScalars.prefix(80).map { scalar in
            (0x20..<0x7F).contains(scalar.value) && scalar != "\"" ? String(scalar) : "?"
        }
        return "\"" + printable.joined() + (contentType.unicodeScalars.count > 80 ? "…" : "") + "\""
    }
}
