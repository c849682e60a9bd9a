#!/usr/bin/env python3
"""Drives a real WebKitGTK engine (WebKit2 4.1 through python3-gi) for Actuate's bridge test.

    xvfb-run -a python3 Tests/Support/browser_bridge_driver.py SPEC.json

SPEC.json: {"html": PATH, "handler": "actuate", "clicks": ["element-id", ...], "markerId": "...",
            "timeoutSeconds": 60}

It loads the HTML file's text as a document (base URI about:blank), registers the bridge's message handler,
and clicks each element by id with real pointer events (a GDK button press and release at the element's
centre). Like a host app's surface, it never lets the page leave the document: every navigation after the
first load and every new window is refused, and recorded. JavaScript dialogs are recorded and dismissed.

It prints one line starting with "RESULT " followed by JSON:
  engine           the WebKitGTK version
  loaded           whether the document finished loading
  loadMessages     bridge messages posted before the load finished
  clicks           per click: id, delivered (whether the page saw the click), messages, navigations, dialogs
  lateMessages     bridge messages posted after the last click
  navigations      every navigation the page attempted after the first load (all refused)
  newWindows       every new window the page asked for (all refused)
  dialogs          every alert/confirm/prompt the page opened
  finalUri         the document's URI at the end
  markerPresent    whether the element markerId is still in the document at the end
  documentText     the document's markup at the end (document.documentElement.outerHTML)
  error            set when something went wrong
Each message is {"kind": "string", "text": ...} or {"kind": "other", "json": ...} for a body that is not a
string. It exits 0 when it could report, 3 when the engine timed out. Only Debian's python3-gi and
gir1.2-webkit2-4.1 are needed.
"""

import json
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gdk, GLib, Gtk, WebKit2  # noqa: E402

DRIVER_HANDLER = "actuateDriver"
CLICK_SPY = """
window.addEventListener("click", function (event) {
  var element = event.target && event.target.nodeType === 1 ? event.target : null;
  window.webkit.messageHandlers.%s.postMessage(JSON.stringify({ id: element ? element.id : "" }));
}, true);
""" % DRIVER_HANDLER


class Driver:
    def __init__(self, spec):
        self.spec = spec
        self.handler = spec.get("handler", "actuate")
        self.clicks_to_do = list(spec.get("clicks", []))
        self.result = {
            "engine": "%d.%d.%d" % (WebKit2.get_major_version(), WebKit2.get_minor_version(),
                                    WebKit2.get_micro_version()),
            "loaded": False, "loadMessages": [], "clicks": [], "lateMessages": [], "navigations": [],
            "newWindows": [], "dialogs": [], "finalUri": None, "markerPresent": False, "documentText": None,
        }
        self.sink = self.result["loadMessages"]
        self.current = None
        self.initial_load_allowed = False
        self.spied_click = None
        self.finished = False

        manager = WebKit2.UserContentManager()
        manager.connect("script-message-received::" + self.handler, self.on_bridge_message)
        manager.register_script_message_handler(self.handler)
        manager.connect("script-message-received::" + DRIVER_HANDLER, self.on_driver_message)
        manager.register_script_message_handler(DRIVER_HANDLER)
        manager.add_script(WebKit2.UserScript.new(
            CLICK_SPY, WebKit2.UserContentInjectedFrames.TOP_FRAME,
            WebKit2.UserScriptInjectionTime.START, None, None))
        self.view = WebKit2.WebView.new_with_user_content_manager(manager)
        self.view.connect("decide-policy", self.on_decide_policy)
        self.view.connect("create", self.on_create)
        self.view.connect("script-dialog", self.on_dialog)
        self.view.connect("load-changed", self.on_load_changed)
        self.view.connect("load-failed", self.on_load_failed)
        self.window = Gtk.Window()
        self.window.set_default_size(800, 600)
        self.window.add(self.view)
        self.window.show_all()

    # Engine callbacks

    def on_bridge_message(self, _manager, js_result):
        value = js_result.get_js_value()
        if value.is_string():
            self.sink.append({"kind": "string", "text": value.to_string()})
        else:
            self.sink.append({"kind": "other", "json": value.to_json(0)})

    def on_driver_message(self, _manager, js_result):
        self.spied_click = json.loads(js_result.get_js_value().to_string())

    def on_decide_policy(self, _view, decision, kind):
        if kind in (WebKit2.PolicyDecisionType.NAVIGATION_ACTION, WebKit2.PolicyDecisionType.NEW_WINDOW_ACTION):
            uri = decision.get_navigation_action().get_request().get_uri()
            if not self.initial_load_allowed and uri == "about:blank":
                self.initial_load_allowed = True
                decision.use()
                return True
            entry = {"uri": uri, "newWindow": kind == WebKit2.PolicyDecisionType.NEW_WINDOW_ACTION}
            self.result["navigations"].append(entry)
            if self.current is not None:
                self.current["navigations"].append(entry)
            decision.ignore()
            return True
        return False

    def on_create(self, _view, action):
        self.result["newWindows"].append(action.get_request().get_uri())
        return None

    def on_dialog(self, _view, dialog):
        entry = {"type": int(dialog.get_dialog_type()), "message": dialog.get_message()}
        self.result["dialogs"].append(entry)
        if self.current is not None:
            self.current["dialogs"].append(entry)
        return True

    def on_load_failed(self, _view, _event, uri, error):
        self.result["error"] = "load failed for %s: %s" % (uri, error.message)
        self.finish()
        return True

    def on_load_changed(self, _view, event):
        if event == WebKit2.LoadEvent.FINISHED and not self.result["loaded"]:
            self.result["loaded"] = True
            self.sink = self.result["lateMessages"]
            # Let the timers the page set while loading fire before the first click, so that what they do is
            # not taken for an effect of the click.
            GLib.timeout_add(300, lambda: self.settle(self.next_click) and False)

    # Steps

    def evaluate(self, script, then):
        def done(view, task):
            try:
                value = view.evaluate_javascript_finish(task)
                then(None if value is None or value.is_undefined() or value.is_null() else value.to_string())
            except GLib.Error as error:
                self.result["error"] = "script failed: %s" % error.message
                self.finish()
        self.view.evaluate_javascript(script, -1, None, None, None, done)

    def settle(self, then):
        """A script round trip: whatever the page posted before it has been received when it returns."""
        self.evaluate("'settled'", lambda _value: then())

    def next_click(self):
        if not self.clicks_to_do:
            self.current = None
            self.sink = self.result["lateMessages"]
            # Give timers the page set (a hostile redirect, say) a moment to fire, then look at the page.
            GLib.timeout_add(400, lambda: self.settle(self.inspect) and False)
            return
        element_id = self.clicks_to_do.pop(0)
        self.current = {"id": element_id, "delivered": False, "messages": [], "navigations": [], "dialogs": []}
        self.result["clicks"].append(self.current)
        self.sink = self.current["messages"]
        script = """(function () {
          var element = document.getElementById(%s);
          if (!element) { return null; }
          element.scrollIntoView({ block: "center", inline: "center" });
          var box = element.getBoundingClientRect();
          return JSON.stringify({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
        })()""" % json.dumps(element_id)
        self.evaluate(script, lambda value: self.click_at(value))

    def click_at(self, value):
        if value is None:
            self.current["error"] = "no such element"
            self.next_click()
            return
        point = json.loads(value)
        self.spied_click = None
        window = self.view.get_window()
        pointer = Gdk.Display.get_default().get_default_seat().get_pointer()
        for kind in (Gdk.EventType.BUTTON_PRESS, Gdk.EventType.BUTTON_RELEASE):
            event = Gdk.Event.new(kind)
            event.button.window = window
            event.button.x = point["x"]
            event.button.y = point["y"]
            event.button.button = 1
            event.button.time = Gtk.get_current_event_time()
            event.set_device(pointer)
            self.view.event(event)
        self.wait_for_click(50)

    def wait_for_click(self, tries_left):
        if self.spied_click is not None:
            self.current["delivered"] = True
            self.current["target"] = self.spied_click.get("id")
            self.settle(self.next_click)
        elif tries_left == 0:
            self.settle(self.next_click)
        else:
            GLib.timeout_add(40, lambda: self.wait_for_click(tries_left - 1) and False)

    def inspect(self):
        script = ("JSON.stringify({ uri: document.location.href, marker: !!document.getElementById(%s), "
                  "text: document.documentElement.outerHTML })") % json.dumps(self.spec.get("markerId", ""))

        def done(value):
            state = json.loads(value)
            self.result["finalUri"] = state["uri"]
            self.result["markerPresent"] = state["marker"]
            self.result["documentText"] = state["text"]
            self.finish()
        self.evaluate(script, done)

    def finish(self):
        if self.finished:
            return
        self.finished = True
        print("RESULT " + json.dumps(self.result), flush=True)
        Gtk.main_quit()


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    with open(spec["html"], encoding="utf-8") as handle:
        html = handle.read()
    driver = Driver(spec)

    timed_out = []

    def time_out():
        timed_out.append(True)
        driver.result["error"] = "timed out"
        driver.finish()
        return False

    GLib.timeout_add_seconds(int(spec.get("timeoutSeconds", 60)), time_out)
    driver.view.load_html(html, "about:blank")
    Gtk.main()
    return 3 if timed_out else 0


if __name__ == "__main__":
    sys.exit(main())
