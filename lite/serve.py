"""Serve a built JupyterLite site on loopback with the MIME types its kernel needs.

    python lite/serve.py lite/_output [--port 8870] [--ip 127.0.0.1]

(Pyodide's ``.mjs`` and ``.wasm`` files must be served as JavaScript and WebAssembly; some
Python versions' ``http.server`` do not know ``.mjs``.) Any static web server with those types
will do for a real deployment (GitHub Pages, nginx …).
"""

from __future__ import annotations

import argparse
import functools
import http.server
from pathlib import Path
from typing import Any, ClassVar

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/octet-stream"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, *args: Any) -> None:
        pass


def server(folder: Path, ip: str = "127.0.0.1", port: int = 8870) -> http.server.ThreadingHTTPServer:
    return http.server.ThreadingHTTPServer((ip, port),
                                           functools.partial(Handler, directory=str(folder)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Serve a JupyterLite site on loopback.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--ip", default="127.0.0.1")
    args = parser.parse_args()
    with server(args.folder, args.ip, args.port) as httpd:
        httpd.serve_forever()
