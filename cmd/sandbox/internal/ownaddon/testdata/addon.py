#!/usr/bin/env python3
"""A small add-on for the e-shop platform, written from scratch against the
sandbox with Python's standard library only: it is "your own add-on" of the
README and the add-on the tests drive the way a developer does.

It reads what it needs from the environment, as `sandbox addon add ...
--output env` prints it and as `sandbox test` gives it to a scenario's
command:

  SANDBOX_URL            the API's base URL ({base_url})
  SANDBOX_OAUTH_URL      the OAuth server: {eshop_url}/action/ApiOAuthServer/token
  SANDBOX_CLIENT_ID      the add-on's OAuth client id
  SANDBOX_CLIENT_SECRET  the add-on's OAuth client secret
  ADDON_PORT             the loopback port it listens on (default 9090)
  ADDON_URL              where the e-shop reaches it (default http://127.0.0.1:ADDON_PORT)

What it does:
  GET  /install?code=...  exchanges the code (JSON body, as the reference
                          says), gets an API token, learns its e-shop with
                          GET /api/eshop, registers order:create and gets the
                          signature key, and only then answers 200
  POST /webhooks          checks the signature (HMAC-SHA1 of the body, hex)
                          and answers 200 at once; for order:create it reads
                          the order and the order statuses at the same time,
                          then moves the order on to the next status
  GET  /healthz           200 once listening

Every API call sends Content-Type; at most 3 are open at once (the platform's
limit per token); 401 expired-token fetches a new API token (never reusing the
expired one); 423, 429 and 503 with Retry-After wait until that date (measured
against the answer's Date header) before the one retry, and a 429 or 503 holds
every call of the token until then.
"""
import concurrent.futures
import email.utils
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PREFIX = "Service"
API = os.environ.get("SANDBOX_URL", "http://127.0.0.1:8080").rstrip("/")
OAUTH_URL = os.environ["SANDBOX_OAUTH_URL"]
CLIENT_ID = os.environ["SANDBOX_CLIENT_ID"]
CLIENT_SECRET = os.environ["SANDBOX_CLIENT_SECRET"]
PORT = int(os.environ.get("ADDON_PORT", "9090"))
BASE = os.environ.get("ADDON_URL", "http://127.0.0.1:%d" % PORT).rstrip("/")
INSTALL_URL = BASE + "/install"  # also the redirect_uri the add-on was registered with
WEBHOOK_URL = BASE + "/webhooks"
TIMEOUT = 10


def log(*args):
    print("addon:", *args, flush=True)


class Installation:
    """What one install gave the add-on: its OAuth token, the current API
    token, its e-shop and the webhook signature key."""

    def __init__(self):
        self.lock = threading.Lock()
        self.oauth_token = None
        self.api_token = None
        self.eshop_id = None
        self.signature_key = None
        # A 429 or 503 with Retry-After holds every call of the token, not
        # only the refused one: no call before this moment (monotonic).
        self.not_before = 0.0


state = Installation()

# The platform allows 3 calls open at once per token; the webhook threads
# share this.
CALLS = threading.BoundedSemaphore(3)


def http(method, url, body=None, headers=None):
    """One request; returns (status, headers, parsed JSON or None)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            raw = resp.read()
            return resp.status, resp.headers, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            doc = json.loads(raw) if raw else None
        except ValueError:
            doc = None
        return e.code, e.headers, doc


def new_api_token(expired=None):
    """Gets a new API token with the OAuth token, unless another thread
    already replaced the expired one."""
    with state.lock:
        if expired is not None and state.api_token != expired:
            return state.api_token
        status, _, doc = http("GET", OAUTH_URL.rsplit("/", 1)[0] + "/getAccessToken",
                              headers={"Authorization": "Bearer " + state.oauth_token})
        if status != 200:
            raise RuntimeError("getAccessToken answered %d: %s" % (status, doc))
        state.api_token = doc["access_token"]
        return state.api_token


def error_code(doc):
    try:
        return doc["errors"][0]["errorCode"]
    except (KeyError, IndexError, TypeError):
        return None


def wait_for(headers):
    """How long Retry-After asks to wait: its date minus the answer's Date,
    both on the sandbox's clock."""
    until = email.utils.parsedate_to_datetime(headers["Retry-After"])
    sent = email.utils.parsedate_to_datetime(headers["Date"])
    return max((until - sent).total_seconds(), 0)


def api(method, path, body=None):
    """Calls the API as the add-on; returns (status, data)."""
    with state.lock:
        token = state.api_token
    for _ in range(6):
        with state.lock:
            hold = state.not_before - time.monotonic()
        if hold > 0:
            time.sleep(hold)
        with CALLS:
            status, headers, doc = http(method, API + path, body, {
                "Content-Type": "application/json",
                PREFIX + "-Access-Token": token,
            })
        if status == 401 and error_code(doc) == "expired-token":
            log(method, path, "401 expired-token: a new API token")
            token = new_api_token(expired=token)
            continue
        if status in (423, 429, 503) and headers.get("Retry-After"):
            pause = wait_for(headers)
            log(method, path, status, "waits %.1fs for Retry-After" % pause)
            if status == 423:  # the lock is the URL's: only this call waits
                time.sleep(pause)
            else:
                with state.lock:
                    state.not_before = max(state.not_before, time.monotonic() + pause)
            continue
        return status, (doc or {}).get("data")
    raise RuntimeError("%s %s: gave up" % (method, path))


def install(code):
    status, _, doc = http("POST", OAUTH_URL, {
        "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "code": code,
        "redirect_uri": INSTALL_URL, "grant_type": "authorization_code", "scope": "api",
    }, {"Content-Type": "application/json"})
    if status != 200:
        raise RuntimeError("the code exchange answered %d: %s" % (status, doc))
    with state.lock:
        state.oauth_token = doc["access_token"]
    new_api_token()
    # Which e-shop installed it: the API token belongs to one.
    _, data = api("GET", "/api/eshop")
    state.eshop_id = data["contactInformation"]["eshopId"]
    # Set up before answering 200, so that nothing the e-shop sends right
    # after the install finds the add-on unprepared.
    _, hooks = api("GET", "/api/webhooks")
    if not any(h["event"] == "order:create" and h["url"] == WEBHOOK_URL for h in hooks["webhooks"]):
        status, _ = api("POST", "/api/webhooks", {"data": [{"event": "order:create", "url": WEBHOOK_URL}]})
        if status != 201:
            raise RuntimeError("registering order:create answered %d" % status)
    status, data = api("POST", "/api/webhooks/renew-signature-key")
    if status not in (200, 201):
        raise RuntimeError("renew-signature-key answered %d" % status)
    state.signature_key = data["signatureKey"]
    log("installed into e-shop", state.eshop_id)


def on_order_create(code):
    # The order and the statuses at once: two calls of one token overlap.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        order = pool.submit(api, "GET", "/api/orders/" + code)
        statuses = pool.submit(api, "GET", "/api/orders/statuses")
        status, data = order.result()
        _, listed = statuses.result()
    if status != 200:
        log("order", code, "answered", status)
        return
    current = data["order"]["status"]["id"]
    ids = [s["id"] for s in listed["statuses"]]
    nxt = ids[(ids.index(current) + 1) % len(ids)] if current in ids else ids[0]
    status, _ = api("PATCH", "/api/orders/%s/status" % code, {"data": {"statusId": nxt}})
    log("order", code, "status", current, "->", nxt, "answered", status)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, text=""):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/healthz":
            return self.answer(200, "ok")
        if url.path == "/install":
            code = parse_qs(url.query).get("code", [""])[0]
            try:
                install(code)
            except Exception as e:  # the e-shop shows a failed install
                log("install failed:", e)
                return self.answer(502, "install failed")
            return self.answer(200, "installed")
        self.answer(404)

    def do_POST(self):
        if urlparse(self.path).path != "/webhooks":
            return self.answer(404)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        key = state.signature_key
        if key is not None:
            want = hmac.new(key.encode(), body, hashlib.sha1).hexdigest()
            if not hmac.compare_digest(want, self.headers.get(PREFIX + "-Webhook-Signature", "")):
                log("webhook with a bad signature refused")
                return self.answer(401, "bad signature")
        event = json.loads(body)
        self.answer(200)
        log("webhook", event["event"], event["eventInstance"])
        if event["event"] == "order:create":
            threading.Thread(target=on_order_create, args=(event["eventInstance"],), daemon=True).start()
        elif event["event"] in ("addon:uninstall", "addon:terminate"):
            with state.lock:
                state.oauth_token = state.api_token = None

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    log("listening on", BASE)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    main()
