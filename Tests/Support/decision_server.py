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

import argparse
import json
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KNOWN = {"ok", "truncated", "cut-json", "not-json", "wrong-shape", "drop"}


def check_entry(entry):
    text = str(entry)
    if text not in KNOWN and not (text.isdigit() and len(text) == 3):
        raise ValueError("unknown script entry %r" % entry)
    return text


class Server:
    """The server's state, shared by the handler threads behind one lock."""

    def __init__(self, result, script):
        self.lock = threading.Lock()
        self.result = result
        self.script = [check_entry(entry) for entry in script]
        self.requests = []
        self.stopping = threading.Event()
        self.http = None

    def next_entry(self):
        with self.lock:
            return self.script.pop(0) if self.script else "ok"

    def stop(self):
        if self.stopping.is_set():
            return
        self.stopping.set()
        threading.Thread(target=self.http.shutdown, daemon=True).start()


def make_handler(server):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # noqa: A002 - the base class's signature
            pass

        def read_body(self):
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length > 0 else b""

        def send(self, status, body, length=None, close=False):
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body) if length is None else length))
                if close:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
            except OSError:
                pass
            if close:
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        def do_GET(self):
            if self.path == "/control/requests":
                with server.lock:
                    payload = {"requests": list(server.requests)}
                self.send(200, json.dumps(payload).encode("utf-8"))
            else:
                self.send(404, b'{"error": "not found"}')

        def do_POST(self):
            body = self.read_body()
            if self.path == "/v1/decide":
                self.decide(body)
            elif self.path == "/control/result":
                with server.lock:
                    server.result = body
                self.send(200, b"{}")
            elif self.path == "/control/script":
                try:
                    script = [check_entry(entry) for entry in json.loads(body or b"[]")]
                except (ValueError, TypeError) as error:
                    self.send(400, json.dumps({"error": str(error)}).encode("utf-8"))
                    return
                with server.lock:
                    server.script = script
                self.send(200, b"{}")
            elif self.path == "/control/shutdown":
                self.send(200, b"{}")
                server.stop()
            else:
                self.send(404, b'{"error": "not found"}')

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
                self.send(200, result, close=True)
            elif entry == "truncated":
                self.send(200, half, length=len(result), close=True)
            elif entry == "cut-json":
                self.send(200, half, close=True)
            elif entry == "not-json":
                self.send(200, b"<html>Service temporarily replaced by a proxy page</html>", close=True)
            elif entry == "wrong-shape":
                self.send(200, b'{"actions": {"id": 7}}', close=True)
            elif entry == "drop":
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            else:
                self.send(int(entry), json.dumps({"error": "scripted %s" % entry}).encode("utf-8"), close=True)

    return Handler


def watch_parent(server, parent):
    while not server.stopping.wait(0.5):
        if os.getppid() != parent:
            server.stop()


def watch_stdin(server):
    try:
        while os.read(sys.stdin.fileno(), 4096):
            pass
    except (OSError, ValueError):
        pass
    server.stop()


def main():
    parser = argparse.ArgumentParser(description="Loopback decision server for Actuate's tests.")
    parser.add_argument("--result", default='{"conditions": [], "actions": []}', help="the JSON that 'ok' answers")
    parser.add_argument("--script", default="[]", help="a JSON list of answers to give, in order")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="stop after this many seconds")
    arguments = parser.parse_args()
    try:
        server = Server(arguments.result.encode("utf-8"), json.loads(arguments.script))
    except (ValueError, TypeError) as error:
        print("decision_server: bad --script: %s" % error, file=sys.stderr)
        return 2
    http = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(server))
    http.daemon_threads = True
    server.http = http
    print(http.server_address[1], flush=True)
    threading.Thread(target=watch_parent, args=(server, os.getppid()), daemon=True).start()
    threading.Thread(target=watch_stdin, args=(server,), daemon=True).start()
    deadline = threading.Timer(arguments.max_seconds, server.stop)
    deadline.daemon = True
    deadline.start()
    try:
        http.serve_forever(poll_interval=0.2)
    finally:
        http.server_close()
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter finalization: daemon threads may still be blocked in reads.
    os._exit(code)
