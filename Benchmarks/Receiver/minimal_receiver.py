#!/usr/bin/env python3
"""A minimal sync receiver for the SyncBenchmarks (Python standard library only).

Binds 127.0.0.1 on a port the OS chooses and prints that port as the first line on stdout. For every
POST it reads the body (Content-Length or chunked), takes the first part of the multipart/form-data body,
gunzips it, parses the sync-batch JSON and counts its samples. A batch whose Idempotency-Key was seen
before is answered as a duplicate (`Idempotent-Replayed: true`) and not counted again.

GET /stats returns {"batches": n, "samples": n, "duplicates": n, "bytes": n}.

The process exits when its stdin reaches end of file (the benchmark holds the other end), so it never
outlives the benchmark even if the benchmark is killed; the benchmark also kills it on every path.

Usage: python3 minimal_receiver.py
"""
import gzip
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
seen_keys = set()
totals = {"batches": 0, "samples": 0, "duplicates": 0, "bytes": 0}


def first_part(body, content_type):
    """The content of the first part of a multipart/form-data body."""
    boundary = None
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.strip().partition("=")
        if name.lower() == "boundary":
            boundary = value.strip('"').encode("ascii")
    if not boundary:
        raise ValueError("no boundary in Content-Type")
    delimiter = b"--" + boundary
    start = body.index(delimiter) + len(delimiter)
    headers_end = body.index(b"\r\n\r\n", start) + 4
    end = body.index(b"\r\n" + delimiter, headers_end)
    return body[headers_end:end]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The handler writes the headers and the body of a reply separately: without TCP_NODELAY the body waits for
    # the client's delayed ACK of the headers (about 40 ms on Linux) on every kept-alive request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(body)
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def reply(self, status, payload, extra_headers=()):
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in extra_headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/stats":
            self.reply(404, {"error": "not found"})
            return
        with lock:
            self.reply(200, dict(totals))

    def do_POST(self):
        body = self.read_body()
        key = self.headers.get("Idempotency-Key", "")
        try:
            document = json.loads(gzip.decompress(first_part(body, self.headers.get("Content-Type", ""))))
            samples = sum(len(section.get("samples", [])) for section in document["sections"])
        except (ValueError, KeyError, OSError, EOFError) as error:
            self.reply(400, {"error": str(error)})
            return
        with lock:
            duplicate = key in seen_keys
            if duplicate:
                totals["duplicates"] += 1
            else:
                seen_keys.add(key)
                totals["batches"] += 1
                totals["samples"] += samples
                totals["bytes"] += len(body)
        if duplicate:
            self.reply(200, {"duplicate": True}, [("Idempotent-Replayed", "true")])
        else:
            self.reply(200, {"stored": True, "samples": samples})


def exit_when_stdin_closes():
    while sys.stdin.buffer.read(65536):
        pass
    os._exit(0)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
