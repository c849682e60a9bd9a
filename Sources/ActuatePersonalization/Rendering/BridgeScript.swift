import Foundation

/// The bridge script of a rendered document: the part content actions and content blocks share, around the
/// part that says what a click reports.
///
/// The document must hold it as its first script, in `<head>`, so that it runs before any script of the
/// content. It then:
/// - captures every function and accessor it relies on later (`Reflect.apply`, `JSON.stringify`,
///   `Object.create`, the handler and its `postMessage`, the DOM and `URL` methods and getters it reads) and calls
///   only the captured ones, so a page that replaces them afterwards (`handler.postMessage`,
///   `Function.prototype.call` and `apply`, `JSON.stringify`, a getter on a prototype) sees nothing;
/// - removes its own `<script>` element, so no later script finds the ``BridgeToken`` in the DOM;
/// - keeps the token in a local variable, and posts each message as the `JSON.stringify` of an object without
///   a prototype whose values are strings, so no `toJSON` or setter the page puts on `Object.prototype` runs with
///   the token in reach;
/// - cancels, without reporting it, every click that is not the user's (`element.click()`, `dispatchEvent`), keeps
///   links from navigating, cancels form submission, and pins `window.open` to a function that opens nothing.
///
/// The document's part is JavaScript that defines `function report(element)`: it is handed the element the user
/// clicked, posts what the click means with `post({ name: "value", … })` and returns whether it posted. It may
/// use the captured helpers `nearest(element, selector)`, `attribute(element, name)`, `has(element, name)`,
/// `textOf(element)`, `trimmed(text, limit)`, `resolvedURL(raw)` (the `href` and `protocol` of an absolute URL, or
/// null) and the constant `baseURI`.
struct BridgeScript {
    /// The message handler the script posts to, `window.webkit.messageHandlers.<handlerName>`.
    let handlerName: String
    /// The secret every message carries.
    let token: BridgeToken
    /// The document's part, which defines `report(element)`.
    let reporting: String
    /// Whether a click that `report` posted is also kept from the page's own listeners.
    let stopsReportedClicks: Bool

    /// The script's text, to put inside a `<script>` element.
    var text: String {
        """
        (function () {
          "use strict";
          var own = document.currentScript;
          var win = window;
          var apply = Reflect.apply;
          var stringify = JSON.stringify;
          var createObject = Object.create;
          var ownKeys = Object.keys;
          var defineProperty = Object.defineProperty;
          var describe = Object.getOwnPropertyDescriptor;
          function getter(prototype, name) {
            var property = describe(prototype, name);
            return property ? property.get : undefined;
          }
          var listen = EventTarget.prototype.addEventListener;
          var cancel = Event.prototype.preventDefault;
          var stop = Event.prototype.stopPropagation;
          var targetGetter = getter(Event.prototype, "target");
          var typeGetter = getter(Event.prototype, "type");
          var nodeTypeGetter = getter(Node.prototype, "nodeType");
          var parentGetter = getter(Node.prototype, "parentNode");
          var textGetter = getter(Node.prototype, "textContent");
          var closest = Element.prototype.closest;
          var getAttribute = Element.prototype.getAttribute;
          var hasAttribute = Element.prototype.hasAttribute;
          var removeElement = Element.prototype.remove;
          var URLClass = win.URL;
          var hrefGetter = getter(URLClass.prototype, "href");
          var protocolGetter = getter(URLClass.prototype, "protocol");
          var trim = String.prototype.trim;
          var slice = String.prototype.slice;
          var baseURI = document.baseURI;
          var handlers = win.webkit && win.webkit.messageHandlers;
          var handler = handlers ? handlers[\(Self.jsonLiteral(handlerName))] : null;
          var postMessage = handler ? handler.postMessage : null;
          var token = \(Self.jsonLiteral(token.text));
          var stopsReportedClicks = \(stopsReportedClicks);
          if (own) { apply(removeElement, own, []); }
          function read(get, object) { return apply(get, object, []); }
          function text(value) { return typeof value === "string" ? value : ""; }
          function nearest(element, selector) { return apply(closest, element, [selector]); }
          function attribute(element, name) {
            var value = apply(getAttribute, element, [name]);
            return typeof value === "string" ? value : null;
          }
          function has(element, name) { return apply(hasAttribute, element, [name]) === true; }
          function textOf(element) { return text(read(textGetter, element)); }
          function trimmed(value, limit) { return apply(slice, apply(trim, value, []), [0, limit]); }
          function resolvedURL(raw) {
            var url;
            try { url = new URLClass(raw, baseURI); } catch (error) { return null; }
            return { href: text(read(hrefGetter, url)), protocol: text(read(protocolGetter, url)) };
          }
          function post(fields) {
            if (!postMessage) { return; }
            var message = createObject(null);
            var names = ownKeys(fields);
            for (var index = 0; index < names.length; index += 1) {
              message[names[index]] = text(fields[names[index]]);
            }
            message.token = token;
            try { apply(postMessage, handler, [stringify(message)]); } catch (error) {}
          }
          function elementOf(node) {
            while (node && read(nodeTypeGetter, node) !== 1) { node = read(parentGetter, node); }
            return node || null;
          }
        \(reporting)
          function onClick(event) {
            var element = elementOf(read(targetGetter, event));
            if (!element) { return; }
            if (nearest(element, "a,area")) { apply(cancel, event, []); }
            if (!event.isTrusted || read(typeGetter, event) !== "click") { return; }
            if (report(element)) {
              apply(cancel, event, []);
              if (stopsReportedClicks) { apply(stop, event, []); }
            }
          }
          apply(listen, win, ["click", onClick, true]);
          apply(listen, win, ["auxclick", onClick, true]);
          apply(listen, win, ["submit", function (event) { apply(cancel, event, []); }, true]);
          var openNothing = function () { return null; };
          try {
            defineProperty(win, "open", { value: openNothing, writable: false, configurable: false });
          } catch (error) {
            win.open = openNothing;
          }
        })();
        """
    }

    /// `value` as a JSON literal, safe inside a script element.
    static func jsonLiteral<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        // `</script>` and `<!--` must not appear inside a script element.
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
