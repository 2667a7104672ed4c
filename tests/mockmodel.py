"""A tiny OpenAI-compatible chat-completions server on 127.0.0.1 for the OpenClaw smoke test.

Standard library only (http.server). It answers every ``POST .../chat/completions``
with a fixed reply, streamed (SSE) when asked, with a ``usage`` block whose
``prompt_tokens`` is ``prompt_tokens`` when given, else a rough count of the
request (characters / 4), and keeps
every request body in ``requests`` so the test can read the prompt OpenClaw sent.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = "mock reply ok"


class MockModel:
    def __init__(self, prompt_tokens: int | None = None) -> None:
        self.requests: list[dict] = []
        self.prompt_tokens = prompt_tokens
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def _json(self, code: int, doc: dict) -> None:
                body = json.dumps(doc).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                self._json(200, {"object": "list", "data": [{"id": "mock-1", "object": "model"}]})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    req = json.loads(raw or b"{}")
                except ValueError:
                    req = {}
                outer.requests.append(req)
                prompt = outer.prompt_tokens or max(1, len(raw) // 4)
                usage = {"prompt_tokens": prompt, "completion_tokens": 3, "total_tokens": prompt + 3}
                ident, created = f"chatcmpl-mock{len(outer.requests)}", int(time.time())
                if not req.get("stream"):
                    self._json(200, {"id": ident, "object": "chat.completion", "created": created,
                                     "model": req.get("model", "mock-1"),
                                     "choices": [{"index": 0, "finish_reason": "stop",
                                                  "message": {"role": "assistant", "content": REPLY}}],
                                     "usage": usage})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                base = {"id": ident, "object": "chat.completion.chunk", "created": created,
                        "model": req.get("model", "mock-1")}
                chunks = [
                    dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": REPLY},
                                         "finish_reason": None}]),
                    dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]),
                    dict(base, choices=[], usage=usage),
                ]
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> "MockModel":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
