#!/usr/bin/env python3
"""A loopback content server for Actuate's content-block tests: assets and content-block answers.

It listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line.

    python3 Tests/Support/content_server.py

Endpoints:
  GET  /assets/<name>        the asset configured for that path, or 404 when none is.
  POST /v1/content-blocks    records the JSON request body, then answers with the configured block answer
                             (by default 200 with {"contentBlocks": []}).
  POST /control/asset        {"path": "/assets/a.png", "status": 200, "contentType": "image/png",
                             "base64": "..."} configures (or replaces) one asset.
  POST /control/blocks       {"status": 200, "body": "raw text"} configures the block answer; the body is sent
                             as given, so tests can send malformed or truncated JSON.
  GET  /control/stats        {"requests": {path: count}, "blockRequests": [request bodies, parsed],
                             "blockRequestHeaders": [[[name, value], ...] per block request, as parsed]}.
  POST /control/shutdown     stops the server.

It stops by itself after --max-seconds, when its parent process dies, and when its standard input reaches
end of file (the test process holds the other end of that pipe).
Only the Python 3 standard library is used.
"""

import base64
import json
from urllib.parse import urlparse

import loopback_server


class ContentState(loopback_server.ServerState):
    """The server's configuration and counters, shared by the handler threads behind one lock."""

    def __init__(self):
        super().__init__()
        self.assets = {}
        self.blocks_answer = {"status": 200, "body": json.dumps({"contentBlocks": []})}
        self.requests = {}
        self.block_requests = []
        self.block_request_headers = []

    def count(self, path):
        with self.lock:
            self.requests[path] = self.requests.get(path, 0) + 1


def make_handler(state):
    class Handler(loopback_server.Handler):
        disable_nagle_algorithm = True

        def reply(self, status, payload):
            self.send(status, json.dumps(payload).encode("utf-8"), "application/json")

        def do_GET(self):
            path = urlparse(self.path).path
            if path == "/control/stats":
                with state.lock:
                    payload = {"requests": dict(state.requests), "blockRequests": list(state.block_requests),
                               "blockRequestHeaders": list(state.block_request_headers)}
                self.reply(200, payload)
                return
            state.count(path)
            with state.lock:
                asset = state.assets.get(path)
            if asset is None:
                self.reply(404, {"error": "no asset at %s" % path})
            else:
                self.send(asset["status"], asset["body"], asset["contentType"])

        def do_POST(self):
            path = urlparse(self.path).path
            body = self.read_body()
            if path == "/v1/content-blocks":
                state.count(path)
                try:
                    request = json.loads(body or b"null")
                except ValueError:
                    request = {"unparsable": body.decode("utf-8", "replace")}
                with state.lock:
                    state.block_requests.append(request)
                    # Each header line as the server split them: an injected line shows as a header of its own.
                    state.block_request_headers.append([[name, value] for name, value in self.headers.items()])
                    answer = dict(state.blocks_answer)
                self.send(answer["status"], answer["body"].encode("utf-8"), "application/json")
            elif path == "/control/asset":
                try:
                    config = json.loads(body)
                    asset = {
                        "status": int(config.get("status", 200)),
                        "contentType": str(config.get("contentType", "application/octet-stream")),
                        "body": base64.b64decode(config.get("base64", "")),
                    }
                    asset_path = str(config["path"])
                except (ValueError, KeyError, TypeError) as error:
                    self.reply(400, {"error": "bad asset: %s" % error})
                    return
                with state.lock:
                    state.assets[asset_path] = asset
                self.reply(200, {"path": asset_path})
            elif path == "/control/blocks":
                try:
                    config = json.loads(body)
                    answer = {"status": int(config.get("status", 200)), "body": str(config["body"])}
                except (ValueError, KeyError, TypeError) as error:
                    self.reply(400, {"error": "bad answer: %s" % error})
                    return
                with state.lock:
                    state.blocks_answer = answer
                self.reply(200, {"status": answer["status"]})
            elif path == "/control/shutdown":
                self.reply(200, {"stopping": True})
                state.stop()
            else:
                self.reply(404, {"error": "not found"})

    return Handler


def main():
    parser = loopback_server.argument_parser("Loopback content server for Actuate's content-block tests.")
    arguments = parser.parse_args()
    state = ContentState()
    return loopback_server.serve(state, make_handler(state), arguments.max_seconds)


if __name__ == "__main__":
    loopback_server.exit_after(main)
