#!/usr/bin/env python3
"""A loopback server for Actuate's transport-policy tests: redirects, oversized and slow answers.

It listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line.

    python3 Tests/Support/redirect_server.py --location http://127.0.0.1:PORT/v1/decide

Endpoints (any method):
  /redirect/<status>   records the request (method, path, Authorization header), then answers <status> (301,
                       302, 303, 307 or 308) with a Location header holding --location.
  /stream/<bytes>      answers 200 (image/png) with no Content-Length, writing <bytes> bytes in 16 KB pieces,
                       about 16 MB a second (so a client's cancel can be seen before the end), and then closing; it stops early when the client goes away, and counts each piece it wrote.
  /declared/<bytes>    answers 200 (image/png) declaring <bytes> in its Content-Length, and sends them.
  /trickle/<bytes>     answers 200 (image/png) declaring <bytes>, sending one byte every 50 ms; it stops early when
                       the client goes away, and counts each byte it wrote.
  /bomb/<enc>/<bytes>[/<status>]
                       answers <status> (200 unless given; a 3xx one with a Location) (application/json) with <bytes> zero bytes compressed as <enc> (zstd, gzip,
                       deflate, or identity for none), declaring the compressed length in Content-Length and <enc> in Content-Encoding:
                       a decompression bomb (2 GiB of zstd is 64 KB on the wire).
  GET /control/requests  {"requests": [{"method", "path", "authorization"}], "streamed": bytes written by /stream,
                       "trickled": bytes written by /trickle}.
  POST /control/shutdown stops the server.

It stops by itself after --max-seconds, when its parent process dies, and when its standard input reaches end
of file (the test process holds the other end of that pipe). Only the Python 3 standard library is used.
"""

import json
import time
import zlib

import loopback_server

REDIRECTS = {301, 302, 303, 307, 308}
BOMB_ENCODINGS = {"zstd", "gzip", "deflate", "identity"}


def zstd_zeros(total):
    """A zstd frame of `total` zero bytes made of RLE blocks: 4 bytes on the wire for each 128 KiB."""
    frame = bytearray(b"\x28\xb5\x2f\xfd")  # the magic number, little-endian
    frame.append(0x00)  # frame header: no content size, windowed, no checksum, no dictionary
    frame.append(7 << 3)  # window descriptor: 2^(10+7) = 128 KiB, the largest block
    remaining = total
    while remaining > 0:
        size = min(128 * 1024, remaining)
        remaining -= size
        header = (1 if remaining == 0 else 0) | (1 << 1) | (size << 3)  # last-block flag, RLE block, size
        frame += header.to_bytes(3, "little") + b"\x00"
    return bytes(frame)


def zlib_zeros(total, wbits):
    """`total` zero bytes compressed with zlib: wbits 31 for gzip, 15 for deflate (zlib-wrapped, as HTTP means)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    piece = bytes(1 << 20)
    parts = []
    remaining = total
    while remaining > 0:
        parts.append(compressor.compress(piece[: min(len(piece), remaining)]))
        remaining -= min(len(piece), remaining)
    parts.append(compressor.flush())
    return b"".join(parts)


class RedirectState(loopback_server.ServerState):
    """The server's records, shared by the handler threads behind one lock."""

    def __init__(self, location):
        super().__init__()
        self.location = location
        self.requests = []
        self.streamed = 0
        self.trickled = 0
        self.bombs = {}


def make_handler(state):
    class Handler(loopback_server.Handler):
        def handle_any(self):
            self.read_body()
            parts = self.path.split("?")[0].strip("/").split("/")
            if parts == ["control", "requests"]:
                with state.lock:
                    payload = {
                        "requests": list(state.requests),
                        "streamed": state.streamed,
                        "trickled": state.trickled,
                    }
                self.send(200, json.dumps(payload).encode("utf-8"))
            elif parts == ["control", "shutdown"]:
                self.send(200, b"{}")
                state.stop()
            elif len(parts) == 2 and parts[1].isdigit() and parts[0] == "redirect" and int(parts[1]) in REDIRECTS:
                with state.lock:
                    state.requests.append(
                        {"method": self.command, "path": self.path, "authorization": self.headers.get("Authorization")}
                    )
                self.send(int(parts[1]), b'{"redirected": true}', headers={"Location": state.location})
            elif len(parts) == 2 and parts[1].isdigit() and parts[0] == "stream":
                self.stream(int(parts[1]))
            elif len(parts) == 2 and parts[1].isdigit() and parts[0] == "declared":
                self.send(200, b"\x89" * int(parts[1]), "image/png")
            elif len(parts) == 2 and parts[1].isdigit() and parts[0] == "trickle":
                self.trickle(int(parts[1]))
            elif 3 <= len(parts) <= 4 and parts[0] == "bomb" and parts[1] in BOMB_ENCODINGS and parts[2].isdigit():
                status = int(parts[3]) if len(parts) == 4 and parts[3].isdigit() else 200
                self.bomb(parts[1], int(parts[2]), status)
            else:
                self.send(404, b'{"error": "not found"}')

        do_GET = handle_any
        do_POST = handle_any

        def stream(self, total):
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Connection", "close")
            self.end_headers()
            piece = b"\x89" * 16384
            written = 0
            try:
                while written < total:
                    chunk = piece[: min(len(piece), total - written)]
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    written += len(chunk)
                    with state.lock:
                        state.streamed += len(chunk)
                    if state.stopping.wait(0.001):
                        return
            except OSError:
                pass

        def bomb(self, encoding, total, status=200):
            key = (encoding, total)
            with state.lock:
                body = state.bombs.get(key)
            if body is None:
                if encoding == "identity":
                    body = bytes(total)
                elif encoding == "zstd":
                    body = zstd_zeros(total)
                else:
                    body = zlib_zeros(total, 31 if encoding == "gzip" else 15)
                with state.lock:
                    state.bombs[key] = body
            headers = {"Content-Encoding": encoding}
            if 300 <= status < 400:
                headers["Location"] = state.location
            self.send(status, body, headers=headers)

        def trickle(self, total):
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(total))
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for _ in range(total):
                    self.wfile.write(b"\x89")
                    self.wfile.flush()
                    with state.lock:
                        state.trickled += 1
                    if state.stopping.wait(0.05):
                        return
            except OSError:
                pass

    return Handler


def main():
    parser = loopback_server.argument_parser("Loopback redirect and slow-answer server for Actuate's tests.")
    parser.add_argument("--location", default="http://127.0.0.1:9/", help="where redirects point")
    arguments = parser.parse_args()
    state = RedirectState(arguments.location)
    return loopback_server.serve(state, make_handler(state), arguments.max_seconds)


if __name__ == "__main__":
    loopback_server.exit_after(main)
