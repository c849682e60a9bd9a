/// Renders an ``ActionCatalog`` as Markdown: a summary naming the actions without a description, then one
/// section per feature with a table of its actions.
struct ActionCatalogMarkdown {
    let catalog: ActionCatalog

    private static let headers = [
        "Action", "Description", "Input", "Presenter", "Queue", "Analytics ID", "Activities", "URL routes",
    ]

    /// Marks the actions without a description, in the summary and in their rows.
    private static let flag = "⚠"

    func render() -> String {
        let actions = catalog.allActions
        let published = actions.filter(\.isPublished).count
        var lines = [
            "# Actions of \(catalog.groupName)",
            "",
            "\(count(catalog.features.count, "feature")), \(count(actions.count, "action")) "
                + "(\(published) published).",
        ]
        let undescribed = catalog.actionsWithoutDescription
        if !undescribed.isEmpty {
            let names = undescribed.map { "**\(escape($0.name))** (\(code($0.typeName)))" }
            lines += [
                "",
                "\(Self.flag) \(count(undescribed.count, "action")) \(undescribed.count == 1 ? "has" : "have") "
                    + "no description: \(names.joined(separator: ", ")).",
            ]
        }
        for feature in catalog.features {
            lines += [""] + section(for: feature)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func section(for feature: ActionCatalog.FeatureEntry) -> [String] {
        var notes: [String] = []
        if feature.kind == .group { notes.append("group") }
        if feature.isConditional { notes.append("conditional") }
        if !feature.isVisible { notes.append("hidden") }
        let suffix = notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
        var lines = ["## \(feature.name)\(suffix)", "", "Identifier: `\(feature.path)`"]
        if !feature.description.isEmpty { lines += ["", feature.description] }
        if feature.isConditional {
            lines += ["", "Available only when:"]
            lines +=
                feature.constraints.isEmpty
                ? ["- (no constraints)"] : feature.constraints.map { "- \($0.description)" }
        }
        guard !feature.actions.isEmpty else {
            if feature.kind == .feature { lines += ["", "No actions declared."] }
            return lines
        }
        lines += ["", row(Self.headers), row(Self.headers.map { _ in "---" })]
        lines += feature.actions.map { row(cells(for: $0)) }
        return lines
    }

    private func cells(for action: ActionCatalog.ActionEntry) -> [String] {
        var name = "**\(escape(action.name))**"
        if action.isPublished { name += " (published)" }
        if action.hideFromTimeline { name += " (hidden from timeline)" }
        let routes = action.routes.map { route in
            let shown = route.links.isEmpty ? [route.pattern] : route.links
            return shown.map { code($0) }.joined(separator: "<br>")
        }
        return [
            name,
            action.hasDescription ? escape(action.description) : "\(Self.flag) \(ActionDescription.missing)",
            code(action.inputType),
            code(action.presenterType),
            code(action.queueLabel),
            action.analyticsID.map(code) ?? "",
            action.activityEligibility.joined(separator: ", "),
            routes.joined(separator: "<br>"),
        ]
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    private func code(_ text: String) -> String {
        "`" + escape(text).replacingOccurrences(of: "`", with: "'") + "`"
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
