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
///   links from navigating (a click a script dispatches as not cancelable cannot be cancelled, so the link it
///   targets loses its `href` until the dispatch is over), cancels form submission, and pins `window.open` to a
///   function that opens nothing;
/// - keeps its guard in place: it pins `document.open`, `write` and `writeln` to functions that change nothing
///   (they would replace the document and drop its listeners), and watches the document with a
///   `MutationObserver` that puts the listeners back should the document be replaced all the same;
/// - sees into shadow roots: `attachShadow` always makes an open root, `setHTMLUnsafe` and
///   `Document.parseHTMLUnsafe` parse without declarative shadow roots (the content's own markup has its
///   `shadowrootmode` attributes defused, see ``defusingDeclarativeShadowRoots(_:)``), and a click is resolved
///   along its composed path, so a link inside a shadow root is cancelled and reported like any other;
/// - guards every same-origin frame (an `about:blank` frame the page writes into) as it guards the document: the
///   same listeners, pins and observer, put in place when the frame loads (synchronously, for `about:blank`), when
///   a script reads the frame's `contentWindow` or `contentDocument`, and whenever the document changes.
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
          var getPrototype = Object.getPrototypeOf;
          var listen = EventTarget.prototype.addEventListener;
          var cancel = Event.prototype.preventDefault;
          var stop = Event.prototype.stopPropagation;
          var composedPath = Event.prototype.composedPath;
          var typeGetter = getter(Event.prototype, "type");
          var cancelableGetter = getter(Event.prototype, "cancelable");
          var targetGetter = getter(Event.prototype, "target");
          var nodeTypeGetter = getter(Node.prototype, "nodeType");
          var textGetter = getter(Node.prototype, "textContent");
          var closest = Element.prototype.closest;
          var matches = Element.prototype.matches;
          var getAttribute = Element.prototype.getAttribute;
          var hasAttribute = Element.prototype.hasAttribute;
          var removeElement = Element.prototype.remove;
          var removeAttribute = Element.prototype.removeAttribute;
          var setAttribute = Element.prototype.setAttribute;
          var settled = Promise.resolve();
          var then = Promise.prototype.then;
          var attachShadow = Element.prototype.attachShadow;
          function setter(prototype, name) {
            var property = prototype ? describe(prototype, name) : undefined;
            return property ? property.set : undefined;
          }
          var elementHTMLSetter = setter(Element.prototype, "innerHTML");
          var shadowHTMLSetter = setter(win.ShadowRoot && ShadowRoot.prototype, "innerHTML");
          var DOMParserClass = win.DOMParser;
          var parseFromString = DOMParserClass.prototype.parseFromString;
          var querySelectorAll = Document.prototype.querySelectorAll;
          var listLengthGetter = getter(NodeList.prototype, "length");
          var iframeWindowGetter = getter(HTMLIFrameElement.prototype, "contentWindow");
          var frameWindowGetter = win.HTMLFrameElement ? getter(HTMLFrameElement.prototype, "contentWindow") : undefined;
          var ObserverClass = win.MutationObserver;
          var observe = ObserverClass.prototype.observe;
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
          var clickPath = null;
          function isElement(node) {
            try { return read(nodeTypeGetter, node) === 1; } catch (error) { return false; }
          }
          function nearest(element, selector) {
            var path = clickPath;
            var index = 0;
            while (path && index < path.length && path[index] !== element) { index += 1; }
            if (!path || index === path.length) { return apply(closest, element, [selector]); }
            for (; index < path.length; index += 1) {
              if (isElement(path[index]) && apply(matches, path[index], [selector])) { return path[index]; }
            }
            return null;
          }
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
        \(reporting)
          function onClick(event) {
            var path = apply(composedPath, event, []);
            var element = null;
            for (var index = 0; index < path.length && !element; index += 1) {
              if (isElement(path[index])) { element = path[index]; }
            }
            if (!element) { return; }
            clickPath = path;
            try {
              var link = nearest(element, "a,area");
              if (link) {
                apply(cancel, event, []);
                if (!read(cancelableGetter, event)) { holdLink(link); }
              }
              if (!event.isTrusted || read(typeGetter, event) !== "click") { return; }
              if (report(element)) {
                apply(cancel, event, []);
                if (stopsReportedClicks) { apply(stop, event, []); }
              }
            } finally {
              clickPath = null;
            }
          }
          // A click that cannot be cancelled (a script's `dispatchEvent(new MouseEvent("click"))`) would still follow
          // the link once dispatched: the link loses its href until the dispatch is over (a microtask runs only
          // after it), so it has nowhere to go, and gets it back then.
          function holdLink(link) {
            var href = attribute(link, "href");
            if (href === null) { return; }
            apply(removeAttribute, link, ["href"]);
            apply(then, settled, [function () { apply(setAttribute, link, ["href", href]); }]);
          }
          function cancelSubmit(event) { apply(cancel, event, []); }
          function pin(object, name, value) {
            try {
              defineProperty(object, name, { value: value, writable: false, configurable: false });
            } catch (error) {
              try { object[name] = value; } catch (ignored) {}
            }
          }
          var openNothing = function () { return null; };
          var keepDocument = function () { return this; };
          var writeNothing = function () {};
          var attachOpenShadow = function (init) {
            var options = createObject(null);
            if (init !== null && typeof init === "object") {
              options.delegatesFocus = init.delegatesFocus;
              options.slotAssignment = init.slotAssignment;
              options.clonable = init.clonable;
              options.serializable = init.serializable;
            }
            options.mode = "open";
            return apply(attachShadow, this, [options]);
          };
          var setElementHTML = function (html) { apply(elementHTMLSetter, this, [html]); };
          var setShadowHTML = function (html) { apply(shadowHTMLSetter, this, [html]); };
          var parseHTML = function (html) { return apply(parseFromString, new DOMParserClass(), [html, "text/html"]); };
          function pinDocument(object, always) {
            if (always || describe(object, "open")) { pin(object, "open", keepDocument); }
            if (always || describe(object, "write")) { pin(object, "write", writeNothing); }
            if (always || describe(object, "writeln")) { pin(object, "writeln", writeNothing); }
          }
          function frameGetters(getWindow) {
            var windowOf = function () {
              var frame = read(getWindow, this);
              if (frame) { guard(frame); }
              return frame;
            };
            var documentOf = function () {
              var frame = apply(windowOf, this, []);
              try { return frame ? frame.document : null; } catch (error) { return null; }
            };
            return { windowOf: windowOf, documentOf: documentOf };
          }
          var iframeGetters = frameGetters(iframeWindowGetter);
          var frameElementGetters = frameWindowGetter ? frameGetters(frameWindowGetter) : null;
          function pinGetters(prototype, getters) {
            try {
              defineProperty(prototype, "contentWindow", { get: getters.windowOf, configurable: false });
              defineProperty(prototype, "contentDocument", { get: getters.documentOf, configurable: false });
            } catch (error) {}
          }
          function pinRealm(frame, doc) {
            pin(frame, "open", openNothing);
            try { pinGetters(frame.HTMLIFrameElement.prototype, iframeGetters); } catch (error) {}
            if (frameElementGetters) {
              try { pinGetters(frame.HTMLFrameElement.prototype, frameElementGetters); } catch (error) {}
            }
            pinDocument(doc, true);
            for (var object = getPrototype(doc); object; object = getPrototype(object)) { pinDocument(object, false); }
            try {
              pin(frame.Element.prototype, "attachShadow", attachOpenShadow);
              pin(frame.Element.prototype, "setHTMLUnsafe", setElementHTML);
              pin(frame.ShadowRoot.prototype, "setHTMLUnsafe", setShadowHTML);
              pin(frame.Document, "parseHTMLUnsafe", parseHTML);
            } catch (error) {}
          }
          function contentWindowOf(node) {
            try { return read(iframeWindowGetter, node); } catch (error) {}
            try { return frameWindowGetter ? read(frameWindowGetter, node) : null; } catch (error) {}
            return null;
          }
          var observer = new ObserverClass(function () { guard(win); });
          var observed = createObject(null);
          observed.childList = true;
          observed.subtree = true;
          function onLoad(event) {
            var frame = contentWindowOf(read(targetGetter, event));
            if (frame) { guard(frame); }
          }
          function guard(frame) {
            var doc;
            try { doc = frame.document; } catch (error) { return; }
            if (!doc) { return; }
            apply(listen, frame, ["click", onClick, true]);
            apply(listen, frame, ["auxclick", onClick, true]);
            apply(listen, frame, ["submit", cancelSubmit, true]);
            apply(listen, doc, ["load", onLoad, true]);
            pinRealm(frame, doc);
            try { apply(observe, observer, [doc, observed]); } catch (error) {}
            var frames = apply(querySelectorAll, doc, ["iframe,frame"]);
            var count = read(listLengthGetter, frames);
            for (var index = 0; index < count; index += 1) {
              var child = contentWindowOf(frames[index]);
              if (child && child !== frame) { guard(child); }
            }
          }
          guard(win);
        })();
        """
    }

    /// `html` with every `shadowrootmode` attribute renamed (to `data-actuate-defused-shadowrootmode`), so that a
    /// `<template shadowrootmode="closed">` stays an inert template instead of a shadow root the bridge cannot see
    /// into. The bridge makes every root that scripts attach open; the parser's declarative roots are defused here.
    static func defusingDeclarativeShadowRoots(_ html: String) -> String {
        html.replacingOccurrences(
            of: "shadowrootmode",
            with: "data-actuate-defused-shadowrootmode",
            options: .caseInsensitive
        )
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
