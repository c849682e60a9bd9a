#!/usr/bin/env python3
"""A loopback event collector for Actuate's upload tests.

It listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line.

    python3 Tests/Support/collector.py --script '["500", "503 Retry-After: 2", "drop", "slow"]'

Endpoints:
  POST /v1/batch          a batch {"batch": [events...], "sentAt": ...}, in Actuate's format (events with an "id")
                          or Segment's HTTP Tracking API format (track/identify messages with a "messageId",
                          an "anonymousId" or "userId", a "timestamp", and an "event" name for track); answered
                          by the next script entry, then 200 once the script is used up. Events are recorded,
                          deduplicated by "id" or "messageId", only when the answer is 2xx (and for "slow", which
                          records and then answers 200 late). A body that is not such JSON gets 400 and does not
                          use a script entry; a body shorter than its Content-Length, cut short in its chunks (or none) is counted as
                          "bodiless" and answered 400.
  POST /control/script    replaces the remaining script with the JSON list in the body.
  GET  /control/stats     {"requests", "unique", "duplicates", "malformed", "bodiless", "connections", "log", "ids",
                          "last..."}; add ?ids=0 to leave out the ids. Each log entry has the body's size in "bytes".
                          "connections" counts the client connections that carried at least one POST /v1/batch
                          (bodiless ones included), so that requests / connections shows how much the client reuses
                          its connections; each log entry names its connection's number in "connection".
                          "conflicts" counts duplicates whose content differs from the first copy recorded.
  GET  /control/events    the recorded events (or messages) as received, in order.
  POST /control/shutdown  stops the server.

Script entries: "200", "500", "413", "503 Retry-After: 2" (a status and at most one header), an object
{"status": 503, "headers": {"Retry-After": "2"}}, "drop" (close the connection without answering, whether the
client opened it for this request or reuses it from an earlier one), and
"slow" or "slow 3.5" (record the events, wait that many seconds, by default --slow-seconds, then answer 200),
and "malformed 200" (answer that status with a body that is not JSON; the events are recorded for a 2xx).

With --record-dir DIR, the body of every batch whose events are recorded is also written, as received, to its own
file DIR/batch-NNNNNN.json (numbered in the order they were recorded), repeats included: the files a real collector
would hand to `actuate stats` and `actuate export`.

It stops by itself after --max-seconds, when its parent process dies, and when its standard input reaches
end of file (the test process holds the other end of that pipe), unless --keep-stdin is given.
Only the Python 3 standard library is used.
"""

import gc
import json
import os
import sys
import time
from urllib.parse import parse_qs, urlparse

import loopback_server


class Collector(loopback_server.ServerState):
    """The collector's state, shared by the handler threads behind one lock."""

    def __init__(self, script, slow_seconds, record_dir=None):
        super().__init__()
        self.record_dir = record_dir
        self.recorded_batches = 0
        self.script = list(script)
        self.slow_seconds = slow_seconds
        self.events = {}
        self.order = []
        self.duplicates = 0
        self.conflicts = 0
        self.requests = 0
        self.malformed = 0
        self.bodiless = 0
        self.connections = 0
        self.log = []
        self.last_authorization = None
        self.last_content_type = None
        self.last_sent_at = None
        self.started = time.monotonic()

    def next_action(self):
        with self.lock:
            self.requests += 1
            return parse_action(self.script.pop(0)) if self.script else {"kind": "status", "status": 200, "headers": {}}

    def record(self, events, body=None):
        with self.lock:
            if self.record_dir is not None and body is not None:
                self.recorded_batches += 1
                path = os.path.join(self.record_dir, "batch-%06d.json" % self.recorded_batches)
                with open(path, "wb") as handle:
                    handle.write(body)
            for event in events:
                event_id = event_key(event)
                if event_id in self.events:
                    self.duplicates += 1
                    if self.events[event_id] != event:
                        self.conflicts += 1
                else:
                    self.events[event_id] = event
                    self.order.append(event_id)

    def stats(self, include_ids):
        with self.lock:
            result = {
                "requests": self.requests,
                "unique": len(self.order),
                "duplicates": self.duplicates,
                "conflicts": self.conflicts,
                "malformed": self.malformed,
                "bodiless": self.bodiless,
                "connections": self.connections,
                "log": list(self.log),
                "lastAuthorization": self.last_authorization,
                "lastContentType": self.last_content_type,
                "lastSentAt": self.last_sent_at,
                "remainingScript": len(self.script),
                "recordedBatches": self.recorded_batches,
            }
            if include_ids:
                result["ids"] = list(self.order)
            return result


SEGMENT_TYPES = ("track", "identify", "page", "screen", "group", "alias")


def event_key(event):
    """The id a collector deduplicates by: "id" in Actuate's format, "messageId" in Segment's."""
    return event["messageId"] if "messageId" in event else event["id"]


def validate_event(event):
    """Raises ValueError unless the event is an Actuate event or a Segment message."""
    if not isinstance(event, dict):
        raise ValueError("each event must be an object")
    if "messageId" in event:
        if event.get("type") not in SEGMENT_TYPES:
            raise ValueError("a Segment message needs a type among %s" % ", ".join(SEGMENT_TYPES))
        for field in ("messageId", "timestamp"):
            if not isinstance(event.get(field), str):
                raise ValueError("a Segment message needs a string %s" % field)
        if not isinstance(event.get("anonymousId"), str) and not isinstance(event.get("userId"), str):
            raise ValueError("a Segment message needs an anonymousId or a userId")
        if event["type"] == "track" and not isinstance(event.get("event"), str):
            raise ValueError("a Segment track message needs an event name")
    elif not isinstance(event.get("id"), str):
        raise ValueError("batch must be a list of events with string ids")


def parse_action(entry):
    """Turns a script entry into {"kind": "status"|"drop"|"slow", ...}."""
    if isinstance(entry, int):
        return {"kind": "status", "status": entry, "headers": {}}
    if isinstance(entry, dict):
        return {"kind": "status", "status": int(entry.get("status", 200)), "headers": dict(entry.get("headers", {}))}
    text = str(entry).strip()
    word, _, rest = text.partition(" ")
    if word == "drop":
        return {"kind": "drop"}
    if word == "slow":
        return {"kind": "slow", "seconds": float(rest) if rest.strip() else None}
    if word == "malformed":
        return {"kind": "malformed", "status": int(rest.strip() or 200), "headers": {}}
    headers = {}
    if rest.strip():
        name, _, value = rest.partition(":")
        headers[name.strip()] = value.strip()
    return {"kind": "status", "status": int(word), "headers": headers}


def make_handler(collector):
    class Handler(loopback_server.Handler):
        disable_nagle_algorithm = True
        # The number of this connection among those that carried a batch request, or None before its first one.
        connection_number = None

        def count_connection(self):
            """Counts this connection on its first batch request."""
            if self.connection_number is None:
                with collector.lock:
                    collector.connections += 1
                    self.connection_number = collector.connections

        def read_batch_body(self):
            """The body, or None (counted as bodiless) when it is empty, shorter than its Content-Length, or its
            chunks end before the last one."""
            body, complete = self.read_body_checked()
            if not body or not complete:
                with collector.lock:
                    collector.bodiless += 1
                return None
            return body

        def reply(self, status, payload, headers=None, raw_body=None):
            body = raw_body if raw_body is not None else json.dumps(payload).encode("utf-8")
            self.send(status, body, headers=headers)

        def do_GET(self):
            url = urlparse(self.path)
            if url.path == "/control/stats":
                include_ids = parse_qs(url.query).get("ids", ["1"])[0] != "0"
                self.reply(200, collector.stats(include_ids))
            elif url.path == "/control/events":
                with collector.lock:
                    events = [collector.events[event_id] for event_id in collector.order]
                self.reply(200, events)
            elif url.path == "/health":
                self.reply(200, {"ok": True})
            else:
                self.reply(404, {"error": "not found"})

        def do_POST(self):
            path = urlparse(self.path).path
            if path == "/v1/batch":
                self.count_connection()
                body = self.read_batch_body()
                if body is None:
                    self.close_connection = True
                    self.reply(400, {"error": "the request has no body, or less than its Content-Length"})
                    return
                self.handle_batch(body)
                return
            body = self.read_body()
            if path == "/control/script":
                try:
                    script = json.loads(body or b"[]")
                    [parse_action(entry) for entry in script]
                except (ValueError, TypeError, AttributeError) as error:
                    self.reply(400, {"error": "bad script: %s" % error})
                    return
                with collector.lock:
                    collector.script = list(script)
                self.reply(200, {"script": len(script)})
            elif path == "/control/shutdown":
                self.reply(200, {"stopping": True})
                collector.stop()
            else:
                self.reply(404, {"error": "not found"})

        def handle_batch(self, body):
            try:
                payload = json.loads(body)
                events = payload["batch"]
                if not isinstance(events, list):
                    raise ValueError("batch must be a list")
                for event in events:
                    validate_event(event)
            except (ValueError, KeyError, TypeError) as error:
                with collector.lock:
                    collector.malformed += 1
                self.reply(400, {"error": "malformed batch: %s" % error})
                return
            with collector.lock:
                collector.last_authorization = self.headers.get("Authorization")
                collector.last_content_type = self.headers.get("Content-Type")
                collector.last_sent_at = payload.get("sentAt")
            action = collector.next_action()
            entry = {"action": action["kind"], "events": len(events), "bytes": len(body), "recorded": False,
                     "at": round(time.monotonic() - collector.started, 3), "connection": self.connection_number}
            if action["kind"] == "drop":
                entry["status"] = None
                self.append_log(entry)
                self.drop_connection()
                return
            if action["kind"] == "slow":
                collector.record(events, body)
                entry.update(status=200, recorded=True)
                self.append_log(entry)
                seconds = action["seconds"] if action["seconds"] is not None else collector.slow_seconds
                collector.stopping.wait(seconds)
                self.reply(200, {"accepted": len(events)})
                return
            status = action["status"]
            recorded = 200 <= status < 300
            if recorded:
                collector.record(events, body)
            entry.update(status=status, recorded=recorded)
            self.append_log(entry)
            if action["kind"] == "malformed":
                self.reply(status, None, raw_body=b'\xff\xfe{"accepted": <html>not json')
                return
            # The connection stays open for the next request, as real servers keep it: a later "drop" then closes
            # a reused connection, the case in which libcurl (URLSession on Linux) resends a request by itself.
            self.reply(status, {"accepted": len(events) if recorded else 0}, dict(action["headers"]))

        def append_log(self, entry):
            with collector.lock:
                collector.log.append(entry)

    return Handler


def main():
    parser = loopback_server.argument_parser("Loopback event collector for Actuate's upload tests.")
    parser.add_argument("--script", default="[]", help="a JSON list of responses to give, in order")
    parser.add_argument("--slow-seconds", type=float, default=5.0, help="how long a 'slow' answer waits")
    parser.add_argument("--keep-stdin", action="store_true", help="do not stop at end of standard input")
    parser.add_argument("--record-dir", default=None, help="write each recorded batch's body to a file here")
    arguments = parser.parse_args()
    try:
        script = json.loads(arguments.script)
        [parse_action(entry) for entry in script]
    except (ValueError, TypeError, AttributeError) as error:
        print("collector: bad --script: %s" % error, file=sys.stderr)
        return 2

    # The recorded events are parsed JSON, which holds no reference cycles, so reference counting frees everything
    # the collector lets go of. The cyclic collector would instead walk every recorded event each time enough new
    # ones survive: pauses of seconds once hundreds of thousands are recorded, which fell on the requests that
    # carry new events (an uploader's) and not on repeated ones (a benchmark baseline resending the same bodies).
    gc.disable()
    collector = Collector(script, arguments.slow_seconds, arguments.record_dir)
    return loopback_server.serve(
        collector, make_handler(collector), arguments.max_seconds, watch_stdin=not arguments.keep_stdin
    )


if __name__ == "__main__":
    loopback_server.exit_after(main)
