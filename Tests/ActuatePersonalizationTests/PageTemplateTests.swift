import ActuateReporting
import Testing

@testable import ActuatePersonalization

/// The one-pass fill of the package's page templates (the statistics page, the CLI's timeline page).
@Suite("PageTemplate: placeholders are filled in one pass")
struct PageTemplateTests {
    @Test("a value holding placeholders stays that text: nothing inserted is read again")
    func valuesAreNotExpanded() {
        let template = PageTemplate("<title>{{title}}</title><h1>{{title}}</h1><script>{{script}}</script>{{data}}")
        let page = template.filled([
            "title": "{{data}} <b>x</b> {{script}}",
            "script": "run({{title}})",
            "data": "{\"a\": \"{{script}}\"}",
        ])
        #expect(
            page
                == "<title>{{data}} <b>x</b> {{script}}</title><h1>{{data}} <b>x</b> {{script}}</h1>"
                + "<script>run({{title}})</script>{\"a\": \"{{script}}\"}"
        )
    }

    @Test("every occurrence is filled; placeholders without a value, stray braces and an open end stay as written")
    func edges() {
        #expect(PageTemplate("{{a}}{{a}}-{{b}}").filled(["a": "1", "b": "2"]) == "11-2")
        #expect(PageTemplate("{{a}} {{unknown}} {{a}}").filled(["a": "1"]) == "1 {{unknown}} 1")
        #expect(PageTemplate("{{ {{a}} }}").filled(["a": "1"]) == "{{ 1 }}")
        #expect(PageTemplate("x {{a").filled(["a": "1"]) == "x {{a")
        #expect(PageTemplate("{{a}}").filled(["a": ""]) == "")
        #expect(PageTemplate("é{{a}}ü").filled(["a": "ß"]) == "éßü")
        #expect(PageTemplate("").filled(["a": "1"]) == "")
    }

    @Test("the statistics page keeps a title holding placeholders as text, under the shared Content Security Policy")
    func statisticsPage() throws {
        let page = try StatisticsPage(
            report: StatisticsReport(statistics: try ReportingStatistics(store: MemoryEventStore()), campaigns: []),
            title: "{{data}} <b>x</b> {{script}}"
        ).html()
        #expect(page.contains("<title>{{data}} &lt;b&gt;x&lt;/b&gt; {{script}}</title>"))
        #expect(page.contains("<h1>{{data}} &lt;b&gt;x&lt;/b&gt; {{script}}</h1>"))
        #expect(page.contains("content=\"\(PageTemplate.contentSecurityPolicy)\""))
        #expect(page.components(separatedBy: "<script").count - 1 == 2)
    }

    @Test("one escape serves both pages: every character that could leave element content or a quoted attribute")
    func escape() {
        #expect(
            PageTemplate.escape(#"<a href="x" title='y'>&</a>"#)
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        )
        #expect(PageTemplate.escape("&amp;") == "&amp;amp;")
        #expect(PageTemplate.escape("plain é") == "plain é")
    }
}
