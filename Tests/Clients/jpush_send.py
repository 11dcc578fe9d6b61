"""Pushes to pushdeck's gateway with JPush's official Python SDK (jpush on PyPI), unchanged.

The SDK takes its base URLs from jpush.common.ZONES by zone name; a zone "PUSHDECK" pointing
at the gateway is added there and passed to jpush.JPush(zone=...) (no file of the library is
edited). TLS trust comes from REQUESTS_CA_BUNDLE (pushdeck's CA), which requests reads.

Every push shape the SDK's README shows, in order, then audiences by tag and alias (the
test added TAGGED_ID with tags 深圳, 女, 会员 and alias alias1), a tag nobody carries, a wrong
master secret and a registration id of another app. Prints one JSON object per case:
{"case", "status", "sendno", "msg_id"} or {"case", "error_code", "status"} or
{"case", "unauthorized": true}.

With ONLY (a case name: all, ios, message, both), that one push is sent and nothing else.
A JPushFailure's line also has its "message" (the SDK's `details`, JPush's error.message).

Usage: jpush_send.py PORT APP_KEY MASTER_SECRET REGISTRATION_ID FOREIGN_REGISTRATION_ID TAGGED_ID [ONLY]
"""
import json
import sys

import jpush
from jpush import common

port, app_key, master_secret, registration_id, foreign_id, tagged_id = sys.argv[1:7]
base = "https://localhost:%s/v3/" % port
common.ZONES["PUSHDECK"] = {
    "PUSH": base, "REPORT": base + "report/", "DEVICE": base + "devices/", "ALIAS": base + "aliases/",
    "TAG": base + "tags/", "SCHEDULE": base + "schedules/", "ADMIN": base + "admin/",
}


def run(name, client, build, validate=False):
    push = client.create_push()
    build(push)
    try:
        response = push.send_validate() if validate else push.send()
        out = {"case": name, "status": response.status_code,
               "sendno": response.payload.get("sendno"), "msg_id": response.payload.get("msg_id")}
    except common.Unauthorized:
        out = {"case": name, "unauthorized": True}
    except common.JPushFailure as failure:
        out = {"case": name, "status": failure.response.status_code, "error_code": failure.error_code,
               "message": failure.details}
    print(json.dumps(out), flush=True)


client = jpush.JPush(app_key, master_secret, zone="pushdeck")


def alert_all(push):
    push.audience = jpush.all_
    push.notification = jpush.notification(alert="hello python jpush api")
    push.platform = jpush.all_


def ios_to_registration_id(push):
    push.audience = jpush.audience(jpush.registration_id(registration_id))
    ios = jpush.ios(alert={"title": "订单通知", "body": "您的订单 1270339 已发货"}, badge="+1", sound="a.caf",
                    extras={"k1": "v1"}, thread_id="orders")
    push.notification = jpush.notification(alert="Hello world with audience!", ios=ios)
    push.platform = jpush.platform("ios")


def message_only(push):
    push.audience = jpush.audience(jpush.registration_id(registration_id))
    push.message = jpush.message("早报：三条新闻，一分钟读完", title="早报", content_type="text", extras={"url": "https://news.example.com"})
    push.platform = jpush.all_


def notification_and_message_with_options(push):
    push.audience = jpush.audience(jpush.registration_id(registration_id))
    push.notification = jpush.notification(alert="Hi, JPush!", ios=jpush.ios(alert="您有一条新消息", badge=3, sound="default"))
    push.message = jpush.message("官方客服：您好", title="官方客服")
    push.options = {"time_to_live": 86400, "sendno": 12345, "apns_production": False, "apns_collapse_id": "chat-121"}
    push.platform = jpush.platform("ios", "android")


def alias_audience(push):
    push.audience = jpush.audience(jpush.alias("alias1", "alias2"))
    push.notification = jpush.notification(alert="Hello world with alias!")
    push.platform = jpush.all_


def tag_audience(push):
    push.audience = jpush.audience(jpush.tag("深圳", "广州"), jpush.tag_and("女", "会员"))
    push.notification = jpush.notification(alert="Hello world with tags!")
    push.platform = jpush.all_


def tag_not_audience(push):
    push.audience = jpush.audience(jpush.tag("深圳"), jpush.tag_not("男"))
    push.message = jpush.message("会员专享", title="深圳")
    push.platform = jpush.all_


def nobody_audience(push):
    push.audience = jpush.audience(jpush.tag("nobody-has-this-tag"))
    push.notification = jpush.notification(alert="to nobody")
    push.platform = jpush.all_


def foreign_audience(push):
    push.audience = jpush.audience(jpush.registration_id(foreign_id))
    push.notification = jpush.notification(alert="not yours")
    push.platform = jpush.all_


if len(sys.argv) > 7:
    only = sys.argv[7]
    run(only, client, {"all": alert_all, "ios": ios_to_registration_id, "message": message_only,
                       "both": notification_and_message_with_options}[only])
    sys.exit(0)

run("all", client, alert_all)
run("ios", client, ios_to_registration_id)
run("message", client, message_only)
run("both", client, notification_and_message_with_options)
run("validate", client, alert_all, validate=True)
# JPush's Device API as the SDK calls it: tags and an alias set on REGISTRATION_ID (registered
# by the pushes above), read back, then a push to that alias.
device = client.create_device()
entity = jpush.device_tag(jpush.add("北京", "vip"))
entity.update(jpush.device_alias("alias9"))
set_reply = device.set_deviceinfo(registration_id, entity)
info = device.get_deviceinfo(registration_id)
print(json.dumps({"case": "device-api", "status": set_reply.status_code, "tags": info.payload.get("tags"),
                  "alias": info.payload.get("alias")}, ensure_ascii=False), flush=True)


def device_api_alias(push):
    push.audience = jpush.audience(jpush.alias("alias9"), jpush.tag_and("vip"))
    push.notification = jpush.notification(alert="to the device the Device API tagged")
    push.platform = jpush.all_


run("device-api-alias", client, device_api_alias)
run("alias", client, alias_audience)
run("tag", client, tag_audience)
run("tag-not", client, tag_not_audience)
run("nobody", client, nobody_audience)
run("foreign", client, foreign_audience)
run("bad-secret", jpush.JPush(app_key, "not-the-secret", zone="pushdeck"), alert_all)
