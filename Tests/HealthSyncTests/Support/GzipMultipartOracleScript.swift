import Foundation

/// The multipart oracle: a Python script that parses a body with Werkzeug and python-multipart and prints JSON.
///
/// It lives here as a Swift string, not as `multipart_oracle.py`, because a `.py` file inside the test target
/// makes SwiftPM warn ("found 1 file(s) which are unhandled") and the build must stay warning-free without an
/// `exclude:` in Package.swift. Tests write it to a temporary directory and run it with `python3`.
enum GzipMultipartOracleScript {
    static let fileName = "multipart_oracle.py"

    static let source = #"""
        """Multipart oracle for HealthSyncTests: parse a multipart/form-data body with Werkzeug and python-multipart.

        Usage: python3 multipart_oracle.py BODY_FILE BOUNDARY
        Prints JSON {"werkzeug": [...], "python_multipart": [...]}; each entry has name, filename, content_type, size
        and sha256 of the content, in the order the parser reported them. Exit 3: python-multipart missing;
        exit 4: Werkzeug missing.
        """
        import hashlib
        import io
        import json
        import sys

        try:
            import werkzeug.formparser
        except ImportError:
            sys.stderr.write("werkzeug is not installed: pip install werkzeug\n")
            sys.exit(4)
        try:
            import python_multipart
            from python_multipart.multipart import parse_options_header
        except ImportError:
            sys.stderr.write("python-multipart is not installed: pip install python-multipart\n")
            sys.exit(3)


        def entry(name, filename, content_type, data):
            return {
                "name": name,
                "filename": filename,
                "content_type": content_type,
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }


        def text(value):
            """Header bytes as text: UTF-8 where valid (raw UTF-8 filenames), else Latin-1."""
            if value is None:
                return None
            if isinstance(value, str):
                value = value.encode("latin-1")
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError:
                return value.decode("latin-1")


        def with_werkzeug(body, boundary):
            environ = {
                "REQUEST_METHOD": "POST",
                "CONTENT_TYPE": "multipart/form-data; boundary=" + boundary,
                "CONTENT_LENGTH": str(len(body)),
                "wsgi.input": io.BytesIO(body),
            }
            _, form, files = werkzeug.formparser.parse_form_data(environ, silent=False)
            out = [entry(k, None, None, v.encode("utf-8")) for k, v in form.items(multi=True)]
            out += [entry(k, f.filename, f.content_type, f.read()) for k, f in files.items(multi=True)]
            return out


        def with_python_multipart(body, boundary):
            parts = []
            state = {}

            def on_part_begin():
                state.update(headers={}, field=b"", value=b"", data=bytearray())

            def on_header_field(data, start, end):
                state["field"] += data[start:end]

            def on_header_value(data, start, end):
                state["value"] += data[start:end]

            def on_header_end():
                state["headers"][state["field"].lower()] = state["value"]
                state["field"] = b""
                state["value"] = b""

            def on_part_data(data, start, end):
                state["data"] += data[start:end]

            def on_part_end():
                _, params = parse_options_header(state["headers"].get(b"content-disposition", b""))
                content_type = state["headers"].get(b"content-type")
                parts.append(entry(text(params.get(b"name")), text(params.get(b"filename")), text(content_type),
                                   bytes(state["data"])))

            callbacks = {
                "on_part_begin": on_part_begin,
                "on_header_field": on_header_field,
                "on_header_value": on_header_value,
                "on_header_end": on_header_end,
                "on_part_data": on_part_data,
                "on_part_end": on_part_end,
            }
            parser = python_multipart.MultipartParser(boundary.encode("ascii"), callbacks)
            parser.write(body)
            parser.finalize()
            return parts


        def main():
            with open(sys.argv[1], "rb") as f:
                body = f.read()
            boundary = sys.argv[2]
            json.dump({"werkzeug": with_werkzeug(body, boundary),
                       "python_multipart": with_python_multipart(body, boundary)}, sys.stdout)


        if __name__ == "__main__":
            main()
        """#
}
