import PushCore
import PushGateway
import PushServer

/// Every command and option of `pushdeck`, described once. The argument parser (`Arguments`),
/// `--help` and `pushdeck help` (`Help`), the man page (`ManPage`), the shell completions
/// (`Completions`) and the config file (`ConfigFile`) all read this table.
///
/// To add an option: add an `OptionSpec` to its command's `options` here (with `setting:` when
/// the config file may set it, `environment:` when a variable may), and read it in the command
/// with `arguments.option("--name")` / `flag` / `checkedOption`. `CommandTableTests` fails until
/// both are done: an option parsed but not in the table, or in the table but never parsed.
/// To add a command: its spec here, and one line in `Commands.all` naming its type (which runs it).
enum CommandTable {
    /// Every command's spec, in the order help shows them: derived from the command types
    /// (`Commands.all`), each with the words its type offers after it.
    static let commands: [CommandSpec] = Commands.all.map { command in
        var spec = command.spec
        spec.words = command.words
        return spec
    }

    /// Options every command takes, handled before the command runs.
    static let global: [OptionSpec] = [
        OptionSpec("--help", "print the command's help and exit (also -h)"),
        OptionSpec("--version", "print pushdeck's version and exit"),
        config,
    ]

    static let config = OptionSpec(
        "--config", .required("FILE"),
        "read defaults from FILE instead of $XDG_CONFIG_HOME/pushdeck/config.json (see FILES); a bad file is an error naming its line and key",
        completion: .files, defaultValue: "$XDG_CONFIG_HOME/pushdeck/config.json, else ~/.config/pushdeck/config.json")

    static func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// What the config file accepts: each setting's key and its values (one entry per key; the
    /// commands that share an option share its setting, which a test checks).
    static let settings: [String: SettingValue] = {
        var settings: [String: SettingValue] = [:]
        for option in commands.flatMap(\.options) {
            if let setting = option.setting { settings[option.configKey] = setting }
        }
        return settings
    }()

    // MARK: - Shared options

    /// `--socket` of a client: where the running pushdeck listens.
    static let clientSocket = OptionSpec(
        "--socket", .required("PATH"), "the running pushdeck's socket", completion: .files,
        defaultValue: "$XDG_RUNTIME_DIR/pushdeck/pushdeck.sock, else /tmp/pushdeck-$UID/pushdeck.sock",
        environment: "PUSHDECK_SOCKET", setting: .path)

    /// `--json` of a command that changes something: the reply line, for a program, instead of
    /// the sentence for a person.
    static let replyJSON = OptionSpec("--json", "print the server's reply line (JSON) instead of a sentence")

    /// The options `ui` and `serve` share (the server's).
    static let serverOptions: [OptionSpec] = [
        OptionSpec(
            "--socket", .required("PATH"), "the socket to listen on (its folder is made 0700 when it is the default one, the socket is 0600)",
            completion: .files, defaultValue: clientSocket.defaultValue, environment: "PUSHDECK_SOCKET", setting: .path),
        OptionSpec(
            "--db", .required("PATH"), "the SQLite inbox (created 0600)", completion: .files,
            defaultValue: "$XDG_DATA_HOME/pushdeck/inbox.sqlite, else ~/.local/share/pushdeck/inbox.sqlite",
            environment: "PUSHDECK_DB", setting: .path),
        OptionSpec("--memory", "keep nothing on disk (not with --db)"),
        OptionSpec(
            "--banner-seconds", .required("S"), "how long a banner stays", defaultValue: "5",
            setting: .seconds(above: 0, atMost: 3600)),
        OptionSpec(
            "--max-payload", .required("BYTES"), "the largest push payload taken (APNs' own limit is 4096)",
            defaultValue: "4096", setting: .whole(256...(1 << 20))),
        OptionSpec(
            "--max-request", .required("BYTES"),
            "the largest JSON object a socket client may send; a larger one gets an error reply and the connection is closed",
            defaultValue: "65536", setting: .whole(1024...(16 << 20))),
        OptionSpec(
            "--devices", .required("open|strict"),
            "an unknown device token pushed to through the gateway is registered to the request's app (open) or refused as the vendor would (strict: APNs BadDeviceToken)",
            completion: .words(DevicePolicy.allCases.map(\.rawValue)), defaultValue: "open",
            setting: .choice(DevicePolicy.allCases.map(\.rawValue))),
        OptionSpec(
            "--gateway", .optional("HOST:PORT"),
            "also answer the APNs provider API (/3/), JPush's Push API v3 (/v3/push) and Getui's REST API v2 (/v2/{appId}/...) over HTTP/2 and HTTP/1.1: TLS with ALPN h2/http/1.1; on loopback also cleartext h2c (prior knowledge) and HTTP/1.1; a non-loopback address serves TLS only",
            defaultValue: GatewayAddress.defaultValue, setting: .address),
        OptionSpec(
            "--tls-cert", .required("FILE"),
            "the gateway's certificate (PEM, with --tls-key); without them a local CA and a certificate for localhost, 127.0.0.1 and ::1 are made once under $XDG_DATA_HOME/pushdeck/tls (see 'pushdeck gateway ca')",
            completion: .files, setting: .path),
        OptionSpec("--tls-key", .required("FILE"), "the gateway's private key (PEM, with --tls-cert)", completion: .files, setting: .path),
        OptionSpec(
            "--mqtt", .required("URL"),
            "join the team bus: an MQTT broker at mqtt://HOST:PORT or mqtts://HOST[:PORT] (MQTT 5, a persistent session); pushes for devices registered on another instance go to it, pushes for this instance's devices come from it",
            setting: .text("mqtt://HOST:PORT or mqtts://HOST[:PORT]")),
        OptionSpec("--mqtt-ca", .required("FILE"), "the CA file the mqtts:// broker's certificate is checked against (else the system's)",
                   completion: .files, setting: .path),
        OptionSpec(
            "--mqtt-user", .required("NAME"), "the broker user name; the password is read from $PUSHDECK_MQTT_PASSWORD, never from a flag",
            setting: .text("a user name")),
        OptionSpec(
            "--mqtt-id", .required("ID"), "this instance's id on the bus: letters, digits, '.', '-', '_' and '@'",
            defaultValue: "USER@HOST", setting: .text("letters, digits, '.', '-', '_' and '@'")),
        OptionSpec(
            "--watch-all", "with --mqtt: watch only (a demo screen): show every instance's pushes, tagged with its id, and take no device's pushes",
            setting: .flag),
        OptionSpec("--getui-token-seconds", .required("S"), "how long a Getui auth token lives (for tests)", defaultValue: "86400"),
        OptionSpec(
            "--control-token", .required("TOKEN"),
            "the control API (/pushdeck/v1/ on the gateway port) wants the header authorization: Bearer TOKEN from every peer; without it, it answers loopback peers only",
            setting: .token),
        OptionSpec(
            "--clock", .required("system|manual"),
            "the server's clock: manual moves only when told ('pushdeck play --live' moves it to each step's time, or the socket op clock with advance), so timed scenarios play live at once",
            completion: .words(["system", "manual"]), defaultValue: "system", setting: .choice(["system", "manual"])),
        OptionSpec(
            "--request-timeout", .required("S"),
            "how long a gateway request may take from its first byte to its last before the connection is closed (for tests)",
            defaultValue: "30"),
    ]

    // MARK: - ui, serve

    static let ui = CommandSpec(
        "ui", shownName: "[ui]",
        synopsis: [
            "[--socket P] [--db P | --memory] [--banner-seconds S] [--max-payload BYTES]",
            "[--max-request BYTES] [--gateway [HOST:PORT] [--tls-cert F --tls-key F]]",
            "[--devices open|strict] [--clock system|manual] [--no-color]",
            "[--mqtt URL [--mqtt-ca F] [--mqtt-user U] [--mqtt-id ID] [--watch-all]]",
        ],
        summary: "the full-screen notification center (what runs with no command)",
        description: """
            The full-screen notification center. It owns the socket and the store itself: no
            server to start first. Keys: ↑↓ move, ⏎ open, r read, a all read, c clear badge,
            m push on/off, f app state, d delete, / filter, o open banner, Esc dismiss, ? help, q quit.
            """,
        options: serverOptions + [
            OptionSpec(
                "--no-color", "draw without colour (the monochrome theme), as a terminal without colours is drawn",
                environment: "NO_COLOR", setting: .flag),
        ])

    static let serve = CommandSpec(
        "serve",
        synopsis: [
            "[--socket P] [--db P | --memory] [--banner-seconds S] [--max-payload BYTES]",
            "[--max-request BYTES] [--gateway [HOST:PORT] [--tls-cert F --tls-key F]]",
            "[--devices open|strict] [--clock system|manual]",
            "[--mqtt URL [--mqtt-ca F] [--mqtt-user U] [--mqtt-id ID] [--watch-all]]",
        ],
        summary: "the same server without a terminal, for scripts and CI",
        description: """
            The same server without a terminal, for scripts and CI. Logs go to stderr.
            Stops cleanly on SIGTERM or ^C (the socket is removed, the store closed).
            """,
        options: serverOptions)

    // MARK: - Client commands

    static let send = CommandSpec(
        "send",
        synopsis: [
            "[FILE|-] [--app BUNDLE] [--channel apns|transparent] [--offline]",
            "[--title T] [--body B] [--badge N]",
            "[--collapse-id ID] [--push-type T] [--priority 10|5|1] [--token TOKEN]",
        ],
        summary: "send a push (a file, standard input, or one built from --title/--body/--badge)",
        description: """
            Sends a push and prints the server's reply line, e.g. {"ok":true,"id":17,...}.
            FILE is an .apns file, a Getui pass-through or a JPush message (JSON, trailing commas
            allowed); '-' reads standard input, which may hold several objects one after another.
            Without FILE, --title/--body/--badge build an APNs payload.
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("BUNDLE"), "the app it is for (else the payload's \"Simulator Target Bundle\", appId or appKey, else default)"),
            OptionSpec(
                "--channel", .required("apns|transparent"), "the channel (else apns when the payload has an aps key)",
                completion: .words(Channel.requestable.map(\.rawValue))),
            OptionSpec("--offline", "mark it as delivered from the offline queue"),
            OptionSpec("--title", .required("T"), "the built APNs payload's title"),
            OptionSpec("--body", .required("B"), "the built APNs payload's body"),
            OptionSpec("--badge", .required("N"), "the built APNs payload's aps.badge"),
            OptionSpec("--collapse-id", .required("ID"), "apns-collapse-id: replaces the app's earlier message with that id"),
            OptionSpec(
                "--push-type", .required("T"), "apns-push-type (background: a silent push, listed without a banner)",
                completion: .words(["alert", "background", "voip", "complication", "fileprovider", "mdm", "location", "liveactivity"])),
            OptionSpec("--priority", .required("P"), "apns-priority 10, 5 or 1", completion: .words(["10", "5", "1"])),
            OptionSpec("--token", .required("TOKEN"), "the device token it is for; with --mqtt, a token registered on another pushdeck goes to it by the team bus"),
        ],
        takesFiles: true)

    static let badge = CommandSpec(
        "badge",
        synopsis: [
            "[--app A] [--set N | --clear] [--sync on|off] [--server] [--watch]",
            "[--policy [app|platform]] [--sdk jpush|getui|ios CALL [N]]",
        ],
        summary: "print or change the badge (a bare number)",
        description: """
            Prints the icon badge (the total over apps without --app) as a bare number.
            --sdk SDK CALL [N] is an SDK's badge call, moving only the ledger its SDK moves:
            jpush setBadge N | resetBadge (server), getui setBadge N | resetBadge (server),
            getui setLocalBadge N (icon), ios setApplicationIconBadgeNumber N | setBadgeCount N
            (icon). It prints the icon badge.
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("A"), "the app (else the total over apps)"),
            OptionSpec("--set", .required("N"), "set the icon badge of A (of 'default' without --app)"),
            OptionSpec("--clear", "set both the icon and the server badge to 0 (every app without --app)"),
            OptionSpec("--sync", .required("on|off"), "keep the server badge in step with the icon badge", completion: .words(["on", "off"]), defaultValue: "on"),
            OptionSpec("--server", "print the server badge instead"),
            OptionSpec("--watch", "print a new line each time it changes, until ^C"),
            OptionSpec(
                "--policy", .optional("app|platform"),
                "set A's badge policy, or print it: 'app' (the default) adds 1 per delivered message and takes 1 per read; 'platform' moves the icon only when a push says so (aps.badge, JPush ios.badge, Getui autoBadge)",
                completion: .words(BadgePolicy.allCases.map(\.rawValue))),
            OptionSpec(
                "--sdk", .required("SDK"), "an SDK's badge call: SDK CALL [N] (see above)",
                completion: .words(SDKBadgeCall.SDK.allCases.map(\.rawValue))),
        ],
        words: ["setBadge", "resetBadge", "setLocalBadge", "setApplicationIconBadgeNumber", "setBadgeCount"])

    static let mode = CommandSpec(
        "mode", synopsis: ["[on|off]"], summary: "print or set the push mode",
        description: "Prints the push mode (on or off). 'off' drops pushes, like Getui's setPushModeForOff.",
        options: [clientSocket], words: PushMode.allCases.map(\.rawValue))

    static let mute = CommandSpec(
        "mute", synopsis: ["APP [--for DURATION] [--json]"], summary: "no banners for one app (still listed)",
        description: """
            Mutes one app: its pushes are listed and counted but show no banner, for DURATION
            (90s, 30m, 1h, 2d) or until 'pushdeck unmute APP'. time-sensitive and critical
            pushes (aps.interruption-level) still show. Prints what holds now, in a line
            (with --json the reply line: {"ok":true,"app":...,"muted":true,"until":...}).
            """,
        options: [clientSocket, OptionSpec("--for", .required("DURATION"), "how long: 90s, 30m, 1h, 2d (else until unmute)"), replyJSON])

    static let unmute = CommandSpec(
        "unmute", synopsis: ["APP [--json]"], summary: "end a mute",
        description: "Ends a mute. Prints a line saying so (with --json the reply line).", options: [clientSocket, replyJSON])

    static let quiet = CommandSpec(
        "quiet", synopsis: ["[HH:MM-HH:MM | off]"], summary: "scheduled do-not-disturb",
        description: """
            Scheduled do-not-disturb in local time (across midnight when the end is earlier):
            pushes are listed without a banner; time-sensitive and critical ones pass.
            Prints the quiet hours, or off.
            """,
        options: [clientSocket], words: ["off"])

    static let read = CommandSpec(
        "read", synopsis: ["ID... | --all [--app A] [--json]"], summary: "mark messages read",
        description: """
            Marks messages read (opening them): the badge goes down by one for each unread one.
            Prints a line with the new badge (with --json the reply line, {"ok":true,"badge":N}).
            """,
        options: [
            clientSocket,
            OptionSpec("--all", "every message (of A with --app)"),
            OptionSpec("--app", .required("A"), "with --all: only app A's messages"),
            replyJSON,
        ])

    static let delete = CommandSpec(
        "delete", synopsis: ["ID... [--json]"], summary: "delete messages",
        description: "Deletes messages. Prints a line with the new badge (with --json the reply line).",
        options: [clientSocket, replyJSON])

    static let list = CommandSpec(
        "list", synopsis: ["[--app A] [--unread] [--limit N] [--before ID] [--json]"], summary: "list messages",
        description: """
            The newest messages first (50 by default, at most 1000): a table, or with --json a
            JSON array of message objects.
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("A"), "only app A's messages"),
            OptionSpec("--unread", "only unread messages"),
            OptionSpec("--limit", .required("N"), "at most N messages (1 to 1000)", defaultValue: "50"),
            OptionSpec("--before", .required("ID"), "messages older than message ID (the next page)"),
            OptionSpec("--json", "a JSON array of message objects instead of a table"),
        ])

    static let app = CommandSpec(
        "app", synopsis: ["[foreground|background|terminated]"], summary: "print or set the simulated app state",
        description: """
            Prints (or sets) the simulated app state. Foreground shows banners; background only
            lists; terminated holds pass-through messages until the app is next in the foreground.
            """,
        options: [clientSocket], words: AppState.allCases.map(\.rawValue))

    static let watch = CommandSpec(
        "watch", synopsis: ["[--topic T]..."], summary: "print bus events as JSON lines",
        description: "Prints one JSON event per line until ^C (every topic when none is given).",
        options: [
            clientSocket,
            OptionSpec(
                "--topic", .required("T"), "only events of topic T (again for more): " + Topic.allCases.map(\.rawValue).joined(separator: ", "),
                completion: .words(Topic.allCases.map(\.rawValue)), repeatable: true),
        ])

    static let demo = CommandSpec(
        "demo", synopsis: ["[--speed X]"], summary: "play the sample scenario",
        description: """
            Plays the sample scenario from Resources through a running pushdeck: Chinese and
            English messages on both channels, badge changes, the push switch and app states.
            With no pushdeck running it starts the UI itself, in memory, and plays into that.
            """,
        options: [clientSocket, OptionSpec("--speed", .required("X"), "play X times as fast", defaultValue: "1")])

    static let ping = CommandSpec(
        "ping", synopsis: [""], summary: "check that a server answers",
        description: "Checks that a server answers; prints its version.", options: [clientSocket])

    static let bus = CommandSpec(
        "bus", synopsis: ["[--json]"], summary: "the team bus: the connection and the instances seen",
        description: """
            The running pushdeck's team bus (--mqtt): the connection to the broker, the pushes in
            its outbox waiting for their owner's receipt, and every instance seen on the bus with
            its last retained state (mode, app state, unread, badges, devices, bus).
            """,
        options: [clientSocket, OptionSpec("--json", "the reply line (JSON) instead of lines for a person")])

    static let clock = CommandSpec(
        "clock", synopsis: ["[advance SECONDS] [--json]"], summary: "the server's clock; move a manual one on",
        description: """
            The running pushdeck's clock: system, or manual with the seconds it has been moved on
            ('pushdeck serve --clock manual'). advance SECONDS (5.5, 90s, 30m, 1h) moves a manual
            clock on, meeting every deadline on the way in order: a banner enters, stays and
            leaves, a mute ends, as if the time had passed. A system clock refuses to be moved.
            """,
        options: [clientSocket, replyJSON])

    // MARK: - Gateway

    static let device = CommandSpec(
        "device",
        synopsis: [
            "add TOKEN --app BUNDLE [--vendor apns|jpush|getui|fcm] [--platform android|ios] [--kind app|push-to-start|activity] [--tag T]... [--alias A]",
            "| list | remove TOKEN | unregister TOKEN | offline [TOKEN] | online [TOKEN]",
            "[--json]",
        ],
        summary: "the devices the provider gateway knows",
        description: """
            The devices the provider gateway knows. A token (hex digits, an even number of them:
            64 on a phone, 160 on the simulator) belongs to one app of one vendor.
            add: register TOKEN to BUNDLE (again: moves it, and registers it anew); --tag and
            --alias set the tags and alias a JPush audience (tag, tag_and, tag_not, alias) or
            Getui's push/single/alias finds the device by (1 to 40 bytes each; adding again
            replaces them; JPush's Device API sets them too).
            An FCM registration token (--vendor fcm; letters, digits, ':', '-' and '_', kept as
            written) is an Android device unless --platform ios; its topics are set by the
            gateway's topic-management APIs and shown by list.
            list: the devices, a table or with --json a JSON array. The other actions print
            what they did in a line, or with --json the reply line.
            remove: forget TOKEN (under --devices open its next push registers it again).
            unregister: APNs answers 410 Unregistered, with this moment's timestamp, from now on.
            offline: the device is out of reach; the vendors store its pushes (APNs only the
            latest per app, JPush at most 5 pass-through messages; apns-expiration and the TTLs
            expire them, expiration 0 is not stored); the reply says "delivered":false,"stored":true
            and the gateway still answers 200.
            online: delivers what was stored; the app state decides banner, list or hold.

            Without TOKEN, offline and online name the default device: the one socket pushes
            (and pushes whose token no device has) go to. A push to a token of another app is
            refused with DeviceTokenNotForTopic.

            --kind push-to-start registers an app's Live Activity push-to-start token (a start
            push makes an activity), --kind activity an activity's own push token (as if the app
            had started it); both take only liveactivity pushes on BUNDLE.push-type.liveactivity
            (see 'pushdeck activity').
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("BUNDLE"), "with add: the app the token belongs to"),
            OptionSpec("--vendor", .required("VENDOR"), "with add: the vendor", completion: .words(Vendor.allCases.map(\.rawValue)), defaultValue: "apns"),
            OptionSpec("--platform", .required("PLATFORM"), "with add --vendor fcm: android or ios", completion: .words(DevicePlatform.allCases.map(\.rawValue)), defaultValue: "android"),
            OptionSpec("--tag", .required("T"), "with add: a JPush/Getui tag of the device (again for more)"),
            OptionSpec("--alias", .required("A"), "with add: the device's JPush/Getui alias"),
            OptionSpec("--kind", .required("KIND"), "with add: what an APNs token is for: the app's notifications, a Live Activity push-to-start token or an activity's push token", completion: .words(DeviceKind.allCases.map(\.rawValue)), defaultValue: "app"),
            OptionSpec("--json", "list: a JSON array instead of a table; the other actions: the reply line instead of a sentence"),
        ],
        words: DeviceCommand.actions)

    static let activity = CommandSpec(
        "activity",
        synopsis: ["list [--app BUNDLE] [--json] | dismiss ID"],
        summary: "the Live Activities, as the device keeps them",
        description: """
            The Live Activities liveactivity pushes started and updated, with their state on
            pushdeck's clock: active, stale (past its stale-date), ended (by an end push, or by
            the system 8 hours after it started) or dismissed (at the end push's dismissal-date,
            at most 4 hours after the end). APNs answers a liveactivity push 200 whatever its
            ActivityKit content; the device discards what it cannot apply (no timestamp or event,
            a start without attributes, an update older than the last, an update to an ended
            activity, a content-state that is not an object), and the history shows each push
            applied or discarded with why.
            list: a table, or with --json the reply's activities (each with its history) and the
            pushes that reached no activity (unmatched). dismiss ID: the user swipes it off the
            Lock Screen (x on its card): it ends and leaves at once, and a push to its token is
            then 410 ExpiredToken.
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("BUNDLE"), "only this app's activities"),
            OptionSpec("--json", "the reply's activities and unmatched pushes as JSON"),
        ],
        words: ["list", "dismiss"])

    static let requests = CommandSpec(
        "requests",
        synopsis: ["[--vendor apns|jpush|getui|fcm] [--since SEQ] [--json]"],
        summary: "the provider requests the gateway answered",
        description: """
            The request log: every provider request the gateway answered since the last reset, and
            every one its transport refused, in arrival order (seq from 1): time, vendor, method,
            path, token, status, reason, latency in ms and the fault that answered it, if one did.
            It lives in memory, the newest 100000 kept: a restart starts an empty log, and
            'pushdeck reset' empties it. --json prints each record as the bus topic 'request'
            carries it, one line each.
            """,
        options: [
            clientSocket,
            OptionSpec("--vendor", .required("V"), "only this vendor's requests", completion: .words(Via.providers.map(\.rawValue))),
            OptionSpec("--since", .required("SEQ"), "only the requests after this seq"),
            OptionSpec("--json", "each record as a JSON line"),
        ])

    static let fault = CommandSpec(
        "fault",
        synopsis: [
            "add [--vendor apns|jpush|getui|fcm] [--token T] [--app A] [--path GLOB]",
            "[--status N [--reason R] [--retry-after S] [--latency MS] | --latency MS | --goaway [--shutdown] [--after N] | --close]",
            "[--count N | --for DURATION | --rate P]",
            "| list [--json] | clear [ID]",
        ],
        summary: "make the provider gateway fail on demand",
        description: """
            Arms a fault: the provider requests it matches (by vendor, token, app, and a glob of
            the whole path, fnmatch(3)) are answered as a provider does on a bad day, before
            their vendor decides anything, and change nothing but the request log ('pushdeck
            requests'). --status answers in the vendor's own shape and headers with --reason (one
            of the vendor's; its usual one for the status when left out), --retry-after as the
            retry-after header, after --latency ms. --latency alone delays the answer and then
            handles the request as usual. --goaway sends HTTP/2 GOAWAY once a connection has had
            --after streams (0 by default), --shutdown with APNs' debug data
            {"reason":"Shutdown"}; on HTTP/1.1 it closes the connection there. --close drops the
            connection at once, unanswered. A fault lasts until cleared, or --count times
            (requests; connections for --goaway and --close), --for a duration (30s, 5m, 1h, on
            the server's clock), or each matching request with probability --rate. The first
            armed fault that matches answers. 'pushdeck reset' clears them all.
            """,
        options: [
            clientSocket,
            OptionSpec("--vendor", .required("V"), "only this vendor's requests", completion: .words(Via.providers.map(\.rawValue))),
            OptionSpec("--token", .required("T"), "only requests to this device token"),
            OptionSpec("--app", .required("A"), "only this app's requests (apns-topic, JPush appKey, Getui appId, FCM project)"),
            OptionSpec("--path", .required("GLOB"), "only requests whose whole path matches this glob"),
            OptionSpec("--status", .required("N"), "answer with this HTTP status (100-599), in the vendor's shape"),
            OptionSpec("--reason", .required("R"), "with --status: the vendor's reason (APNs reason, JPush or Getui code, FCM errorCode)"),
            OptionSpec("--retry-after", .required("S"), "with --status: the retry-after header, in seconds"),
            OptionSpec("--latency", .required("MS"), "delay the answer this many milliseconds"),
            OptionSpec("--goaway", "HTTP/2 GOAWAY after --after streams of a connection"),
            OptionSpec("--shutdown", "with --goaway: debug data {\"reason\":\"Shutdown\"}"),
            OptionSpec("--after", .required("N"), "with --goaway: the streams a connection keeps"),
            OptionSpec("--close", "drop the connection, no answer"),
            OptionSpec("--count", .required("N"), "fire N times, then disarm"),
            OptionSpec("--for", .required("DURATION"), "disarm after this long (30s, 5m, 1h)"),
            OptionSpec("--rate", .required("P"), "fire on each matching request with probability P (0-1)"),
            OptionSpec("--json", "with add or list: the reply's fault(s) as JSON"),
        ],
        words: ["add", "list", "clear"])
    static let channel = CommandSpec(
        "channel",
        synopsis: ["add --app BUNDLE [--policy 0|1] | list [--app BUNDLE] | remove ID --app BUNDLE", "[--json]"],
        summary: "the broadcast channels (iOS 18) the gateway keeps",
        description: """
            APNs' broadcast channels, as a backend makes them with POST /1/apps/BUNDLE/channels:
            add makes one for BUNDLE with message-storage-policy 0 (no message stored, the
            default) or 1 (the most recent kept for an offline device) and prints its id, the
            apns-channel-id a broadcast push to /4/broadcasts/apps/BUNDLE names; an app has at
            most 10000. A start push with input-push-channel ID subscribes its activity.
            list: a table of id, app, policy and when each was made, or with --json the reply's
            channels. remove deletes one (a broadcast to it is then 400 ChannelNotRegistered).
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("BUNDLE"), "the app (bundle id) the channel is of"),
            OptionSpec("--policy", .required("0|1"), "with add: the message-storage-policy", completion: .words(["0", "1"]), defaultValue: "0"),
            OptionSpec("--json", "the reply line as JSON"),
        ],
        words: ["add", "list", "remove"])

    static let key = CommandSpec(
        "key",
        synopsis: [
            "add apns --key-id K --team T --p8 FILE [--environment E] | list | remove ID",
            "| add jpush --app-key K --master-secret S",
            "| add getui --app-id I --app-key K --master-secret S",
            "| add fcm --service-account FILE [--app PACKAGE]",
            "[--json]",
        ],
        summary: "the vendors' credentials the gateway checks",
        description: """
            The vendors' credentials. With an APNs key added, a gateway request must carry a
            provider token (authorization: bearer JWT) signed ES256 with it, whose kid is K, iss
            is T and iat at most an hour old (else 403 InvalidProviderToken or
            ExpiredProviderToken; a kid of another team 403 UnrelatedKeyIdInToken); with
            --environment sandbox|production the key signs requests to that environment only
            (the host api.sandbox.push.apple.com is sandbox, any other production; else 403
            BadEnvironmentKeyIdInToken). With none, any well-formed token is taken. FILE is the .p8
            file Apple hands out (a PKCS#8 EC P-256 private key). With an FCM service account
            added (FILE: the JSON key file of Firebase's console), /token takes only assertions
            signed with its key and iss its client_email, and its project's default app is
            PACKAGE (else the project id). 'list' never shows a secret.
            add and remove print what they did in a line, or with --json the reply line.
            """,
        options: [
            clientSocket,
            OptionSpec("--key-id", .required("K"), "add apns: the key's id (the JWT's kid)"),
            OptionSpec("--team", .required("T"), "add apns: the team id (the JWT's iss)"),
            OptionSpec("--p8", .required("FILE"), "add apns: the .p8 signing key", completion: .files),
            OptionSpec("--environment", .required("E"), "add apns: sandbox or production only (default both)"),
            OptionSpec("--app-key", .required("K"), "add jpush, add getui: the appKey"),
            OptionSpec("--app-id", .required("I"), "add getui: the appId"),
            OptionSpec("--master-secret", .required("S"), "add jpush, add getui: the master secret"),
            OptionSpec("--service-account", .required("FILE"), "add fcm: the service account's JSON key file", completion: .files),
            OptionSpec("--app", .required("PACKAGE"), "add fcm: the project's default app (else the project id)"),
            OptionSpec("--json", "list: a JSON array instead of a table; add, remove: the reply line instead of a sentence"),
        ],
        words: KeyCommand.actions + Vendor.allCases.map(\.rawValue))

    static let gateway = CommandSpec(
        "gateway", synopsis: ["[ca | token [--key-id K] [--team T] | credentials apns|jpush|getui|fcm [--json]]"],
        summary: "print the gateway's address, its CA file, or what a backend calls it with",
        description: """
            Prints where the running pushdeck's provider gateway listens (HOST:PORT), or with
            'ca' the path of the CA certificate to trust (curl --cacert, SSL_CERT_FILE,
            REQUESTS_CA_BUNDLE). Exit 1 when the running pushdeck has no gateway.
            token: prints an APNs provider token (authorization: bearer TOKEN), issued now and
            good for an hour: signed ES256 with the registered APNs key (the one --key-id and
            --team name when several are registered); with none registered, a well-formed token
            naming K and T (else PUSHDECK00), which the gateway then takes.
            credentials VENDOR: prints what VENDOR's SDK is configured with: JPush's app key,
            master secret, Basic authorization header and push URL; Getui's app id, app key,
            master secret and base URL; the registered key's, else made-up ones the gateway takes
            while no key of VENDOR is registered. fcm: the project, client email, token URI and
            send URL, and how to point firebase-admin at the gateway; with --json a ready
            service-account key file whose token_uri is the gateway's /token (with no FCM key
            registered its private_key is a throwaway RSA key, which the gateway takes).
            """,
        options: [
            clientSocket,
            OptionSpec("--key-id", .required("K"), "token: the APNs key id the token names (its kid)"),
            OptionSpec("--team", .required("T"), "token: the team id the token names (its iss)"),
            OptionSpec("--json", "credentials: one JSON object instead of lines"),
        ],
        words: ["ca", "token", "credentials"] + GatewayCommand.credentialVendors)

    // MARK: - Verdicts and scenarios

    static let reset = CommandSpec(
        "reset", synopsis: ["[--app A] [--all] [--json]"], summary: "a clean state in one committed change",
        description: """
            A clean state in one committed change: the app's messages (every app's without
            --app), held queue, badges and unread counts to nothing; push mode on, app state
            foreground, dropped count 0, badge sync on (these are one per inbox, so --app resets
            them too). Message ids keep counting up. Prints what was reset in a line (with
            --json the reply line, {"ok":true,"badge":N}).
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("A"), "only app A's messages and ledgers"),
            OptionSpec("--all", "also forget devices and keys"),
            replyJSON,
        ])

    static let expect = CommandSpec(
        "expect",
        synopsis: [
            "[--app A] [--title RE] [--body RE] [--via V] [--count N] [--since ID]",
            "[--badge N] [--server-badge N] [--unread N] [--banner] [--timeout S]",
            "[--requests N [--vendor V] [--status S] | --retried [--after-status S] [--min-wait S]",
            " | --stopped TOKEN] [--since SEQ] [-- COMMAND...]",
        ],
        summary: "wait until a condition holds (exit 0), or time out (exit 1)",
        description: """
            Waits on the bus (no polling) until every condition holds, prints the matching message
            (or the ledgers) as one JSON line and exits 0; after --timeout seconds exits 1 with
            one line on stderr saying what it saw instead (closest message, ledgers).
            With only --badge/--server-badge/--unread, no message is needed: it holds as soon
            as the ledgers do (at once if they already do).
            -- COMMAND... runs COMMAND once expect listens (the push that should arrive), so
            nothing it causes is missed; its failure fails expect (exit 1).
            --requests, --retried and --stopped judge the gateway's request log (since the last
            reset, or after request seq --since SEQ) instead of the inbox, one verdict per expect:
            --retried holds when a refused notification (status >= 400, or --after-status) was
            sent again no sooner than max(its retry-after, --min-wait) after the refusal, and fails
            at once when it came sooner; --stopped fails as soon as a request to TOKEN follows an
            Unregistered answer to it, and holds at --timeout if none came.
            """,
        options: [
            clientSocket,
            OptionSpec("--app", .required("A"), "messages of app A; the ledgers are A's (else totals)"),
            OptionSpec("--title", .required("RE"), "the title matches the regular expression (NSRegularExpression)"),
            OptionSpec("--body", .required("RE"), "the body matches the regular expression"),
            OptionSpec("--via", .required("V"), "came in through V", completion: .words(Via.allCases.map(\.rawValue))),
            OptionSpec("--count", .required("N"), "N matching messages since expect started", defaultValue: "1"),
            OptionSpec("--since", .required("ID"), "messages already stored after id ID count too; with --requests, --retried or --stopped: requests after seq ID"),
            OptionSpec("--banner", "count banners shown (in the foreground with push on) instead"),
            OptionSpec("--badge", .required("N"), "the icon badge is N"),
            OptionSpec("--server-badge", .required("N"), "the server badge is N"),
            OptionSpec("--unread", .required("N"), "N unread messages"),
            OptionSpec("--timeout", .required("S"), "give up after S seconds (exit 1)", defaultValue: "5"),
            OptionSpec("--requests", .required("N"), "N provider requests in the request log"),
            OptionSpec("--vendor", .required("V"), "with --requests: of vendor V", completion: .words(Via.providers.map(\.rawValue))),
            OptionSpec("--status", .required("S"), "with --requests: answered with HTTP status S"),
            OptionSpec("--retried", "a refused notification was sent again, waiting at least max(retry-after, --min-wait)"),
            OptionSpec("--after-status", .required("S"), "with --retried: refused with status S (else any status >= 400)"),
            OptionSpec("--min-wait", .required("S"), "with --retried: at least S seconds after the refusal", defaultValue: "0"),
            OptionSpec("--stopped", .required("TOKEN"), "no request to TOKEN after its first Unregistered answer (holds at --timeout)"),
        ])

    static let play = CommandSpec(
        "play", synopsis: ["FILE... [--instant | --speed X] [--live [--allow-reset]]", "[--junit FILE] [--json] [--banner-seconds S]"],
        summary: "play scenario files; exit 0 when every expect holds",
        description: """
            Plays scenario files (JSON: {"name":...,"steps":[...]}, see README "Scenarios").
            Without --live: in process, on an in-memory inbox and a manual clock — an hour of
            pushes and banners takes milliseconds, the same on every run; no server needed.
            Prints each failure as FILE: step N (at T s): field: expected X, got Y, then a
            summary line. Exit 0 when every expect holds, 1 when one does not, 2 when a file
            cannot be played (file, step and field path in the message; nothing runs). A file
            with no expect step is refused (it would check nothing), and so is a reset step
            under --live without --allow-reset (it wipes the running inbox).
            """,
        options: [
            clientSocket,
            OptionSpec(
                "--live",
                "into the running pushdeck, at the scenario's times; every expect is checked as in instant play, from the server's state report; pushes \"via\" a vendor go through its running gateway; a server on --clock manual has its clock moved to each step's time, so nothing waits"),
            OptionSpec("--instant", "with --live: no waiting between steps"),
            OptionSpec(
                "--allow-reset",
                "with --live: play a scenario with a reset step, which wipes the running pushdeck's inbox (without it such a file is refused, exit 2)"),
            OptionSpec("--speed", .required("X"), "with --live: play X times as fast", defaultValue: "1"),
            OptionSpec("--junit", .required("FILE"), "write JUnit XML: one test case per expect, failures with the message", completion: .files),
            OptionSpec("--json", "print a JSON report instead of text"),
            OptionSpec("--banner-seconds", .required("S"), "how long a banner stays in instant play (0 to 3600)", defaultValue: "5"),
        ],
        takesFiles: true)

    static let record = CommandSpec(
        "record", synopsis: ["FILE"], summary: "write a scenario from the running pushdeck until ^C",
        description: """
            Writes a scenario from the running pushdeck's bus until ^C: every push with its
            payload (held and dropped ones too), app state, push mode, reads, deletions, badge
            commands and resets as timed steps, ending with expects that hold each app's final
            ledgers and the totals — so 'pushdeck play FILE' of it passes. Start from a clean
            inbox ('pushdeck reset'): play starts from one. Message ids in the file are the
            scenario's own (the Nth message it created).
            """,
        options: [clientSocket], takesFiles: true)

    // MARK: - Help

    static let help = CommandSpec(
        "help", synopsis: ["[COMMAND] [--man]"], summary: "this help, one command's, or the man page",
        description: """
            Prints the overview of commands, or one command's help. With --man, writes the
            manual page (roff) to standard output: 'pushdeck help --man > pushdeck.1' and
            'man -l pushdeck.1' to read it.
            """,
        options: [OptionSpec("--man", "write the man page (roff) instead")])

    static let completions = CommandSpec(
        "completions", synopsis: ["bash|zsh|fish"], summary: "print a shell completion script",
        description: """
            Prints a script that completes pushdeck's commands, their words and options in the
            shell. bash: 'source <(pushdeck completions bash)' in ~/.bashrc; zsh: 'source
            <(pushdeck completions zsh)' in ~/.zshrc after compinit; fish: 'pushdeck completions
            fish > ~/.config/fish/completions/pushdeck.fish'.
            """,
        options: [], words: Completions.Shell.allCases.map(\.rawValue))

    /// The command words, for `help COMMAND`'s completions.
    static var commandNames: [String] { Commands.all.map { $0.spec.name } }
}
