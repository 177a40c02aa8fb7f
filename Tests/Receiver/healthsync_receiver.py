#!/usr/bin/env python3
"""The HealthSync test receiver: a real HTTP server for the sync tests (never a product).

Usage: python3 healthsync_receiver.py [--lifetime SECONDS]

Listens on 127.0.0.1 on a port the OS picks and prints that port alone on the first stdout line. It exits when
its stdin reaches end of file (the test that started it is gone) or after --lifetime seconds (600 by default),
whichever comes first, so a forgotten receiver never outlives its test run.

POST /upload (any path other than the GET ones below)
    A multipart/form-data body, with or without Content-Length (chunked bodies are read to their end), and an
    Idempotency-Key header. The body is parsed by two independent parsers, Werkzeug's sans-IO multipart decoder
    and python-multipart; if they disagree on the parts, names, filenames, content types or bytes the answer is
    400. The one part named "batch" (application/gzip) is gunzipped and checked against the documented schema
    (batch_schema.py, after Sources/HealthSync/Serialization/SyncBatchSchema.docc: every field, its type, order,
    timestamps with a numeric offset, tombstones, each sample of its section's type); its batchID must equal the
    Idempotency-Key. A key seen before answers 200 with
    "duplicate": true and counts nothing again. A stored batch answers 201 with the receipt:
    {"batchID", "duplicate", "samples": {type: n}, "deletions": {type: n}, "sampleUUIDs", "deletedUUIDs"}.
    Every refusal is 400 (415 for a body that is not multipart) with {"error": message}.

GET /stats
    {"batches", "duplicates", "rejected", "samples", "distinctSamples", "maxCountPerSample", "deletions",
     "samplesByType": {type: n}}: totals over stored batches ("samples" counts every arrival of a sample,
    "maxCountPerSample" is the most times any one UUID was counted: 1 when nothing was counted twice).
GET /samples
    {UUID: times counted} for every sample UUID received.
GET /batches/<ID>
    The receipt of a stored batch, or 404.
"""

import gzip
import json
import logging
import os
import sys
import threading
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import batch_schema  # noqa: E402 - beside this file
from python_multipart.multipart import MultipartParser, parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData
from werkzeug.serving import WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response


class Refusal(Exception):
    """A request the receiver refuses: the HTTP status and a message for the JSON answer."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def header_text(value):
    """A header value as text: bytes (or a str holding raw bytes as Latin-1) decoded as UTF-8 where valid."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = value.encode("latin-1")
        except UnicodeEncodeError:
            return value
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


def parts_by_werkzeug(body, boundary):
    """[(name, filename, content_type, bytes)] in body order, from Werkzeug's event-driven decoder."""
    decoder = MultipartDecoder(boundary, max_form_memory_size=None)
    decoder.receive_data(body)
    decoder.receive_data(None)
    parts = []
    while True:
        event = decoder.next_event()
        if isinstance(event, (Field, File)):
            filename = event.filename if isinstance(event, File) else None
            parts.append([header_text(event.name), header_text(filename),
                          header_text(event.headers.get("content-type")), bytearray()])
        elif isinstance(event, Data):
            if not parts:
                raise Refusal("werkzeug: data before any part")
            parts[-1][3] += event.data
        elif isinstance(event, Epilogue):
            return [tuple(part[:3]) + (bytes(part[3]),) for part in parts]
        elif isinstance(event, NeedData):
            raise Refusal("werkzeug: the body ends before the closing boundary")


def parts_by_python_multipart(body, boundary):
    """[(name, filename, content_type, bytes)] in body order, from python-multipart's callback parser."""
    parts = []
    current = {}
    ended = []

    def on_part_begin():
        current.clear()
        current.update(headers={}, field=b"", value=b"", data=bytearray())

    def on_header_field(data, start, end):
        current["field"] += data[start:end]

    def on_header_value(data, start, end):
        current["value"] += data[start:end]

    def on_header_end():
        current["headers"][current["field"].strip().lower()] = current["value"].strip()
        current["field"], current["value"] = b"", b""

    def on_part_data(data, start, end):
        current["data"] += data[start:end]

    def on_part_end():
        disposition, options = parse_options_header(current["headers"].get(b"content-disposition", b""))
        if disposition != b"form-data":
            raise Refusal("python-multipart: a part is not form-data")
        parts.append((header_text(options.get(b"name")), header_text(options.get(b"filename")),
                      header_text(current["headers"].get(b"content-type")), bytes(current["data"])))

    def on_end():
        ended.append(True)

    parser = MultipartParser(boundary, {
        "on_part_begin": on_part_begin, "on_header_field": on_header_field, "on_header_value": on_header_value,
        "on_header_end": on_header_end, "on_part_data": on_part_data, "on_part_end": on_part_end,
        "on_end": on_end,
    })
    parser.write(body)
    parser.finalize()
    if not ended:
        raise Refusal("python-multipart: the body ends before the closing boundary")
    return parts


def describe(part):
    name, filename, content_type, data = part
    return "name=%r filename=%r content-type=%r %d bytes" % (name, filename, content_type, len(data))


def parse_multipart(body, content_type):
    """The parts both parsers agree on; a Refusal when they disagree or either fails."""
    media_type, options = parse_options_header(content_type.encode("latin-1"))
    boundary = options.get(b"boundary")
    if media_type != b"multipart/form-data" or not boundary:
        raise Refusal("expected multipart/form-data with a boundary, got %r" % content_type, status=415)
    try:
        first = parts_by_werkzeug(body, boundary)
    except Refusal:
        raise
    except Exception as error:  # noqa: BLE001 - any parser failure is the client's malformed body
        raise Refusal("werkzeug cannot parse the body: %s" % error)
    try:
        second = parts_by_python_multipart(body, boundary)
    except Refusal:
        raise
    except Exception as error:  # noqa: BLE001
        raise Refusal("python-multipart cannot parse the body: %s" % error)
    if len(first) != len(second):
        raise Refusal("the parsers disagree: werkzeug sees %d parts, python-multipart %d" % (len(first), len(second)))
    for index, (a, b) in enumerate(zip(first, second)):
        if a != b:
            raise Refusal("the parsers disagree on part %d: werkzeug %s; python-multipart %s"
                          % (index, describe(a), describe(b)))
    return first


def reject_constant(name):
    raise ValueError("%s is not a JSON number" % name)


class Receiver:
    """Everything stored, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.receipts = {}      # batch ID -> receipt of the stored batch
        self.counts = {}        # sample UUID -> times counted
        self.by_type = {}       # type -> samples counted
        self.deletions = 0
        self.duplicates = 0
        self.rejected = 0

    def batch_from(self, request, key):
        body = request.get_data(cache=False)
        parts = parse_multipart(body, request.headers.get("Content-Type", ""))
        batches = [part for part in parts if part[0] == "batch"]
        if len(parts) != 1 or len(batches) != 1:
            raise Refusal("expected exactly one part, named batch; got %s" % [part[0] for part in parts])
        _, filename, content_type, payload = batches[0]
        if content_type != "application/gzip":
            raise Refusal("the batch part has content type %r, expected application/gzip" % content_type)
        if not filename or not filename.endswith(".json.gz"):
            raise Refusal("the batch part has filename %r, expected *.json.gz" % filename)
        try:
            text = gzip.decompress(payload)
        except (OSError, EOFError, zlib.error) as error:
            raise Refusal("the batch part is not gzip: %s" % error)
        try:
            document = json.loads(text.decode("utf-8"), parse_constant=reject_constant)
        except (UnicodeDecodeError, ValueError) as error:
            raise Refusal("the batch is not JSON: %s" % error)
        problem = batch_schema.problem(document)
        if problem:
            raise Refusal("schema: " + problem[:300])
        if document["batchID"] != key.upper():
            raise Refusal("batchID %s differs from the Idempotency-Key %s" % (document["batchID"], key))
        return document

    def upload(self, request):
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key:
            raise Refusal("missing Idempotency-Key")
        with self.lock:
            stored = self.receipts.get(key.upper())
        if stored is not None:
            # The body is still read to its end, so the connection stays usable.
            request.get_data(cache=False)
            with self.lock:
                self.duplicates += 1
            return 200, dict(stored, duplicate=True)
        document = self.batch_from(request, key)
        receipt = {"batchID": document["batchID"], "duplicate": False, "samples": {}, "deletions": {},
                   "sampleUUIDs": [], "deletedUUIDs": []}
        for section in document["sections"]:
            kind = section["type"]
            if section["samples"]:
                receipt["samples"][kind] = receipt["samples"].get(kind, 0) + len(section["samples"])
            if section["deleted"]:
                receipt["deletions"][kind] = receipt["deletions"].get(kind, 0) + len(section["deleted"])
            receipt["sampleUUIDs"] += [sample["uuid"] for sample in section["samples"]]
            receipt["deletedUUIDs"] += [deleted["uuid"] for deleted in section["deleted"]]
        with self.lock:
            if document["batchID"] in self.receipts:  # the same key raced in on another connection
                self.duplicates += 1
                return 200, dict(self.receipts[document["batchID"]], duplicate=True)
            self.receipts[document["batchID"]] = receipt
            for uuid in receipt["sampleUUIDs"]:
                self.counts[uuid] = self.counts.get(uuid, 0) + 1
            for kind, count in receipt["samples"].items():
                self.by_type[kind] = self.by_type.get(kind, 0) + count
            self.deletions += len(receipt["deletedUUIDs"])
        return 201, receipt

    def stats(self):
        with self.lock:
            return {
                "batches": len(self.receipts), "duplicates": self.duplicates, "rejected": self.rejected,
                "samples": sum(self.counts.values()), "distinctSamples": len(self.counts),
                "maxCountPerSample": max(self.counts.values(), default=0), "deletions": self.deletions,
                "samplesByType": dict(self.by_type),
            }

    def __call__(self, environ, start_response):
        request = Request(environ)
        status, answer = 404, {"error": "not found"}
        path = request.path.strip("/").split("/")
        try:
            if request.method == "GET" and path == ["stats"]:
                status, answer = 200, self.stats()
            elif request.method == "GET" and path == ["samples"]:
                with self.lock:
                    status, answer = 200, dict(self.counts)
            elif request.method == "GET" and len(path) == 2 and path[0] == "batches":
                with self.lock:
                    found = self.receipts.get(path[1].upper())
                status, answer = (200, found) if found else (404, {"error": "no such batch"})
            elif request.method == "POST":
                status, answer = self.upload(request)
            else:
                status, answer = 405, {"error": "method not allowed"}
        except Refusal as refusal:
            with self.lock:
                self.rejected += 1
            status, answer = refusal.status, {"error": str(refusal)}
        except Exception as error:  # noqa: BLE001 - e.g. the client vanished mid-body: nothing was stored
            with self.lock:
                self.rejected += 1
            status, answer = 400, {"error": "unreadable request: %s" % type(error).__name__}
        response = Response(json.dumps(answer), status=status, mimetype="application/json")
        return response(environ, start_response)


def exit_when_stdin_closes():
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


class NoDelayRequestHandler(WSGIRequestHandler):
    """Sends replies without waiting for the client's ACK of the headers (TCP_NODELAY).

    Werkzeug writes a reply's headers and body separately; with Nagle's algorithm on, the body waits for the
    client's delayed ACK (~40 ms a request on Linux loopback), which would measure the stall, not the sync.
    """

    disable_nagle_algorithm = True


def main():
    lifetime = 600.0
    if len(sys.argv) == 3 and sys.argv[1] == "--lifetime":
        lifetime = float(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.stderr.write("usage: healthsync_receiver.py [--lifetime SECONDS]\n")
        sys.exit(2)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, Receiver(), threaded=True, request_handler=NoDelayRequestHandler)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    sys.stdout.write("%d\n" % server.port)
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
