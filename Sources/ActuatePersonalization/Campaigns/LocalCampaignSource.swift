import Foundation

/// The embedded campaign source: answers from the `campaigns` array of a rules file, with no network.
///
/// ```swift
/// let source = try LocalCampaignSource(contentsOf: rulesURL)
/// let campaigns = CampaignManager(reporter: reporter, source: source, directory: campaignsDirectory)
/// ```
///
/// Each request earns every campaign whose trigger matches it, in file order.
public struct LocalCampaignSource: CampaignSource {
    /// The rules it answers from.
    package let rules: CampaignRules

    /// Creates a source from rules already loaded.
    /// - Parameter rules: The rules.
    package init(rules: CampaignRules) {
        self.rules = rules
    }

    /// Loads a rules file and creates a source from its `campaigns` array.
    /// - Parameter url: The rules file.
    /// - Throws: ``RulesFileError`` naming the file and every problem with its JSON path.
    public init(contentsOf url: URL) throws(RulesFileError) {
        self.init(rules: try CampaignRules(contentsOf: url))
    }

    /// Parses rules and creates a source from their `campaigns` array.
    /// - Parameters:
    ///   - data: The rules file's JSON.
    ///   - name: What to call the data in errors.
    /// - Throws: ``RulesFileError`` naming `name` and every problem with its JSON path.
    public init(data: Data, name: String) throws(RulesFileError) {
        self.init(rules: try CampaignRules(data: data, name: name))
    }

    public func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
        rules.campaigns(for: request)
    }
}
