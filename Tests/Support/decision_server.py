#!/usr/bin/env python3
"""A loopback decision server for Actuate's HTTPDecisionSource tests.

It listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line.

    python3 Tests/Support/decision_server.py --result '{"actions": [...]}' --script '["ok", "truncated"]'

Endpoints:
  POST /v1/decide         records the request (its JSON body and Authorization header), then answers with the
                          next script entry, or "ok" once the script is used up.
  POST /control/result    replaces the result that "ok" answers with (the body, as it is).
  POST /control/script    replaces the remaining script with the JSON list in the body.
  GET  /control/requests  {"requests": [{"body": ..., "authorization": ...}, ...]}.
  POST /control/shutdown  stops the server.

Script entries:
  "ok"           200 with the result and a correct Content-Length.
  "truncated"    200 declaring the whole result's Content-Length, sending half of it, then closing.
  "cut-json"     200 with the first half of the result as the whole body (a correct Content-Length).
  "not-json"     200 with a body that is not JSON.
  "wrong-shape"  200 with JSON whose "actions" is an object, not an array.
  "drop"         closes the connection without answering.
  "NNN"          that status with a small JSON error body, such as "500" or "401".

It stops by itself after --max-seconds, when its parent process dies, and when its standard input reaches end
of file (the test process holds the other end of that pipe). Only the Python 3 standard library is used.
"""

import json
import sys

import loopback_server

KNOWN = {"ok", "truncated", "cut-json", "not-json", "wrong-shape", "drop"}


def check_entry(entry):
    text = str(entry)
    if text not in KNOWN and not (text.isdigit() and len(text) == 3):
        raise ValueError("unknown script entry %r" % entry)
    return text


class Server(loopback_server.ServerState):
    """The server's state, shared by the handler threads behind one lock."""

    def __init__(self, result, script):
        super().__init__()
        self.result = result
        self.script = [check_entry(entry) for entry in script]
        self.requests = []

    def next_entry(self):
        with self.lock:
            return self.script.pop(0) if self.script else "ok"


def make_handler(server):
    class Handler(loopback_server.Handler):
        def answer(self, status, body, length=None, close=False):
            """Sends `body`; with `close`, says so in a Connection header and then closes the connection."""
            self.send(status, body, headers={"Connection": "close"} if close else None, length=length)
            if close:
                self.drop_connection()

        def do_GET(self):
            if self.path == "/control/requests":
                with server.lock:
                    payload = {"requests": list(server.requests)}
                self.answer(200, json.dumps(payload).encode("utf-8"))
            else:
                self.answer(404, b'{"error": "not found"}')

        def do_POST(self):
            body = self.read_body()
            if self.path == "/v1/decide":
                self.decide(body)
            elif self.path == "/control/result":
                with server.lock:
                    server.result = body
                self.answer(200, b"{}")
            elif self.path == "/control/script":
                try:
                    script = [check_entry(entry) for entry in json.loads(body or b"[]")]
                except (ValueError, TypeError) as error:
                    self.answer(400, json.dumps({"error": str(error)}).encode("utf-8"))
                    return
                with server.lock:
                    server.script = script
                self.answer(200, b"{}")
            elif self.path == "/control/shutdown":
                self.answer(200, b"{}")
                server.stop()
            else:
                self.answer(404, b'{"error": "not found"}')

        def decide(self, body):
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None
            with server.lock:
                server.requests.append({"body": parsed, "authorization": self.headers.get("Authorization")})
                result = server.result
            entry = server.next_entry()
            half = result[: len(result) // 2]
            # Every answer closes its connection, so that the next request never reuses one that a "drop"
            # or "truncated" answer broke (libcurl would silently resend on it).
            if entry == "ok":
                self.answer(200, result, close=True)
            elif entry == "truncated":
                self.answer(200, half, length=len(result), close=True)
            elif entry == "cut-json":
                self.answer(200, half, close=True)
            elif entry == "not-json":
                self.answer(200, b"<html>Service temporarily replaced by a proxy page</html>", close=True)
            elif entry == "wrong-shape":
                self.answer(200, b'{"actions": {"id": 7}}', close=True)
            elif entry == "drop":
                self.drop_connection()
            else:
                self.answer(int(entry), json.dumps({"error": "scripted %s" % entry}).encode("utf-8"), close=True)

    return Handler


def main():
    parser = loopback_server.argument_parser("Loopback decision server for Actuate's tests.")
    parser.add_argument("--result", default='{"conditions": [], "actions": []}', help="the JSON that 'ok' answers")
    parser.add_argument("--script", default="[]", help="a JSON list of answers to give, in order")
    arguments = parser.parse_args()
    try:
        server = Server(arguments.result.encode("utf-8"), json.loads(arguments.script))
    except (ValueError, TypeError) as error:
        print("decision_server: bad --script: %s" % error, file=sys.stderr)
        return 2
    return loopback_server.serve(server, make_handler(server), arguments.max_seconds)


if __name__ == "__main__":
    loopback_server.exit_after(main)
