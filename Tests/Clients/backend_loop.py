#!/usr/bin/env python3
"""A small backend push loop, as a provider's backend writes one: it sends one APNs notification
(a fixed apns-id, so a resend is "the same notification") over HTTP/1.1 with the standard
library's http.client, and handles the answer.

  backend_loop.py ADDRESS TOKEN MODE [--sends N] [--backoff S] [--provider-token JWT]

MODE "polite" honours the answer: on a refusal it waits max(retry-after, --backoff) seconds and
sends again; on 410 Unregistered it stops pushing to the token (Apple: "stop sending
notifications to that device token"). MODE "rude" resends at once and ignores 410. Bounded:
at most --sends requests. Prints one line per answer: STATUS REASON.
"""
import argparse
import http.client
import json
import sys
import time
import uuid

parser = argparse.ArgumentParser()
parser.add_argument("address")
parser.add_argument("token")
parser.add_argument("mode", choices=["polite", "rude"])
parser.add_argument("--sends", type=int, default=3)
parser.add_argument("--backoff", type=float, default=0.5)
parser.add_argument("--provider-token", default="")
parser.add_argument("--topic", default="com.example.shop")
arguments = parser.parse_args()

host, port = arguments.address.rsplit(":", 1)
apns_id = str(uuid.uuid4())
body = json.dumps({"aps": {"alert": {"title": "Order shipped", "body": "on its way"}}})
connection = http.client.HTTPConnection(host, int(port), timeout=10)

for attempt in range(arguments.sends):
    connection.request("POST", "/3/device/" + arguments.token, body=body, headers={
        "apns-topic": arguments.topic, "apns-id": apns_id, "apns-push-type": "alert",
        "authorization": "bearer " + arguments.provider_token, "content-type": "application/json",
    })
    response = connection.getresponse()
    payload = response.read()
    reason = json.loads(payload).get("reason", "") if payload else ""
    print(response.status, reason, flush=True)
    if response.status == 200:
        break
    if response.status == 410 and arguments.mode == "polite":
        break
    if arguments.mode == "polite":
        retry_after = response.getheader("retry-after")
        time.sleep(max(float(retry_after) if retry_after else 0.0, arguments.backoff))
connection.close()
sys.exit(0)
