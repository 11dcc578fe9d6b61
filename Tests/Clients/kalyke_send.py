"""Sends Live Activity pushes to pushdeck's gateway with kalyke-apns, unchanged but for its endpoint.

kalyke's clients build their URL from the `_base_url` property (Apple's production or sandbox
host); a subclass of its own LiveActivityClient names pushdeck's address instead (no file of the
library is edited). kalyke signs the provider token itself, with `iat` as a string of digits.
TLS trust comes from SSL_CERT_FILE (pushdeck's CA).

Usage: kalyke_send.py SPEC.json   — prints one JSON object per request, in order.
SPEC: {"base_url", "key" (PEM path), "key_id", "team_id", "topic",
       "requests": [{"token", "event", "timestamp", "content_state",
                     "attributes_type"?, "attributes"?, "dismissal_date"?}]}
"""
import asyncio
import datetime
import json
import sys

from kalyke import LiveActivityApnsConfig, LiveActivityClient, LiveActivityEvent, LiveActivityPayload
from kalyke.exceptions import ApnsProviderException


async def main(spec):
    class PushdeckClient(LiveActivityClient):
        @property
        def _base_url(self):
            return spec["base_url"]

    client = PushdeckClient(
        use_sandbox=False, team_id=spec["team_id"], auth_key_id=spec["key_id"], auth_key_filepath=spec["key"])
    config = LiveActivityApnsConfig(topic=spec["topic"])
    for item in spec["requests"]:
        def date(key):
            return datetime.datetime.fromtimestamp(item[key]) if key in item else None
        payload = LiveActivityPayload(
            event=LiveActivityEvent(item["event"]), timestamp=date("timestamp"), content_state=item["content_state"],
            attributes_type=item.get("attributes_type"), attributes=item.get("attributes"),
            dismissal_date=date("dismissal_date"))
        try:
            apns_id = await client.send_message(device_token=item["token"], payload=payload, apns_config=config)
            print(json.dumps({"status": 200, "apns_id": apns_id}))
        except ApnsProviderException as error:
            print(json.dumps({"status": "refused", "reason": type(error).__name__}))


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        asyncio.run(main(json.load(handle)))
