"""FCM HTTP v1 clients nobody here wrote, pointed at pushdeck's gateway and otherwise unchanged:
google-auth fetching its access token from the key file's token_uri (pushdeck's /token),
firebase-admin (its FCM_URL class attribute, and for topics the messaging service's topic URL,
an instance attribute in 7.x) and pyfcm (its FCM_END_POINT_BASE class attribute).

    fcm_send.py CASES PORT SERVICE_ACCOUNT_JSON [TOKEN...]

CASES is a comma-separated list of what to run. Prints one JSON object per line, per case:
{"case": ..., ...what it saw...}. The gateway's CA comes from REQUESTS_CA_BUNDLE.
"""
import json
import sys

import google.auth.transport.requests
from google.oauth2 import service_account

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


def emit(case, **fields):
    print(json.dumps({"case": case, **fields}), flush=True)


def exception_fields(error):
    """What firebase-admin's exception says: its class, code, message and HTTP status."""
    response = getattr(error, "http_response", None)
    return {
        "exception": type(error).__name__,
        "code": getattr(error, "code", None),
        "message": str(error),
        "status": response.status_code if response is not None else None,
    }


def google_auth(base, account_file):
    """google-auth refreshes from the file's token_uri, as every Admin SDK does underneath."""
    credentials = service_account.Credentials.from_service_account_file(account_file, scopes=[SCOPE])
    credentials.refresh(google.auth.transport.requests.Request())
    emit("google-auth", token=credentials.token, valid=credentials.valid,
         expiry=credentials.expiry.isoformat() if credentials.expiry else None)


def google_auth_forged(base, account_file):
    """The same account with another key: Google's invalid_grant, as google-auth raises it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    info = json.load(open(account_file))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    info["private_key"] = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    credentials = service_account.Credentials.from_service_account_info(info, scopes=[SCOPE])
    try:
        credentials.refresh(google.auth.transport.requests.Request())
        emit("google-auth-forged", refreshed=True)
    except Exception as error:  # google.auth.exceptions.RefreshError
        emit("google-auth-forged", exception=type(error).__name__, message=str(error))


def firebase(base, account_file):
    import firebase_admin
    from firebase_admin import credentials, messaging
    messaging._MessagingService.FCM_URL = base + "/v1/projects/{0}/messages:send"
    app = firebase_admin.initialize_app(credentials.Certificate(account_file), name="pushdeck")
    service = messaging._get_messaging_service(app)
    service._fcm_topic_url = base + "/v1/projects/{0}/registrations".format(service._project_id)
    return app, messaging


def firebase_cases(cases, base, account_file, tokens):
    app, messaging = firebase(base, account_file)
    good = tokens[0] if tokens else "fcm-token"
    notification = messaging.Notification(title="Order shipped", body="Your parcel is on its way")

    def attempt(case, call):
        try:
            emit(case, ok=True, result=call())
        except Exception as error:
            emit(case, ok=False, **exception_fields(error))

    if "send" in cases:
        attempt("send", lambda: messaging.send(messaging.Message(token=good, notification=notification, data={"order": "42"}), app=app))
    if "data" in cases:
        attempt("data", lambda: messaging.send(messaging.Message(token=good, data={"sync": "1"}), app=app))
    if "dry-run" in cases:
        attempt("dry-run", lambda: messaging.send(messaging.Message(token=good, notification=notification), dry_run=True, app=app))
    if "send-each" in cases:
        # success, an unregistered token, a token of another project, a bad field.
        # The fourth has a negative notification_count, which FCM refuses and firebase-admin
        # does not check itself.
        messages = [
            messaging.Message(token=good, notification=notification),
            messaging.Message(token=tokens[1], notification=notification),
            messaging.Message(token=tokens[2], notification=notification),
            messaging.Message(token=good, android=messaging.AndroidConfig(
                notification=messaging.AndroidNotification(title="t", notification_count=-1))),
        ]
        response = messaging.send_each(messages, app=app)
        emit("send-each", success=response.success_count, failure=response.failure_count,
             results=[{"ok": r.success, "id": r.message_id,
                       **(exception_fields(r.exception) if r.exception else {})} for r in response.responses])
    if "invalid" in cases:
        # A condition FCM cannot read (firebase-admin sends it as given).
        attempt("invalid", lambda: messaging.send(messaging.Message(condition="'a' in topics &&", notification=notification), app=app))
    if "topic" in cases:
        def subscribe():
            response = messaging.subscribe_to_topic(tokens[:2], "news", app=app)
            return {"success": response.success_count, "failure": response.failure_count,
                    "errors": [{"index": e.index, "reason": e.reason} for e in response.errors]}
        attempt("subscribe", subscribe)
        attempt("topic", lambda: messaging.send(messaging.Message(topic="news", notification=notification), app=app))
        attempt("condition", lambda: messaging.send(
            messaging.Message(condition="'news' in topics && !('sport' in topics)", notification=notification), app=app))
        attempt("unsubscribe", lambda: messaging.unsubscribe_from_topic(tokens[:1], "news", app=app).success_count)
    if "ios" in cases:
        apns = messaging.APNSConfig(headers={"apns-priority": "10"},
                                    payload=messaging.APNSPayload(aps=messaging.Aps(alert=messaging.ApsAlert(title="Hi", body="from FCM"), badge=3)))
        attempt("ios", lambda: messaging.send(messaging.Message(token=tokens[3], apns=apns), app=app))


def pyfcm_case(base, account_file, tokens):
    from pyfcm import FCMNotification
    FCMNotification.FCM_END_POINT_BASE = base + "/v1/projects"
    fcm = FCMNotification(service_account_file=account_file)
    try:
        result = fcm.notify(fcm_token=tokens[0], notification_title="pyfcm", notification_body="hello", data_payload={"a": "b"})
        emit("pyfcm", ok=True, result=result)
    except Exception as error:
        emit("pyfcm", ok=False, exception=type(error).__name__, message=str(error))


def main():
    cases = set(sys.argv[1].split(","))
    base = "https://localhost:" + sys.argv[2]
    account_file = sys.argv[3]
    tokens = sys.argv[4:]
    if "google-auth" in cases:
        google_auth(base, account_file)
    if "google-auth-forged" in cases:
        google_auth_forged(base, account_file)
    if cases & {"send", "data", "dry-run", "send-each", "invalid", "topic", "ios"}:
        firebase_cases(cases, base, account_file, tokens)
    if "pyfcm" in cases:
        pyfcm_case(base, account_file, tokens)


if __name__ == "__main__":
    main()
