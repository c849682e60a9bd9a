#!/usr/bin/env python3
"""Issue 24 point 5 (names): one spelling per name, re-runnable over any merged tree.

    python3 .ci/names/rename.py            # rewrite the tree (idempotent: a second run changes nothing)
    python3 .ci/names/rename.py --dry-run  # list the files that would change, write nothing
    python3 .ci/names/rename.py --check    # exit 1 when something is left to rename (for CI)

Run it from anywhere; it works on the repository that holds this script. Python 3 standard library only.

What it rewrites, and where:
- Swift identifiers, whole-word, in code and in comments (doc comments name symbols), in Sources, Tests,
  Examples, Benchmarks and Plugins, and in the ```swift blocks and prose of README.md and the .docc articles.
- The prose spelling "personalise…" becomes "personalize…" everywhere in those files, string literals included
  (help text, test names, headings): the word is never a wire key.

What it never touches:
- The contents of Swift string literals (wire strings, JSON keys, event property keys, HTTP fields, file names,
  JavaScript): `"userId"` stays `"userId"`. Only code inside an interpolation `\\(…)` is renamed.
- Non-Swift code blocks in Markdown (json, sh, js, html, text …) and any file other than .swift and .md.
- Coding keys. A renamed case of a `CodingKey` or `String` raw-value enum keeps its old raw value
  (`case campaignId` becomes `case campaignID = "campaignId"`), and a synthesized-Codable type whose stored
  properties are renamed gets an explicit `CodingKeys` enum with the old keys, so documents, stores and wire
  formats read and write the same bytes as before.
- File names on disk, except Swift source files named after a renamed type (`git mv`, so files stay named after
  the main type they hold).
- Names in FIXED_NAME_ALIASES' generated files (FixedNameAliases.swift) and in OLD_SPELLING_FIXTURES: they keep
  the old spellings on purpose.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

# ---------------------------------------------------------------------------------------------------------------------
# DATA: the rename table. Edit here and re-run after merging code that may bring new occurrences.
# ---------------------------------------------------------------------------------------------------------------------

# Whole identifiers renamed everywhere (old, new, reason).
RENAMES: list[tuple[str, str, str]] = [
    # One word for plugin: the dispatcher's extension point is a plugin, as ActuateConfiguration(plugins:) says.
    ("ActionDispatchObserver", "ActionDispatchPlugin", "one word for plugin (fixed name: deprecated typealias kept)"),
    ("RecordingObserver", "RecordingPlugin", "one word for plugin (ActuateTesting's recorder)"),
    ("RecordingObserverTests", "RecordingPluginTests", "test suite follows its type"),
    ("ObserverList", "PluginList", "one word for plugin (internal)"),
    ("ObserverEntry", "PluginEntry", "one word for plugin (internal)"),
    ("currentObservers", "currentPlugins", "one word for plugin (internal)"),
    ("installedObservers", "installedPlugins", "one word for plugin (ActionDispatcher's public list)"),
    ("publishedObserverListCount", "publishedPluginListCount", "one word for plugin (internal, for tests)"),
    ("hasObservers", "hasPlugins", "one word for plugin"),
    ("dispatchObservers", "dispatchPlugins", "one word for plugin"),
    ("churnedObservers", "churnedPlugins", "one word for plugin"),
    ("perObserver", "perPlugin", "one word for plugin"),
    ("observerRemovedMidFlight", "pluginRemovedMidFlight", "one word for plugin"),
    ("observerAddedMidFlight", "pluginAddedMidFlight", "one word for plugin"),
    ("observerListPublication", "pluginListPublication", "one word for plugin"),
    ("terminationRemovesObserver", "terminationRemovesPlugin", "one word for plugin"),
    ("CountingObserver", "AtomicCountingPlugin", "one word for plugin (CountingPlugin is taken in ActuatePluginsTests)"),
    # A content block's link is a link, not an action ("action" is the Action type; ContentAction is Personyze's).
    ("ContentBlockAction", "ContentBlockLink", "a content block's link is not an action (deprecated typealias kept)"),
    ("onActionClicked", "onLinkClicked", "a content block's link (fixed name: deprecated requirement kept)"),
    ("invokeActionClick", "invokeLinkClick", "a content block's link (fixed name: deprecated method kept)"),
    ("actionUrl", "linkURL", "a content block's link; acronyms uniformly cased"),
]

# Identifier rule: `Id` at a camel-case boundary becomes `ID` (placeholderId → placeholderID, ids → unchanged,
# placeholderIds → placeholderIDs, Identity → unchanged). Names from outside Swift keep their spelling.
ID_RULE_EXCEPTIONS: set[str] = {
    "getElementById",  # the DOM's API, named in JavaScript
}

# Types named …Observer that conform to the dispatcher's plugin protocol are renamed …Plugin (found in the tree).
PLUGIN_PROTOCOLS = ("ActionDispatchObserver", "ActionDispatchPlugin")

# Observers that really observe something other than the dispatcher: files naming these keep the word "observer".
REAL_OBSERVERS = (
    "URLRouteObserver", "ActivityContinuationObserver", "RouteObserver", "ContinuationObserver",
    "MutationObserver", "NotificationCenter", "addObserver", "router.add(observer", "Router.add(observer",
    "activityRouter", "ActivityRouter",
    "FlintStyle",  # the benchmark's model of Flint keeps Flint's word
)

# Receivers whose add(observer:)/remove(observer:) take real observers (routers, the Flint model): kept.
KEEP_OBSERVER_RECEIVERS = r"([Rr]outer|[Ff]lint\w*)\??\.?$"

# Folders whose files all mean the dispatcher's plugins by "observer" (unless they name a real observer).
PLUGIN_WORD_DIRS = ("Sources/Actuate/Dispatch/", "Sources/Actuate/Internal/")

# Argument labels renamed in calls to one function or type (callee, old label, new label, reason), in code and prose.
LABEL_RENAMES: list[tuple[str, str, str, str]] = [
    ("ActionTestHarness", "observers", "plugins", "one word for plugin: the harness's extra plugins"),
]

# Prose spelling (also in strings): one spelling, the module's (ActuatePersonalization).
SPELLING: list[tuple[str, str]] = [
    (r"\b([Pp])ersonalis(ation|ations|e|ed|es|ing)\b", r"\1ersonaliz\2"),
]

# Parameters whose label and local name change with their type (type, old label, new label): the label in the
# declaration, in calls to the functions that declare it, and the name inside the function's body.
PARAMETER_RENAMES: list[tuple[str, str, str]] = [
    ("ContentBlockLink", "action", "link"),
]

SCAN_DIRS = ("Sources", "Tests", "Examples", "Benchmarks", "Plugins")
SCAN_FILES = ("README.md",)
ALIAS_FILE_NAME = "FixedNameAliases.swift"

# Test fixtures written against the old spellings on purpose (they check that such code still works): never rewritten.
OLD_SPELLING_FIXTURES = ("Tests/ActuatePersonalizationTests/Support/OldSpellingCallback.swift",)

# The fixed names of DESIGN.md that this rename changes, as deprecated forwarding aliases, one file per module.
FIXED_NAME_ALIASES: dict[str, str] = {
    "Sources/Actuate": '''\
// Generated by .ci/names/rename.py: the names Actuate first published (its fixed names), in their old spelling, so
// code written against them still compiles. Our own code uses only the new names.

/// The old name of ``ActionDispatchPlugin``.
@available(*, deprecated, renamed: "ActionDispatchPlugin")
public typealias ActionDispatchObserver = ActionDispatchPlugin

extension ActionDispatcher {
    /// The old name of ``add(plugin:)``.
    @available(*, deprecated, renamed: "add(plugin:)")
    public func add(observer: any ActionDispatchPlugin) { add(plugin: observer) }

    /// The old name of ``remove(plugin:)``.
    @available(*, deprecated, renamed: "remove(plugin:)")
    public func remove(observer: any ActionDispatchPlugin) { remove(plugin: observer) }
}
''',
    "Sources/ActuatePersonalization": '''\
// Generated by .ci/names/rename.py: the names Actuate first published (its fixed names), in their old spelling, so
// code written against them still compiles. Our own code uses only the new names.

/// The old name of ``ContentBlockLink``.
@available(*, deprecated, renamed: "ContentBlockLink")
public typealias ContentBlockAction = ContentBlockLink

extension ActionClicked {
    /// The old name of ``actionID``.
    @available(*, deprecated, renamed: "actionID")
    public var actionId: Int {
        get { actionID }
        set { actionID = newValue }
    }
}

extension Campaign {
    /// The old name of ``campaignID``.
    @available(*, deprecated, renamed: "campaignID")
    public var campaignId: String {
        get { campaignID }
        set { campaignID = newValue }
    }

    /// The old name of ``experienceID``.
    @available(*, deprecated, renamed: "experienceID")
    public var experienceId: String? {
        get { experienceID }
        set { experienceID = newValue }
    }

    /// The old name of ``messageID``.
    @available(*, deprecated, renamed: "messageID")
    public var messageId: String? {
        get { messageID }
        set { messageID = newValue }
    }
}

extension ContentAction {
    /// The old spelling of ``reportProductClick(productID:)``.
    @available(*, deprecated, renamed: "reportProductClick(productID:)")
    @discardableResult
    public func reportProductClick(productId: String) -> ContentReportResult {
        reportProductClick(productID: productId)
    }

    /// The old spelling of ``reportArticleClick(articleID:)``.
    @available(*, deprecated, renamed: "reportArticleClick(articleID:)")
    @discardableResult
    public func reportArticleClick(articleId: String) -> ContentReportResult {
        reportArticleClick(articleID: articleId)
    }
}

extension ContentBlockPlaceholder {
    /// The old spelling of ``init(placeholderID:deferredLoad:manager:surface:carousel:)``.
    @available(*, deprecated, renamed: "init(placeholderID:deferredLoad:manager:surface:carousel:)")
    public convenience init(
        placeholderId: String,
        deferredLoad: Bool = false,
        manager: ContentBlockManager,
        surface: (any HTMLSurface)? = nil,
        carousel: ContentBlockCarousel? = nil
    ) {
        self.init(
            placeholderID: placeholderId,
            deferredLoad: deferredLoad,
            manager: manager,
            surface: surface,
            carousel: carousel
        )
    }

    /// The old spelling of ``placeholderID``.
    @available(*, deprecated, renamed: "placeholderID")
    public var placeholderId: String { placeholderID }

    /// The old name of ``invokeLinkClick(linkURL:text:)``.
    @available(*, deprecated, renamed: "invokeLinkClick(linkURL:text:)")
    public func invokeActionClick(actionUrl: String, text: String? = nil) {
        invokeLinkClick(linkURL: actionUrl, text: text)
    }
}

// A callback written against the old names implements the old methods. Calls go one way only, so no callback can
// recurse: each new requirement's default passes the call to its old spelling, and each old spelling's default does
// nothing. A callback that implements the new methods, the old ones or none of them (the compiler warns about the
// last two) gets each call once.
extension ContentBlockCallback {
    /// By default, calls the old spelling
    /// ``onMessageShown(placeholderId:contentBlock:)``,
    /// which does nothing unless the callback implements it.
    @available(*, deprecated, message: "implement onMessageShown(placeholderID:contentBlock:)")
    public func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {
        onMessageShown(placeholderId: placeholderID, contentBlock: contentBlock)
    }

    /// By default, calls the old spelling
    /// ``onNoMessageFound(placeholderId:)``,
    /// which does nothing unless the callback implements it.
    @available(*, deprecated, message: "implement onNoMessageFound(placeholderID:)")
    public func onNoMessageFound(placeholderID: String) {
        onNoMessageFound(placeholderId: placeholderID)
    }

    /// By default, calls the old spelling
    /// ``onError(placeholderId:contentBlock:errorMessage:)``,
    /// which does nothing unless the callback implements it.
    @available(*, deprecated, message: "implement onError(placeholderID:contentBlock:errorMessage:)")
    public func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        onError(placeholderId: placeholderID, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    /// By default, calls the old spelling
    /// ``onCloseClicked(placeholderId:contentBlock:)``,
    /// which does nothing unless the callback implements it.
    @available(*, deprecated, message: "implement onCloseClicked(placeholderID:contentBlock:)")
    public func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {
        onCloseClicked(placeholderId: placeholderID, contentBlock: contentBlock)
    }

    /// By default, calls the old spelling
    /// ``onActionClicked(placeholderId:contentBlock:action:)``,
    /// which does nothing unless the callback implements it.
    @available(*, deprecated, message: "implement onLinkClicked(placeholderID:contentBlock:link:)")
    public func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        onActionClicked(placeholderId: placeholderID, contentBlock: contentBlock, action: link)
    }

    /// The old spelling of ``onMessageShown(placeholderID:contentBlock:)``;
    /// by default does nothing (the placeholder calls the new one).
    @available(*, deprecated, renamed: "onMessageShown(placeholderID:contentBlock:)")
    public func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {}

    /// The old spelling of ``onNoMessageFound(placeholderID:)``;
    /// by default does nothing (the placeholder calls the new one).
    @available(*, deprecated, renamed: "onNoMessageFound(placeholderID:)")
    public func onNoMessageFound(placeholderId: String) {}

    /// The old spelling of ``onError(placeholderID:contentBlock:errorMessage:)``;
    /// by default does nothing (the placeholder calls the new one).
    @available(*, deprecated, renamed: "onError(placeholderID:contentBlock:errorMessage:)")
    public func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {}

    /// The old spelling of ``onCloseClicked(placeholderID:contentBlock:)``;
    /// by default does nothing (the placeholder calls the new one).
    @available(*, deprecated, renamed: "onCloseClicked(placeholderID:contentBlock:)")
    public func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {}

    /// The old name of ``onLinkClicked(placeholderID:contentBlock:link:)``;
    /// by default does nothing (the placeholder calls the new one).
    @available(*, deprecated, renamed: "onLinkClicked(placeholderID:contentBlock:link:)")
    public func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockLink) {}
}

// The default behaviour answers the old spellings too, so a callback written against them that wraps it and calls
// through with the old names still tracks and opens links.
extension ContentBlockDefaultCallback {
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {
        onMessageShown(placeholderID: placeholderId, contentBlock: contentBlock)
    }

    func onNoMessageFound(placeholderId: String) {
        onNoMessageFound(placeholderID: placeholderId)
    }

    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {
        onError(placeholderID: placeholderId, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {
        onCloseClicked(placeholderID: placeholderId, contentBlock: contentBlock)
    }

    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockLink) {
        onLinkClicked(placeholderID: placeholderId, contentBlock: contentBlock, link: action)
    }
}
''',
}

# Old requirements added to a protocol's body (between markers), so a conformer written against the old names
# still conforms; their default implementations are in the module's FixedNameAliases.swift.
PROTOCOL_REQUIREMENT_ALIASES: dict[str, str] = {
    "ContentBlockCallback": '''\
    // Fixed-name aliases (generated by .ci/names/rename.py): the old spellings, for callbacks written against
    // them. The new methods' defaults call them and their own defaults do nothing; see FixedNameAliases.swift.
    @available(*, deprecated, renamed: "onMessageShown(placeholderID:contentBlock:)")
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock)
    @available(*, deprecated, renamed: "onNoMessageFound(placeholderID:)")
    func onNoMessageFound(placeholderId: String)
    @available(*, deprecated, renamed: "onError(placeholderID:contentBlock:errorMessage:)")
    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String)
    @available(*, deprecated, renamed: "onCloseClicked(placeholderID:contentBlock:)")
    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock)
    @available(*, deprecated, renamed: "onLinkClicked(placeholderID:contentBlock:link:)")
    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockLink)
    // End of fixed-name aliases.
''',
}

# ---------------------------------------------------------------------------------------------------------------------
# Lexing Swift: code, comments and string literals (interpolations are code).
# ---------------------------------------------------------------------------------------------------------------------

CODE, COMMENT, STRING = "code", "comment", "string"
IDENT = re.compile(r"`?[A-Za-z_][A-Za-z0-9_]*`?")


def lex_swift(text: str) -> list[tuple[str, str]]:
    """Splits Swift source into (kind, text) segments whose texts concatenate back to `text`."""
    segments: list[tuple[str, str]] = []
    pos = 0
    n = len(text)

    def emit(kind: str, start: int, end: int) -> None:
        if end > start:
            if segments and segments[-1][0] == kind:
                segments[-1] = (kind, segments[-1][1] + text[start:end])
            else:
                segments.append((kind, text[start:end]))

    def lex_code(start: int, until_paren: bool) -> int:
        """Lexes code from `start`; with `until_paren`, stops before the `)` that closes an interpolation."""
        i = start
        depth = 0
        chunk = start
        while i < n:
            c = text[i]
            if text.startswith("//", i):
                emit(CODE, chunk, i)
                end = text.find("\n", i)
                end = n if end < 0 else end
                emit(COMMENT, i, end)
                i = chunk = end
                continue
            if text.startswith("/*", i):
                emit(CODE, chunk, i)
                j, level = i + 2, 1
                while j < n and level:
                    if text.startswith("/*", j):
                        level, j = level + 1, j + 2
                    elif text.startswith("*/", j):
                        level, j = level - 1, j + 2
                    else:
                        j += 1
                emit(COMMENT, i, j)
                i = chunk = j
                continue
            if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
                emit(CODE, chunk, i)
                i = chunk = lex_string(i)
                continue
            if until_paren:
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        emit(CODE, chunk, i)
                        return i
                    depth -= 1
            i += 1
        emit(CODE, chunk, i)
        return i

    def lex_string(start: int) -> int:
        """Lexes a string literal from its opening delimiter; returns the index after its closing one."""
        m = re.match(r'(#*)("""|")', text[start:])
        hashes, quote = m.group(1), m.group(2)
        close = quote + hashes
        escape = "\\" + hashes
        i = start + len(m.group(0))
        chunk = start
        while i < n:
            if text.startswith(close, i):
                i += len(close)
                emit(STRING, chunk, i)
                return i
            if text.startswith(escape, i):
                after = i + len(escape)
                if after < n and text[after] == "(":
                    emit(STRING, chunk, after + 1)
                    end = lex_code(after + 1, until_paren=True)
                    chunk = end  # the ")" belongs to the string
                    i = end + 1
                    continue
                i = after + 1
                continue
            if quote == '"' and text[i] == "\n":
                break  # unterminated single-line string: stop here
            i += 1
        emit(STRING, chunk, i)
        return i

    pos = lex_code(0, until_paren=False)
    assert pos == n
    assert "".join(t for _, t in segments) == text
    return segments


# ---------------------------------------------------------------------------------------------------------------------
# Renaming
# ---------------------------------------------------------------------------------------------------------------------

ID_BOUNDARY = re.compile(r"(?<=[a-z0-9])Id(?=s?(?:[A-Z0-9_]|$))")


def id_rule(name: str) -> str:
    if name in ID_RULE_EXCEPTIONS:
        return name
    return ID_BOUNDARY.sub("ID", name)


class Renamer:
    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def identifier(self, name: str) -> str:
        bare = name.strip("`")
        new = self.renames.get(bare)
        if new is None:
            new = id_rule(bare)
        return name.replace(bare, new) if new != bare else name

    def code(self, text: str, plugin_words: bool) -> str:
        def sub(m: re.Match[str]) -> str:
            word = m.group(0)
            new = self.identifier(word)
            if plugin_words and new == word:
                new = plugin_word(word)
            return new

        return IDENT.sub(sub, text)

    def prose(self, text: str, plugin_words: bool) -> str:
        """Prose names both Swift symbols and data (JSON keys, event properties, HTTP fields), so it renames only
        what is clearly Swift: ``DocC links``, type names (capitalized), the names of the RENAMES table, argument
        labels in a signature or call (`identify(userId:)`, `f(a: 1, placeholderId: "x")`) and parameter docs
        (`- placeholderId:`). Quoted words, bare or backticked lowercase words (`userId`) and member paths stay.
        """
        parts = re.split(r'("[^"\n]*"|``[^`\n]+``)', text)
        for k, part in enumerate(parts):
            if part.startswith("``"):
                parts[k] = self.code(part, plugin_words)
            elif not part.startswith('"'):
                parts[k] = self.prose_words(part, plugin_words)
        return "".join(parts)

    def prose_words(self, text: str, plugin_words: bool) -> str:
        def sub(m: re.Match[str]) -> str:
            word = m.group(0)
            bare = word.strip("`")
            before = text[: m.start()]
            after = text[m.end() : m.end() + 1]
            swift = (
                bare in self.renames
                or bare[:1].isupper()
                or (after == ":" and re.search(r"[(,]\s?$", before))
                or (after == ":" and re.search(r"(^|\n)[ \t]*(///?)?[ \t]*- (Parameter )?$", before))
            )
            new = self.identifier(word) if swift else word
            if plugin_words and new == word:
                new = plugin_word(word)
            return new

        return IDENT.sub(sub, text)

    def comment(self, text: str, plugin_words: bool) -> str:
        # Symbols in prose; words in double quotes are quoted data (keys, literals) and stay.
        parts = re.split(r'("[^"\n]*")', text)
        for k in range(0, len(parts), 2):
            parts[k] = self.code(parts[k], plugin_words)
        return "".join(parts)


def plugin_word(word: str) -> str:
    """"observer" meaning a dispatcher plugin, in files that have no other kind of observer."""
    table = {
        "observer": "plugin", "observers": "plugins", "Observer": "Plugin", "Observers": "Plugins",
    }
    bare = word.strip("`")
    return word.replace(bare, table[bare]) if bare in table else word


def apply_spelling(text: str) -> str:
    for pattern, replacement in SPELLING:
        text = re.sub(pattern, replacement, text)
    return text


def fix_raw_value_enums(text: str, renamer: Renamer, original: str) -> str:
    """In CodingKey / String raw-value enums, a renamed case keeps its old raw value."""
    out = []
    pos = 0
    for m in re.finditer(r"\benum\s+\w+\s*:\s*([^{]*)\{", text):
        conformances = m.group(1)
        if not re.search(r"\b(String|CodingKey)\b", conformances):
            continue
        body_start = m.end()
        body_end = matching_brace(text, body_start - 1)
        body = text[body_start:body_end]
        new_body = re.sub(
            r"^([ \t]*)case\s+([^\n{}]*)",
            lambda cm: pin_cases(cm.group(1), cm.group(2), renamer) or cm.group(0),
            body,
            flags=re.M,
        )
        out.append(text[pos:body_start])
        out.append(new_body)
        pos = body_end
    out.append(text[pos:])
    return "".join(out)


def pin_cases(indent: str, cases: str, renamer: Renamer) -> str | None:
    """`case campaignId, goal` → `case campaignID = "campaignId"` and `case goal` (a raw value needs its own case
    line); cases with a raw value or a payload already are left alone. None when nothing changes."""
    if "(" in cases or "//" in cases or "=" in cases:
        return None
    names = [item.strip() for item in cases.split(",")]
    if not all(re.fullmatch(r"`?[A-Za-z_][A-Za-z0-9_]*`?", name) for name in names):
        return None
    pinned = [name for name in names if renamer.identifier(name) != name]
    if not pinned:
        return None
    lines = [f'{indent}case {renamer.identifier(name)} = "{name.strip("`")}"' for name in pinned]
    rest = [name for name in names if name not in pinned]
    if rest:
        lines.append(f"{indent}case " + ", ".join(rest))
    return "\n".join(lines)


def matching_brace(text: str, open_index: int) -> int:
    """Index of the `}` closing the `{` at `open_index`, skipping strings and comments."""
    depth = 0
    i = open_index
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == '"':
            if text.startswith('"""', i):
                j = text.find('"""', i + 3)
                i = n if j < 0 else j + 3
                continue
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


TYPE_DECL = re.compile(r"\b(struct|class|enum|actor)\s+(\w+)\s*(?:<[^>{]*>)?\s*:\s*([^{]*)\{")


def pin_synthesized_coding_keys(text: str, renamer: Renamer) -> str:
    """A synthesized-Codable type whose stored properties get renamed gets an explicit CodingKeys enum."""
    inserts: list[tuple[int, str]] = []
    for m in TYPE_DECL.finditer(text):
        if not re.search(r"\b(Codable|Decodable|Encodable)\b", m.group(3)):
            continue
        open_index = m.end() - 1
        close_index = matching_brace(text, open_index)
        body = text[open_index + 1 : close_index]
        top = top_level(body)
        if re.search(r"\benum\s+CodingKeys\b", top) or re.search(r"\binit\s*\(\s*from\s+decoder", top):
            continue
        if m.group(1) == "enum":
            # A synthesized-Codable enum keys its payloads by their labels: say so rather than guess.
            labels = re.findall(r"(\w+)\s*:", " ".join(re.findall(r"\bcase\s+\w+\(([^)]*)\)", top)))
            if any(renamer.identifier(label) != label for label in labels):
                print(f"warning: {m.group(2)} is a synthesized-Codable enum with renamed payload labels: pin them")
            continue
        props = stored_properties(top)
        if not any(renamer.identifier(p) != p for p in props):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        indent = re.match(r"[ \t]*", text[line_start:]).group(0) + "    "
        close_line = text.rfind("\n", 0, close_index) + 1
        if text[close_line:close_index].strip():
            print(f"warning: cannot pin the coding keys of {m.group(2)} (closing brace not on its own line)")
            continue
        items = [f'{p} = "{p}"' if renamer.identifier(p) != p else p for p in props]
        cases = "".join(f"{indent}    case {item}\n" for item in items)  # swift-format: OneCasePerLine
        enum = f"\n{indent}private enum CodingKeys: String, CodingKey {{\n{cases}{indent}}}\n"
        inserts.append((close_line, enum))
    for index, enum in sorted(inserts, reverse=True):
        text = text[:index] + enum + text[index:]
    return text


def top_level(body: str) -> str:
    """The body's text at brace depth 0 (nested types and function bodies removed)."""
    out = []
    depth = 0
    i = 0
    while i < len(body):
        c = body[i]
        if c == "{":
            if depth == 0:
                out.append("{}")
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return "".join(out)


def stored_properties(top: str) -> list[str]:
    props = []
    for line in top.split("\n"):
        s = re.sub(r"//.*", "", line).strip()
        m = re.match(
            r"(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|nonisolated"
            r"|private\(set\)|public\(set\)|internal\(set\)|fileprivate\(set\)|package\(set\))\s+)*"
            r"(let|var)\s+(.*)$",
            s,
        )
        if not m or re.search(r"\bstatic\b|\bclass\b|\blazy\b", s.split(m.group(1))[0]):
            continue
        rest = m.group(2)
        if rest.endswith("{}") and "=" not in rest:
            continue  # computed
        name = re.match(r"`?(\w+)`?\s*[:=]", rest)
        if name:
            props.append(name.group(1))
    return props


def rename_dispatcher_labels(text: str, plugin_file: bool, real_observer_file: bool = False) -> str:
    """`add(observer:)`/`remove(observer:)` become `add(plugin:)`/`remove(plugin:)` on the dispatcher only."""
    # Declarations: `func add(observer: any ActionDispatch…)`.
    local = "plugin" if plugin_file else "plugin observer"
    text = re.sub(
        r"\bfunc (add|remove)\(observer: any (ActionDispatch\w*)\)",
        lambda m: f"func {m.group(1)}({local}: any {m.group(2)})",
        text,
    )

    def call(m: re.Match[str]) -> str:
        receiver = m.group(1) or ""
        if re.search(KEEP_OBSERVER_RECEIVERS, receiver) or (not receiver and real_observer_file):
            return m.group(0)
        return f"{receiver}{m.group(2)}({m.group(3)}plugin{m.group(4)}:"

    return re.sub(
        r"([\w.?()\]\[]*\.)?\b(add|remove)\((\s*)observer(\s*):(?!\s*any\s+(?!ActionDispatch))", call, text
    )


def rename_labels(text: str) -> str:
    for callee, old, new, _ in LABEL_RENAMES:
        text = re.sub(r"(\b" + callee + r"\((?:[^()]|\([^()]*\))*?\b)" + old + r"(\s*:)", r"\1" + new + r"\2", text)
    return text


def rename_parameters(text: str, functions: set[str]) -> str:
    """PARAMETER_RENAMES: the label in declarations and calls, and the name inside those functions' bodies."""
    for type_name, old, new in PARAMETER_RENAMES:
        # Declarations: `old: TypeName` in a func signature; rename the body's uses of `old` too.
        decl = re.compile(r"\bfunc\s+(\w+)\s*(?:<[^>]*>)?\(([^()]*?)\b" + old + r"(\s*:\s*" + type_name + r"\b)")
        while True:
            m = decl.search(text)
            if not m:
                break
            # The body first (its positions come after the label), then the label, then the doc comment above.
            brace = text.find("{", m.end())
            sig_rest = text[m.end() : brace if brace >= 0 else len(text)]
            if brace >= 0 and not re.search(r"\n\s*(func|var|let|case|}|@)", sig_rest):
                close = matching_brace(text, brace)
                body = re.sub(r"(?<![.\w])" + old + r"\b(?!\s*:(?!:))", new, text[brace:close])
                text = text[:brace] + body + text[close:]
            start_label = m.start(3) - len(old)
            text = text[:start_label] + new + text[m.start(3) :]
            line_start = text.rfind("\n", 0, m.start()) + 1
            doc_start = line_start
            while doc_start > 0:
                prev = text.rfind("\n", 0, doc_start - 1) + 1
                if not re.match(r"\s*(///|@)", text[prev:doc_start]):
                    break
                doc_start = prev
            doc = re.sub(r"(- (?:Parameter )?)" + old + r":", r"\g<1>" + new + ":", text[doc_start:line_start])
            text = text[:doc_start] + doc + text[line_start:]
        # Calls: `name(… old: …)` for the functions that declare it.
        for fn in functions:
            text = re.sub(
                r"(\b" + fn + r"\((?:[^()]|\([^()]*\))*?\b)" + old + r"(\s*:)",
                r"\1" + new + r"\2",
                text,
            )
    return text


# ---------------------------------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------------------------------


def repo_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def files_to_scan(root: str) -> list[str]:
    found = []
    for d in SCAN_DIRS:
        for base, dirs, files in os.walk(os.path.join(root, d)):
            dirs[:] = [x for x in dirs if not x.startswith(".build")]
            for f in files:
                if f.endswith(".swift") or (f.endswith(".md") and ".docc" in base):
                    found.append(os.path.join(base, f))
    for f in SCAN_FILES:
        p = os.path.join(root, f)
        if os.path.exists(p):
            found.append(p)
    return sorted(found)


def is_plugin_file(text: str, path: str = "") -> bool:
    mentions = any(p in text for p in PLUGIN_PROTOCOLS) or re.search(r"dispatcher\??\.(add|remove)\(observer", text)
    mentions = mentions or any(d in path.replace(os.sep, "/") for d in PLUGIN_WORD_DIRS)
    return bool(mentions) and not any(o in text for o in REAL_OBSERVERS)


def plugin_type_renames(texts: dict[str, str]) -> dict[str, str]:
    """Types named …Observer(s) declared as conforming to the dispatcher's plugin protocol: …Plugin(s)."""
    found = {}
    for text in texts.values():
        for m in TYPE_DECL.finditer(text):
            name, conformances = m.group(2), m.group(3)
            if "Observer" in name and any(p in conformances for p in PLUGIN_PROTOCOLS):
                found[name] = name.replace("Observer", "Plugin")
    return found


def parameter_functions(texts: dict[str, str]) -> set[str]:
    functions = set()
    for text in texts.values():
        for type_name, old, new in PARAMETER_RENAMES:
            types = "|".join([type_name] + [o for o, n, _ in RENAMES if n == type_name])
            for label in (old, new):
                pattern = r"\bfunc\s+(\w+)\s*(?:<[^>]*>)?\([^()]*?\b" + label + r"\s*:\s*(?:" + types + r")\b"
                functions.update(re.findall(pattern, text))
    return functions


def rewrite_swift(text: str, renamer: Renamer, plugin_file: bool, functions: set[str]) -> str:
    original = text
    real_observer_file = any(o in text for o in REAL_OBSERVERS)
    text = pin_synthesized_coding_keys(text, renamer)
    text = fix_raw_value_enums(text, renamer, original)
    out = []
    in_fence = False  # a ``` code block inside doc comments: code, renamed as code (strings kept)
    for kind, segment in lex_swift(text):
        if kind == CODE:
            segment = rename_dispatcher_labels(segment, plugin_file, real_observer_file)
            segment = renamer.code(segment, plugin_file)
        elif kind == COMMENT:
            fence = "```" in segment
            segment = rename_dispatcher_labels(segment, plugin_file, real_observer_file)
            if in_fence and not fence:
                segment = renamer.comment(segment, plugin_file)
            else:
                segment = renamer.prose(segment, plugin_file)
            if fence:
                in_fence = not in_fence if segment.count("```") % 2 else in_fence
        out.append(segment)
    text = apply_spelling("".join(out))
    text = rename_parameters(text, functions)
    text = rename_labels(text)
    return text


def rewrite_markdown(text: str, renamer: Renamer, functions: set[str]) -> str:
    out = []
    for block in re.split(r"(^```[^\n]*\n.*?^```[ \t]*$)", text, flags=re.M | re.S):
        if block.startswith("```"):
            header = block.split("\n", 1)[0]
            if header.strip() == "```swift":
                block = rewrite_swift(block, renamer, is_plugin_file(block), functions)
            else:
                block = apply_spelling(block)
        else:
            # Prose: backticked symbols and symbol links; quoted words are data and stay.
            block = rename_dispatcher_labels(block, False)
            block = renamer.prose(block, False)
            block = rename_labels(apply_spelling(block))
        out.append(block)
    return "".join(out)


ALIAS_BEGIN = "    // Fixed-name aliases (generated"
ALIAS_END = "    // End of fixed-name aliases.\n"


def strip_protocol_requirement_aliases(text: str) -> str:
    start = text.find(ALIAS_BEGIN)
    if start < 0:
        return text
    end = text.find(ALIAS_END, start) + len(ALIAS_END)
    return text[:start].rstrip("\n") + "\n" + text[end:]


def add_protocol_requirement_aliases(text: str) -> str:
    for protocol, requirements in PROTOCOL_REQUIREMENT_ALIASES.items():
        m = re.search(r"\bprotocol\s+" + protocol + r"\b[^{]*\{", text)
        if not m:
            continue
        close = matching_brace(text, m.end() - 1)
        body = text[m.end() : close].rstrip("\n") + "\n\n" + requirements
        text = text[: m.end()] + body + text[close:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="list the files that would change")
    parser.add_argument("--check", action="store_true", help="exit 1 when something is left to rename")
    parser.add_argument("--table", action="store_true", help="print the rename table and the Id renames found")
    args = parser.parse_args()
    root = repo_root()

    paths = files_to_scan(root)
    texts = {p: open(p, encoding="utf-8").read() for p in paths}
    alias_paths = {os.path.join(root, module, ALIAS_FILE_NAME) for module in FIXED_NAME_ALIASES}
    alias_paths |= {os.path.join(root, fixture) for fixture in OLD_SPELLING_FIXTURES}

    renames = {old: new for old, new, _ in RENAMES}
    declared = {m.group(2) for text in texts.values() for m in TYPE_DECL.finditer(text)}
    discovered = {}
    for old, new in plugin_type_renames(texts).items():
        if old in renames:
            continue
        if new in declared:
            print(f"warning: {old} is not renamed: {new} exists; add it to RENAMES with another name")
            continue
        discovered[old] = new
    renames.update(discovered)
    renamer = Renamer(renames)
    functions = parameter_functions(texts)
    functions |= {renamer.identifier(f) for f in functions}

    changed: dict[str, str] = {}
    for path, text in texts.items():
        if path in alias_paths:
            continue
        if path.endswith(".swift"):
            stripped = strip_protocol_requirement_aliases(text)
            new = rewrite_swift(stripped, renamer, is_plugin_file(stripped, path), functions)
            new = add_protocol_requirement_aliases(new)
        else:
            new = rewrite_markdown(text, renamer, functions)
        if new != text:
            changed[path] = new

    moves = []
    for path in paths:
        base = os.path.basename(path)
        stem, ext = os.path.splitext(base)
        if ext == ".swift" and path not in alias_paths:
            new_stem = re.sub(r"^[A-Za-z0-9_]+", lambda m: renamer.identifier(m.group(0)), stem)
            if new_stem != stem:
                moves.append((path, os.path.join(os.path.dirname(path), new_stem + ext)))

    aliases = {}
    for module, content in FIXED_NAME_ALIASES.items():
        if os.path.isdir(os.path.join(root, module)):
            path = os.path.join(root, module, ALIAS_FILE_NAME)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != content:
                aliases[path] = content

    if args.table:
        for old, new, reason in RENAMES:
            print(f"{old} → {new}: {reason}")
        for old, new in sorted(discovered.items()):
            print(f"{old} → {new}: a dispatcher plugin named …Observer")
        for callee, old, new, reason in LABEL_RENAMES:
            print(f"{callee}({old}:) → {callee}({new}:): {reason}")
        for type_name, old, new in PARAMETER_RENAMES:
            print(f"parameter {old}: {type_name} → {new}: {type_name}")
        ids = set()
        for path, text in texts.items():
            if path.endswith(".swift") and path not in alias_paths:
                for kind, segment in lex_swift(text):
                    if kind == CODE:
                        ids.update(w for w in IDENT.findall(segment) if id_rule(w.strip("`")) != w.strip("`"))
        print("Id → ID:", ", ".join(f"{w} → {id_rule(w)}" for w in sorted(ids)) or "none left")
        return 0
    if discovered:
        print("plugin types found:", ", ".join(f"{k} → {v}" for k, v in sorted(discovered.items())))
    if args.dry_run or args.check:
        for path in sorted(changed):
            print("would rewrite", os.path.relpath(path, root))
        for old, new in moves:
            print("would move", os.path.relpath(old, root), "→", os.path.relpath(new, root))
        for path in sorted(aliases):
            print("would write", os.path.relpath(path, root))
        return 1 if args.check and (changed or moves or aliases) else 0

    for path, text in changed.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    for path, text in aliases.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    for old, new in moves:
        if subprocess.run(["git", "-C", root, "mv", old, new], capture_output=True).returncode != 0:
            os.rename(old, new)
    print(f"rewrote {len(changed)} files, moved {len(moves)}, wrote {len(aliases)} alias files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
