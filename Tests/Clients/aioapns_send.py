"""Sends APNs requests to pushdeck's gateway with aioapns, unchanged but for its host.

aioapns connects to its protocol class's APNS_SERVER:APNS_PORT; a subclass of its own protocol
class with pushdeck's address is put in the pool (no file of the library is edited). TLS trust
comes from SSL_CERT_FILE (pushdeck's CA), which ssl.create_default_context() reads.

Usage: aioapns_send.py SPEC.json   — prints one JSON object per request, in order.
SPEC: {"host", "port", "key" (PEM path), "key_id", "team_id", "topic",
       "requests": [{"token", "message", "priority"?, "push_type"?, "collapse_key"?,
                     "time_to_live"?, "notification_id"?, "topic"?}]}
"""
import asyncio
import json
import sys

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol


async def main(spec):
    class PushdeckProtocol(APNsProductionClientProtocol):
        APNS_SERVER = spec["host"]
        APNS_PORT = spec["port"]

    with open(spec["key"]) as handle:
        key = handle.read()
    client = APNs(key=key, key_id=spec["key_id"], team_id=spec["team_id"], topic=spec["topic"])
    client.pool.protocol_class = PushdeckProtocol
    results = []
    for item in spec["requests"]:
        request = NotificationRequest(
            device_token=item["token"],
            message=item["message"],
            notification_id=item.get("notification_id"),
            time_to_live=item.get("time_to_live"),
            priority=item.get("priority"),
            collapse_key=item.get("collapse_key"),
            push_type=PushType(item["push_type"]) if "push_type" in item else None,
            apns_topic=item.get("topic"),
        )
        result = await client.send_notification(request)
        results.append({
            "id": result.notification_id, "status": result.status,
            "description": result.description, "timestamp": result.timestamp,
        })
    client.pool.close()
    for result in results:
        print(json.dumps(result))


if __name__ == "__main__":
    with open(sys.argv[1]) as spec_file:
        asyncio.run(main(json.load(spec_file)))
