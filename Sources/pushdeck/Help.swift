import PushJSON

/// The `--help` text of every command.
enum Help {
    static let overview = """
        pushdeck — a terminal notification center for mobile push payloads

        Usage:
          pushdeck [ui]   [--socket P] [--db P | --memory] [--banner-seconds S]
                          [--gateway [HOST:PORT] [--tls-cert F --tls-key F]]
          pushdeck serve  [--socket P] [--db P | --memory] [--gateway [HOST:PORT]]
          pushdeck send   [FILE|-] [--app BUNDLE] [--channel apns|transparent] [--offline]
                          [--title T] [--body B] [--badge N]
                          [--collapse-id ID] [--push-type T] [--priority 10|5|1]
          pushdeck badge  [--app A] [--set N | --clear] [--sync on|off] [--watch]
                          [--policy [app|platform]] [--sdk jpush|getui|ios CALL [N]]
          pushdeck mode   [on|off]
          pushdeck mute   APP [--for DURATION] | unmute APP
          pushdeck quiet  [HH:MM-HH:MM | off]
          pushdeck read   ID... | --all [--app A]
          pushdeck delete ID...
          pushdeck list   [--app A] [--unread] [--limit N] [--before ID] [--json]
          pushdeck app    [foreground|background|terminated]
          pushdeck watch  [--topic T]...
          pushdeck demo   [--speed X]
          pushdeck ping
          pushdeck device add TOKEN --app BUNDLE [--vendor apns|jpush|getui] | list [--json]
                          | remove TOKEN | unregister TOKEN | offline [TOKEN] | online [TOKEN]
          pushdeck key    add apns --key-id K --team T --p8 FILE | list [--json] | remove ID
          pushdeck gateway [ca]
          pushdeck reset  [--app A] [--all]
          pushdeck expect [--app A] [--title RE] [--body RE] [--via V] [--count N] [--since ID]
                          [--badge N] [--server-badge N] [--unread N] [--banner] [--timeout S]
                          [-- COMMAND...]
          pushdeck play   FILE... [--instant | --speed X] [--live] [--junit FILE] [--json]
          pushdeck record FILE

        Every client command takes --socket P (else $PUSHDECK_SOCKET, else
        $XDG_RUNTIME_DIR/pushdeck/pushdeck.sock, else /tmp/pushdeck-$UID/pushdeck.sock).
        Exit codes: 0 done, 1 the server said no, 2 bad usage, 3 no server at the socket.
        Run 'pushdeck COMMAND --help' for one command.
        """

    static let commands: [String: String] = [
        "ui": """
            pushdeck [ui] [--socket P] [--db P | --memory] [--banner-seconds S] [--max-payload BYTES]
                          [--gateway [HOST:PORT] [--tls-cert F --tls-key F]]
                          [--devices open|strict]
              The full-screen notification center. It owns the socket and the store itself: no
              server to start first. Keys: ↑↓ move, ⏎ open, r read, a all read, c clear badge,
              m push on/off, f app state, d delete, / filter, o open banner, Esc dismiss, ? help, q quit.
              --gateway [HOST:PORT]  also answer the APNs provider API (/3/), JPush's Push API v3
                            (/v3/push) and Getui's REST API v2 (/v2/{appId}/…) over HTTP/2 and HTTP/1.1
                            (default 127.0.0.1:2197): TLS with ALPN h2/http/1.1; on loopback also
                            cleartext h2c (prior knowledge) and HTTP/1.1. Non-loopback: TLS only.
              --tls-cert F --tls-key F  the gateway's certificate and key (PEM); without them a local
                            CA and a certificate for localhost, 127.0.0.1, ::1 are made once under
                            $XDG_DATA_HOME/pushdeck/tls (see 'pushdeck gateway ca')
              --getui-token-seconds S  how long a Getui token lives (default 86400; for tests)
            """,
        "serve": """
            pushdeck serve [--socket P] [--db P | --memory] [--banner-seconds S] [--max-payload BYTES]
                           [--gateway [HOST:PORT] [--tls-cert F --tls-key F]]
                           [--devices open|strict]
              The same server without a terminal, for scripts and CI. Logs go to stderr.
              Stops cleanly on SIGTERM or ^C (the socket is removed, the store closed).
              --db P        the SQLite inbox (default $PUSHDECK_DB, $XDG_DATA_HOME/pushdeck/inbox.sqlite,
                            ~/.local/share/pushdeck/inbox.sqlite)
              --memory      keep nothing on disk
              --gateway [HOST:PORT]  also answer the APNs provider API over HTTP/2 and HTTP/1.1
                            (default 127.0.0.1:2197): TLS with ALPN h2/http/1.1; on loopback also
                            cleartext h2c (prior knowledge) and HTTP/1.1. Non-loopback: TLS only.
              --tls-cert F --tls-key F  the gateway's certificate and key (PEM); without them a local
                            CA and a certificate for localhost, 127.0.0.1, ::1 are made once under
                            $XDG_DATA_HOME/pushdeck/tls (see 'pushdeck gateway ca')
              --devices open|strict  an unknown device token pushed to through the gateway is
                            registered to the request's app (open, the default) or refused as
                            the vendor would (strict: APNs BadDeviceToken)
            """,
        "send": """
            pushdeck send [FILE|-] [--app BUNDLE] [--channel apns|transparent] [--offline]
                          [--title T] [--body B] [--badge N]
                          [--collapse-id ID] [--push-type T] [--priority 10|5|1]
              Sends a push and prints the server's reply line, e.g. {"ok":true,"id":17,...}.
              FILE is an .apns file, a Getui pass-through or a JPush message (JSON, trailing commas
              allowed); '-' reads standard input, which may hold several objects one after another.
              Without FILE, --title/--body/--badge build an APNs payload.
              --collapse-id ID  apns-collapse-id: replaces the app's earlier message with that id
              --push-type T     apns-push-type (background: a silent push, listed without a banner)
              --priority P      apns-priority 10, 5 or 1
            """,
        "badge": """
            pushdeck badge [--app A] [--set N | --clear] [--sync on|off] [--watch]
              Prints the icon badge (the total over apps without --app) as a bare number.
              --set N      set the icon badge of A (of 'default' without --app)
              --clear      set both the icon and the server badge to 0 (every app without --app)
              --sync on|off  keep the server badge in step with the icon badge (default on)
              --server     print the server badge instead
              --watch      print a new line each time it changes, until ^C
              --policy [app|platform]  set A's badge policy, or print it: 'app' (the default) adds 1
                           per delivered message and takes 1 per read; 'platform' moves the icon only
                           when a push says so (aps.badge, JPush ios.badge, Getui autoBadge)
              --sdk SDK CALL [N]  an SDK's badge call, moving only the ledger its SDK moves:
                           jpush setBadge N | resetBadge (server), getui setBadge N | resetBadge
                           (server), getui setLocalBadge N (icon), ios setApplicationIconBadgeNumber N
                           | setBadgeCount N (icon). Prints the icon badge.
            """,
        "mute": """
            pushdeck mute APP [--for DURATION]
              Mutes one app: its pushes are listed and counted but show no banner, for DURATION
              (90s, 30m, 1h, 2d) or until 'pushdeck unmute APP'. time-sensitive and critical
              pushes (aps.interruption-level) still show. Prints the reply line.
            """,
        "unmute": """
            pushdeck unmute APP
              Ends a mute. Prints the reply line.
            """,
        "quiet": """
            pushdeck quiet [HH:MM-HH:MM | off]
              Scheduled do-not-disturb in local time (across midnight when the end is earlier):
              pushes are listed without a banner; time-sensitive and critical ones pass.
              Prints the quiet hours, or off.
            """,
        "mode": """
            pushdeck mode [on|off]
              Prints the push mode (on or off). 'off' drops pushes, like Getui's setPushModeForOff.
            """,
        "read": """
            pushdeck read ID... | --all [--app A]
              Marks messages read (opening them): the badge goes down by one for each unread one.
              Prints the reply line with the new badge.
            """,
        "delete": """
            pushdeck delete ID...
              Deletes messages. Prints the reply line with the new badge.
            """,
        "list": """
            pushdeck list [--app A] [--unread] [--limit N] [--before ID] [--json]
              The newest messages first (50 by default, at most 1000): a table, or with --json a
              JSON array of message objects.
            """,
        "app": """
            pushdeck app [foreground|background|terminated]
              Prints (or sets) the simulated app state. Foreground shows banners; background only
              lists; terminated holds pass-through messages until the app is next in the foreground.
            """,
        "watch": """
            pushdeck watch [--topic T]...
              Prints one JSON event per line until ^C. Topics: message.received, remote.received,
              message.read, message.deleted, message.dropped, badge.changed, mode.changed,
              app.changed, feedback, banner.shown, reset, push.undelivered, badge.request
              (all when none given).
            """,
        "demo": """
            pushdeck demo [--speed X]
              Plays the sample scenario from Resources through a running pushdeck: Chinese and
              English messages on both channels, badge changes, the push switch and app states.
            """,
        "gateway": """
            pushdeck gateway [ca]
              Prints where the running pushdeck's provider gateway listens (HOST:PORT), or with
              'ca' the path of the CA certificate to trust (curl --cacert, SSL_CERT_FILE,
              REQUESTS_CA_BUNDLE). Exit 1 when the running pushdeck has no gateway.
            """,
        "reset": """
            pushdeck reset [--app A] [--all]
              A clean state in one committed change: the app's messages (every app's without
              --app), held queue, badges and unread counts to nothing; push mode on, app state
              foreground, dropped count 0, badge sync on (these are one per inbox, so --app resets
              them too). Message ids keep counting up. --all also forgets devices and keys.
              Prints the reply line.
            """,
        "expect": """
            pushdeck expect [conditions] [--timeout S]
              Waits on the bus (no polling) until every condition holds, prints the matching message
              (or the ledgers) as one JSON line and exits 0; after --timeout seconds (default 5)
              exits 1 with one line on stderr saying what it saw instead (closest message, ledgers).
              --app A          messages of app A; the ledgers below are A's (else totals)
              --title RE       the title matches the regular expression (NSRegularExpression)
              --body RE        the body matches the regular expression
              --via V          came in through V: socket, apns, jpush, getui, mqtt
              --count N        N matching messages since expect started (default 1)
              --since ID       messages already stored after id ID count too
              --banner         count banners shown (in the foreground with push on) instead
              --badge N        the icon badge is N
              --server-badge N the server badge is N
              --unread N       N unread messages
              With only --badge/--server-badge/--unread, no message is needed: it holds as soon
              as the ledgers do (at once if they already do).
              -- COMMAND...    run COMMAND once expect listens (the push that should arrive), so
                               nothing it causes is missed; its failure fails expect (exit 1)
            """,
        "play": """
            pushdeck play FILE... [--instant | --speed X] [--live] [--junit FILE] [--json] [--banner-seconds S]
              Plays scenario files (JSON: {"name":…,"steps":[…]}, see README "Scenarios").
              Without --live: in process, on an in-memory inbox and a manual clock — an hour of
              pushes and banners takes milliseconds, the same on every run; no server needed.
              --live        into the running pushdeck, at the scenario's times (× --speed X;
                            --instant: no waiting). held, dropped, banner and callback expects
                            are checked only without --live; pushes "via" apns/jpush (the
                            gateway's own checks) are played only without --live.
              --junit FILE  write JUnit XML: one test case per expect, failures with the message
              --json        print a JSON report instead of text
              Prints each failure as FILE: step N (at T s): field: expected X, got Y, then a
              summary line. Exit 0 when every expect holds, 1 when one does not, 2 when a file
              cannot be played (file, step and field path in the message; nothing runs).
            """,
        "record": """
            pushdeck record FILE
              Writes a scenario from the running pushdeck's bus until ^C: every push with its
              payload (held and dropped ones too), app state, push mode, reads, deletions, badge
              commands and resets as timed steps, ending with expects that hold each app's final
              ledgers and the totals — so `pushdeck play FILE` of it passes. Start from a clean
              inbox (`pushdeck reset`): play starts from one. Message ids in the file are the
              scenario's own (the Nth message it created).
            """,
        "ping": """
            pushdeck ping
              Checks that a server answers; prints its version.
            """,
        "device": """
            pushdeck device add TOKEN --app BUNDLE [--vendor apns|jpush|getui] | list [--json]
                            | remove TOKEN | unregister TOKEN | offline [TOKEN] | online [TOKEN]
              The devices the provider gateway knows. A token (hex digits, an even number of them:
              64 on a phone, 160 on the simulator) belongs to one app of one vendor.
              add          register TOKEN to BUNDLE (again: moves it, and registers it anew)
              list         the devices: a table, or with --json a JSON array
              remove       forget TOKEN (under --devices open its next push registers it again)
              unregister   APNs answers 410 Unregistered, with this moment's timestamp, from now on
              offline      the device is out of reach: the vendors store its pushes (APNs only the
                           latest per app, JPush at most 5 pass-through messages; apns-expiration
                           and the TTLs expire them, expiration 0 is not stored); the reply says
                           "delivered":false,"stored":true and the gateway still answers 200
              online       delivers what was stored; the app state decides banner, list or hold
              Without TOKEN, offline and online name the default device: the one socket pushes
              (and pushes whose token no device has) go to.
              A push to a token of another app is refused with DeviceTokenNotForTopic.
            """,
        "key": """
            pushdeck key add apns --key-id K --team T --p8 FILE | list [--json] | remove ID
                         add jpush --app-key K --master-secret S
                         add getui --app-id I --app-key K --master-secret S
              The vendors' credentials. With an APNs key added, a gateway request must carry a
              provider token (authorization: bearer JWT) signed ES256 with it, whose kid is K, iss
              is T and iat at most an hour old (else 403 InvalidProviderToken or
              ExpiredProviderToken); with none, any well-formed token is taken. FILE is the .p8
              file Apple hands out (a PKCS#8 EC P-256 private key). 'list' never shows a secret.
            """,
    ]
}
