import Testing

/// A hostile page script for the browser-engine suites that goes after the bridge's token, put at the start of
/// the content so that it runs before the user clicks anything. It
/// - posts well-formed messages straight through `window.webkit.messageHandlers`, without a token and with
///   guessed ones (each carries `"thief":"forged"`, so a test can tell them apart);
/// - dumps `document.scripts`, `document.documentElement.outerHTML` and the source of `window.open`, once while
///   the page is parsed and once it is loaded (`dump: …` messages);
/// - replaces what a bridge could call when it posts: the handler's `postMessage` (on the handler and on its
///   prototype), `Function.prototype.apply`, `call` and `bind`, `Reflect.apply`, `JSON.stringify`,
///   `Object.create` and `keys`, the `Element`, `String`, `Event`, `Node` and `URL` methods and getters, and
///   defines `Object.prototype.toJSON` and an accessor `Object.prototype.token`. Each replacement posts what it
///   was handed (`stolen: …` messages) and then does what the original does, so the page keeps working.
///
/// A sound bridge gives it nothing: no forged message is accepted, and no dump or stolen message holds the token.
struct TokenThief {
    /// The message handler the page's bridge posts to.
    let handler: String
    /// JavaScript object literals of well-formed messages it posts directly, each with every guess.
    let forgeries: [String]

    /// How many tokens it tries with each forged message: none, empty, all zeros, random.
    static let guesses = 4

    /// The `<script>` element.
    var script: String {
        let factories = forgeries.map { "function () { return \($0); }" }
        return """
            <script>
            (function () {
              "use strict";
              var handler = window.webkit.messageHandlers.\(handler);
              var realPost = handler.postMessage;
              var realApply = Reflect.apply;
              var realConstruct = Reflect.construct;
              var realStringify = JSON.stringify;
              var realSource = Function.prototype.toString;
              var define = Object.defineProperty;
              var describeProperty = Object.getOwnPropertyDescriptor;
              var outerHTML = describeProperty(Element.prototype, "outerHTML").get;
              var busy = false;
              function send(text) { try { realApply(realPost, handler, [text]); } catch (error) {} }
              function describe(value) {
                try {
                  if (typeof value === "function") { return "function " + realApply(realSource, value, []); }
                  if (value instanceof Element) { return "element " + realApply(outerHTML, value, []); }
                  if (value === window || value === document || value instanceof Node) { return "node"; }
                  var text = realStringify(value);
                  return text === undefined ? typeof value : text;
                } catch (error) {
                  return "<" + typeof value + ">";
                }
              }
              function leak(label, self, args) {
                if (busy) { return; }
                busy = true;
                try {
                  var text = "stolen: " + label + ": this " + describe(self) + "; arguments";
                  for (var index = 0; index < args.length; index += 1) { text += " " + describe(args[index]); }
                  send(text);
                } finally {
                  busy = false;
                }
              }
              function dump(moment) {
                var scripts = document.scripts;
                var texts = "";
                for (var index = 0; index < scripts.length; index += 1) { texts += "<script>" + scripts[index].text; }
                send("dump: " + moment + " document.scripts (" + scripts.length + "): " + texts);
                send("dump: " + moment + " outerHTML: " + document.documentElement.outerHTML);
                send("dump: " + moment + " window.open: " + describe(window.open));
              }
              function forge() {
                var random = "";
                for (var index = 0; index < 32; index += 1) { random += "0123456789abcdef".charAt(Math.floor(Math.random() * 16)); }
                var guesses = [null, "", "00000000000000000000000000000000", random];
                var forgeries = [\(factories.joined(separator: ", "))];
                for (var form = 0; form < forgeries.length; form += 1) {
                  for (var guess = 0; guess < guesses.length; guess += 1) {
                    var message = forgeries[form]();
                    message.thief = "forged";
                    if (guesses[guess] !== null) { message.token = guesses[guess]; }
                    send(realStringify(message));
                  }
                }
              }
              function spy(object, name, label) {
                var original = object[name];
                if (typeof original !== "function") { return; }
                var replacement = function () {
                  leak(label, this, arguments);
                  return new.target ? realConstruct(original, arguments, new.target) : realApply(original, this, arguments);
                };
                try { define(object, name, { value: replacement, writable: true, configurable: true }); } catch (error) {}
              }
              function spyGetter(object, name, label) {
                var property = describeProperty(object, name);
                if (!property || !property.get) { return; }
                var original = property.get;
                var replacement = function () {
                  leak(label, this, []);
                  return realApply(original, this, []);
                };
                try {
                  define(object, name, { get: replacement, set: property.set, enumerable: property.enumerable, configurable: true });
                } catch (error) {}
              }
              forge();
              dump("parsing");
              document.addEventListener("DOMContentLoaded", function () { dump("loaded"); });
              spy(handler, "postMessage", "handler.postMessage");
              spy(Object.getPrototypeOf(handler), "postMessage", "the handler prototype's postMessage");
              spy(Function.prototype, "apply", "Function.prototype.apply");
              spy(Function.prototype, "call", "Function.prototype.call");
              spy(Function.prototype, "bind", "Function.prototype.bind");
              spy(Reflect, "apply", "Reflect.apply");
              spy(JSON, "stringify", "JSON.stringify");
              spy(Object, "create", "Object.create");
              spy(Object, "keys", "Object.keys");
              spy(Element.prototype, "closest", "Element.prototype.closest");
              spy(Element.prototype, "getAttribute", "Element.prototype.getAttribute");
              spy(Element.prototype, "hasAttribute", "Element.prototype.hasAttribute");
              spy(String.prototype, "trim", "String.prototype.trim");
              spy(String.prototype, "slice", "String.prototype.slice");
              spy(Event.prototype, "preventDefault", "Event.prototype.preventDefault");
              spyGetter(Event.prototype, "target", "Event.prototype.target");
              spyGetter(Node.prototype, "textContent", "Node.prototype.textContent");
              spyGetter(URL.prototype, "href", "URL.prototype.href");
              spyGetter(URL.prototype, "protocol", "URL.prototype.protocol");
              define(Object.prototype, "toJSON", {
                value: function () { leak("Object.prototype.toJSON", this, arguments); return this; },
                writable: true, configurable: true
              });
              define(Object.prototype, "token", {
                get: function () { leak("Object.prototype.token getter", this, []); return undefined; },
                set: function (value) { leak("Object.prototype.token setter", this, [value]); },
                configurable: true
              });
            })();
            </script>
            """
    }

    /// Whether `message` is the thief's: a dump, something it stole, or a message it forged.
    static func isFromThief(_ message: BrowserEngine.Report.Message) -> Bool {
        let text = message.delivered
        return text.hasPrefix("dump: ") || text.hasPrefix("stolen: ") || text.contains(#""thief":"forged""#)
    }

    /// What the page posted that is not the thief's.
    static func withoutThief(_ messages: [BrowserEngine.Report.Message]) -> [BrowserEngine.Report.Message] {
        messages.filter { !isFromThief($0) }
    }

    /// The messages it forged, in order.
    static func forgeries(in report: BrowserEngine.Report) -> [BrowserEngine.Report.Message] {
        report.allMessages.filter { message in
            let text = message.delivered
            return !text.hasPrefix("dump: ") && !text.hasPrefix("stolen: ") && text.contains(#""thief":"forged""#)
        }
    }

    /// Checks that it learned nothing: its dumps, what it stole and the document's final markup do not hold
    /// `token`; and that it ran: both rounds of dumps arrived and saw the content, its spies were called, and the
    /// bridge's script was gone from the DOM.
    func expectNothingLeaked(
        _ report: BrowserEngine.Report,
        token: String,
        markerID: String = "actuate-marker",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(token.count == 32, "no token in the document", sourceLocation: sourceLocation)
        let texts = report.allMessages.map(\.delivered)
        let dumps = texts.filter { $0.hasPrefix("dump: ") }
        let stolen = texts.filter { $0.hasPrefix("stolen: ") }
        #expect(
            dumps.count == 6,
            "the thief's dumps did not all arrive: \(dumps.count)",
            sourceLocation: sourceLocation
        )
        #expect(
            dumps.contains { $0.hasPrefix("dump: loaded outerHTML:") && $0.contains(markerID) },
            "the dump of the loaded page does not show the content",
            sourceLocation: sourceLocation
        )
        #expect(
            dumps.contains { $0.hasPrefix("dump: parsing document.scripts") && $0.contains("realStringify") },
            "the dump of the scripts does not show the thief's own",
            sourceLocation: sourceLocation
        )
        #expect(!stolen.isEmpty, "the thief's spies were never called", sourceLocation: sourceLocation)
        for text in dumps + stolen {
            #expect(
                !text.contains(token),
                "the page learned the token: \(text.prefix(300))",
                sourceLocation: sourceLocation
            )
            #expect(
                !text.contains("var token"),
                "the page saw the bridge script: \(text.prefix(300))",
                sourceLocation: sourceLocation
            )
        }
        let documentText = report.documentText ?? ""
        #expect(
            documentText.contains(markerID),
            "the driver did not report the document",
            sourceLocation: sourceLocation
        )
        #expect(!documentText.contains(token), "the token is in the page's DOM", sourceLocation: sourceLocation)
        #expect(
            Self.forgeries(in: report).count == forgeries.count * Self.guesses,
            "the thief's forgeries did not all arrive",
            sourceLocation: sourceLocation
        )
    }
}
