#!/usr/bin/env python3
"""A loopback campaign server for Actuate's HTTPCampaignSource: the tests' server, and an example to copy.

It listens on 127.0.0.1 on an ephemeral port and prints the port alone on its first stdout line.

    python3 Tests/Support/campaign_server.py                     # serves the shop demo's campaigns
    swift run shop-demo --campaign-server http://127.0.0.1:PORT/v1/campaigns
    python3 Tests/Support/campaign_server.py --result '{"campaigns": []}' --script '["ok", "redirect"]'

The request and response are documented in ActuatePersonalization's article "Serving campaigns".

Endpoints:
  POST /v1/campaigns      records the request (its JSON body and Authorization header), then answers with the
                          next script entry, or "ok" once the script is used up.
  GET  /control/requests  {"requests": [{"body": ..., "authorization": ...}, ...]}.
  POST /control/script    replaces the remaining script with the JSON list in the body.
  POST /control/shutdown  stops the server.

"ok" answers with --result when it is given; otherwise with the campaigns of --campaigns (a file in the rules
format's "campaigns" shape; the shop demo's campaigns by default) whose trigger matches the request, each with the
server's test or control assignment for the user: an entry's "isControlGroup": true puts every user in control,
and "controlGroupPercent": N puts a stable N% of users there, bucketed by SHA-256 of the campaign id and the user
(userId, else anonymousId), independently per campaign.

Other script entries:
  "truncated"    200 declaring the whole answer's Content-Length, sending half of it, then closing.
  "not-json"     200 with a body that is not JSON.
  "wrong-shape"  200 with JSON whose "campaigns" is an object.
  "bad-number"   200 with a campaign whose campaignId is 1e300.
  "oversized"    200 with a valid body of 2 MB (a campaign with a long headline).
  "redirect"     307 to this same endpoint (a client that followed it would post again).
  "drop"         closes the connection without answering.
  "NNN"          that status with a small JSON error body, such as "500" or "401".

It stops by itself after --max-seconds, when its parent process dies, and when its standard input reaches end
of file. Only the Python 3 standard library is used.
"""

import hashlib
import json
import sys

import loopback_server

KNOWN = {"ok", "truncated", "not-json", "wrong-shape", "bad-number", "oversized", "redirect", "drop"}
INTERACTIONS = ["addToCart", "removeFromCart", "purchase", "review", "share", "comment", "favorite"]

# The shop demo's campaigns, as the server's: the same campaigns as the demo's embedded file, in experience
# "server-1", with the reviews campaign held back from every user by the server.
DEMO_CAMPAIGNS = {
    "campaigns": [
        {
            "campaignId": "free-shipping", "campaignName": "Free shipping", "messageId": "banner-1",
            "experienceId": "server-1", "target": "product-banner",
            "data": {"headline": "Free shipping on shoes this week"},
            "trigger": {"itemView": {"type": "Product"}, "context": "Product"},
        },
        {
            "campaignId": "complete-the-look", "campaignName": "Complete the look", "messageId": "banner-2",
            "experienceId": "server-1", "target": "product-banner", "promotedItemKeys": ["Product:p2"],
            "data": {"headline": "Add a rain jacket for 15% off"},
            "trigger": {"addToCart": {}, "context": "Product"},
        },
        {
            "campaignId": "members-reviews", "campaignName": "Members' reviews", "messageId": "footer-1",
            "experienceId": "server-1", "target": "product-footer",
            "data": {"headline": "See what members say"}, "controlGroupPercent": 100,
            "trigger": {"action": "Open Reviews", "context": "Product"},
        },
    ]
}


def check_entry(entry):
    text = str(entry)
    if text not in KNOWN and not (text.isdigit() and len(text) == 3):
        raise ValueError("unknown script entry %r" % entry)
    return text


def matches(trigger_rule, request):
    """Whether a rules-format trigger matches the posted request."""
    context = trigger_rule.get("context")
    if context is not None and context != request.get("context"):
        return False
    trigger = request.get("trigger") or {}
    kind = trigger.get("kind")
    if "action" in trigger_rule:
        return kind == "action" and trigger.get("name") == trigger_rule["action"]
    for key in ["itemView"] + INTERACTIONS:
        if key in trigger_rule:
            wanted = trigger_rule[key] or {}
            if kind != key:
                return False
            if "type" in wanted and wanted["type"] != trigger.get("itemType"):
                return False
            return "id" not in wanted or wanted["id"] in (trigger.get("itemIds") or [])
    return False


def in_control_group(entry, request):
    """The server's assignment: stable per campaign and user, independent between campaigns."""
    if entry.get("isControlGroup") is True:
        return True
    percent = entry.get("controlGroupPercent", 0)
    user = request.get("userId") or request.get("anonymousId") or ""
    digest = hashlib.sha256(("%s:%s" % (entry["campaignId"], user)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100 < percent


def campaigns_for(rules, request):
    answer = []
    for entry in rules.get("campaigns", []):
        if matches(entry.get("trigger") or {}, request):
            campaign = {k: v for k, v in entry.items() if k not in ("trigger", "controlGroupPercent")}
            campaign["isControlGroup"] = in_control_group(entry, request)
            answer.append(campaign)
    return {"campaigns": answer}


class Server(loopback_server.ServerState):
    """The server's state, shared by the handler threads behind one lock."""

    def __init__(self, result, rules, script):
        super().__init__()
        self.result = result
        self.rules = rules
        self.script = [check_entry(entry) for entry in script]
        self.requests = []

    def next_entry(self):
        with self.lock:
            return self.script.pop(0) if self.script else "ok"


def make_handler(server):
    class Handler(loopback_server.Handler):
        def answer(self, status, body, length=None, headers=None):
            """Sends `body` and closes the connection, so that no answer reuses one a hostile answer broke."""
            self.send(status, body, headers=dict(headers or {}, Connection="close"), length=length)
            self.drop_connection()

        def do_GET(self):
            if self.path == "/control/requests":
                with server.lock:
                    payload = {"requests": list(server.requests)}
                self.answer(200, json.dumps(payload).encode("utf-8"))
            else:
                self.answer(404, b'{"error": "not found"}')

        def do_POST(self):
            body = self.read_body()
            if self.path == "/v1/campaigns":
                self.campaigns(body)
            elif self.path == "/control/script":
                try:
                    script = [check_entry(entry) for entry in json.loads(body or b"[]")]
                except (ValueError, TypeError) as error:
                    self.answer(400, json.dumps({"error": str(error)}).encode("utf-8"))
                    return
                with server.lock:
                    server.script = script
                self.answer(200, b"{}")
            elif self.path == "/control/shutdown":
                self.answer(200, b"{}")
                server.stop()
            else:
                self.answer(404, b'{"error": "not found"}')

        def campaigns(self, body):
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None
            with server.lock:
                server.requests.append({"body": parsed, "authorization": self.headers.get("Authorization")})
            entry = server.next_entry()
            if server.result is not None:
                result = server.result
            else:
                result = json.dumps(campaigns_for(server.rules, parsed or {})).encode("utf-8")
            if entry == "ok":
                self.answer(200, result)
            elif entry == "truncated":
                self.answer(200, result[: len(result) // 2], length=len(result))
            elif entry == "not-json":
                self.answer(200, b"<html>Service temporarily replaced by a proxy page</html>")
            elif entry == "wrong-shape":
                self.answer(200, b'{"campaigns": {"campaignId": "a"}}')
            elif entry == "bad-number":
                self.answer(200, b'{"campaigns": [{"target": "t", "campaignId": 1e300, "isControlGroup": false}]}')
            elif entry == "oversized":
                headline = "x" * (2 * 1024 * 1024)
                campaign = {"target": "t", "campaignId": "big", "isControlGroup": False, "data": {"h": headline}}
                self.answer(200, json.dumps({"campaigns": [campaign]}).encode("utf-8"))
            elif entry == "redirect":
                self.answer(307, b"{}", headers={"Location": "/v1/campaigns"})
            elif entry == "drop":
                self.drop_connection()
            else:
                self.answer(int(entry), json.dumps({"error": "scripted %s" % entry}).encode("utf-8"))

    return Handler


def main():
    parser = loopback_server.argument_parser("Loopback campaign server for Actuate's tests and the shop demo.")
    parser.add_argument("--result", help="the JSON that 'ok' answers, whatever the request")
    parser.add_argument("--campaigns", help="a JSON file with a 'campaigns' array in the rules format")
    parser.add_argument("--script", default="[]", help="a JSON list of answers to give, in order")
    arguments = parser.parse_args()
    try:
        rules = DEMO_CAMPAIGNS
        if arguments.campaigns:
            with open(arguments.campaigns, encoding="utf-8") as file:
                rules = json.load(file)
        result = arguments.result.encode("utf-8") if arguments.result is not None else None
        server = Server(result, rules, json.loads(arguments.script))
    except (OSError, ValueError, TypeError) as error:
        print("campaign_server: %s" % error, file=sys.stderr)
        return 2
    return loopback_server.serve(server, make_handler(server), arguments.max_seconds)


if __name__ == "__main__":
    loopback_server.exit_after(main)
