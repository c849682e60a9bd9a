"""The plumbing shared by Actuate's loopback test servers (collector.py, content_server.py, decision_server.py).

Each server listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line. It
stops by itself after --max-seconds, when its parent process dies, and (unless told otherwise) when its standard
input reaches end of file: the test process holds the other end of that pipe.

The scripts are run as `python3 Tests/Support/NAME.py`, so this module is imported from the script's own folder.
Only the Python 3 standard library is used.
"""

import argparse
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ServerState:
    """A server's shared state: a lock for the handler threads, and a stop that happens once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.http = None

    def stop(self):
        """Stops serving from a thread other than the one running serve_forever."""
        if self.stopping.is_set():
            return
        self.stopping.set()
        threading.Thread(target=self.http.shutdown, daemon=True).start()


class Handler(BaseHTTPRequestHandler):
    """A quiet HTTP/1.1 handler with helpers to read a body, answer, and drop a connection."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass

    def read_body(self):
        """The body as its Content-Length declares it, or decoded from its chunks (Actuate sends request bodies
        as streams, which URLSession on Linux sends chunked); fewer bytes when the client sent less."""
        body, _ = self.read_body_checked()
        return body

    def read_body_checked(self):
        """(body, complete): complete is False when the body is shorter than declared or its chunks end early."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self.read_chunks()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        return body, len(body) == length

    def read_chunks(self):
        """Decodes a chunked body up to its last chunk and trailer: (body, complete)."""
        parts = []
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                self.close_connection = True
                return b"".join(parts), False
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts), True
            chunk = self.rfile.read(size)
            parts.append(chunk)
            if len(chunk) < size or self.rfile.readline(1024) not in (b"\r\n", b"\n"):
                self.close_connection = True
                return b"".join(parts), False

    def send(self, status, body, content_type="application/json", headers=None, length=None):
        """Answers with `body`, declaring `length` (by default the body's) as its Content-Length."""
        try:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body) if length is None else length))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            self.close_connection = True

    def drop_connection(self):
        """Closes the connection without (or after) answering, so the client sees it end."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class QuietServer(ThreadingHTTPServer):
    """A server that does not print a traceback when a client goes away mid-request (a killed uploader).

    Its listen backlog is 128, as a production server's is at least: socketserver's default of 5 drops the SYNs
    of a burst of new connections (the fleet's 40 uploaders at once), and each dropped SYN costs its client the
    kernel's 1 s retransmission wait before the connection even opens.
    """

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def argument_parser(description):
    """An argument parser with the --max-seconds option every server takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--max-seconds", type=float, default=300.0, help="stop after this many seconds")
    return parser


def serve(state, handler_class, max_seconds, watch_stdin=True):
    """Serves `handler_class` on 127.0.0.1, prints the port, and returns 0 once `state.stop()` has run."""
    server = QuietServer(("127.0.0.1", 0), handler_class)
    state.http = server
    print(server.server_address[1], flush=True)

    threading.Thread(target=_watch_parent, args=(state, os.getppid()), daemon=True).start()
    if watch_stdin:
        threading.Thread(target=_watch_stdin, args=(state,), daemon=True).start()
    deadline = threading.Timer(max_seconds, state.stop)
    deadline.daemon = True
    deadline.start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return 0


def exit_after(main):
    """Runs `main` and exits with its code, skipping interpreter finalization: daemon threads may still be
    blocked in reads."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _watch_parent(state, parent):
    while not state.stopping.wait(0.5):
        if os.getppid() != parent:
            state.stop()


def _watch_stdin(state):
    try:
        # os.read, not sys.stdin: a daemon thread blocked in a buffered reader aborts interpreter shutdown.
        while os.read(sys.stdin.fileno(), 4096):
            pass
    except (OSError, ValueError):
        pass
    state.stop()
