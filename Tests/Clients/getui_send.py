"""Calls pushdeck's gateway as Getui's REST API v2 documentation shows, with Python requests.

BaseUrl is https://localhost:PORT/v2/$appId (Getui's is https://restapi.getui.com/v2/$appId);
TLS trust comes from REQUESTS_CA_BUNDLE. The client does what Getui's token page advises:
it fetches a token with sign = sha256(appkey + timestamp + mastersecret), sends it in the
`token` header, and on code 10001 fetches a new one and sends again.

Usage: getui_send.py PORT APP_ID APP_KEY MASTER_SECRET BODY.json...
Each BODY is a push/single/cid body (a file named push-all*.json goes to push/all, batch*.json
to push/single/batch/cid). The pushes
are sent in order; a body is sent a second time when its file name contains "repeat". Before
the body whose name contains "after-expiry" the client sleeps past the token's expire_time
(the server runs with a short --getui-token-seconds). Prints one JSON object per call:
{"call", "code", "msg", "data", "reauthenticated"}. With GETUI_TOKEN set the client starts
with that token (one from before a gateway restart) instead of authenticating first.
"""
import hashlib
import json
import os
import sys
import time

import requests

port, app_id, app_key, master_secret = sys.argv[1:5]
bodies = sys.argv[5:]
base_url = "https://localhost:%s/v2/%s" % (port, app_id)
headers = {"Content-Type": "application/json;charset=utf-8"}
session = requests.Session()
state = {"token": None, "expire_time": 0}


def auth():
    timestamp = str(int(time.time() * 1000))
    sign = hashlib.sha256((app_key + timestamp + master_secret).encode("utf-8")).hexdigest()
    reply = session.post(base_url + "/auth", headers=headers,
                         data=json.dumps({"sign": sign, "timestamp": timestamp, "appkey": app_key})).json()
    print(json.dumps({"call": "auth", "code": reply["code"], "msg": reply["msg"], "data": reply.get("data")}), flush=True)
    if reply["code"] == 0:
        state["token"] = reply["data"]["token"]
        state["expire_time"] = int(reply["data"]["expire_time"])


def call(path, body):
    reauthenticated = False
    for _ in range(2):
        reply = session.post(base_url + path, headers=dict(headers, token=state["token"] or ""), data=body.encode("utf-8")).json()
        if reply["code"] != 10001:
            break
        auth()
        reauthenticated = True
    print(json.dumps({"call": path, "code": reply["code"], "msg": reply["msg"], "data": reply.get("data"),
                      "reauthenticated": reauthenticated}, ensure_ascii=False), flush=True)


# GETUI_TOKEN: a token the backend kept from before (the gateway restarted since): sent as is,
# so the first call meets 10001 and the client re-authenticates as Getui's SDKs do.
if os.environ.get("GETUI_TOKEN"):
    state["token"] = os.environ["GETUI_TOKEN"]
else:
    auth()
for path in bodies:
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as file:
        body = file.read()
    if "after-expiry" in name:
        wait = state["expire_time"] / 1000 - time.time() + 0.05
        if wait > 0:
            time.sleep(wait)
    endpoint = "/push/all" if name.startswith("push-all") else "/push/single/batch/cid" if name.startswith("batch") else "/push/single/cid"
    call(endpoint, body)
    if "repeat" in name:
        call(endpoint, body)
