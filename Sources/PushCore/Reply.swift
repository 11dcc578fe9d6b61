import Foundation
import PushJSON

/// The answer to one request, as a value: the reducer and the server decide these;
/// `Reply+Wire.swift` is the one place they become JSON, and the gateway and the scenario player
/// read them as they are, never a JSON object.
public enum Reply: Sendable, Equatable {
    /// `{"ok":true}`: a change with nothing more to tell (subscribe, device or key removed).
    case ok
    /// What became of a push, and of the further messages of the same request.
    case push(PushReply)
    /// `{"ok":true,"badge":B}`: read, read all, delete, the banner opened, reset.
    case badge(Int)
    /// `{"ok":true,"badge":B,"serverBadge":S,"unread":U}`: the `badge` op — the ledgers of its
    /// app, else the totals.
    case ledgers(Ledgers)
    /// `{"ok":true,"badge":B,"serverBadge":S,"unread":U,"policy":P}`: a badge policy or an SDK
    /// badge call, with the app's ledgers after it.
    indirect case policy(Ledgers, BadgePolicy)
    /// `{"ok":true,"mode":"on"}`.
    case mode(PushMode)
    /// `{"ok":true,"state":"foreground"}`.
    case appState(AppState)
    /// `{"ok":true,"app":A,"muted":true,"until":…}` (`until` null: until `unmute`).
    indirect case muted(app: String, until: Date?)
    /// `{"ok":true,"app":A,"muted":false}`.
    case unmuted(app: String)
    /// `{"ok":true,"quiet":"22:00-07:00"}`, or `"off"` for nil.
    case quiet(QuietHours?)
    /// `{"ok":true,"device":{…}}`: a device added or unregistered.
    indirect case device(Device)
    /// `{"ok":true,"devices":[…],"defaultDevice":"online"}`, devices by token.
    case devices([Device], defaultOffline: Bool)
    /// `{"ok":true,"token":T,"state":"offline"}` (token null: the socket's default device).
    case deviceState(token: String?, offline: Bool)
    /// `{"ok":true,"key":{…}}`.
    indirect case key(ProviderKey)
    /// `{"ok":true,"keys":[…]}`, keys by id.
    case keys([ProviderKey])
    /// `{"ok":true,"messages":[…]}`: a `list` page.
    case messages([Message])
    /// `{"ok":true,"version":"…"}`: `ping`.
    case version(String)
    /// `{"ok":true,"address":"…","ca":"…"}`: where the gateway listens (`ca` left out without one).
    indirect case gateway(address: String, ca: String?)
    /// `{"ok":true,"vendor":V,"registered":R,"address":"…",…}`: what a backend of one vendor
    /// calls the gateway with (`gateway token`, `gateway credentials`), and where it listens.
    indirect case credentials(GatewayCredentials, address: String)
    /// `{"ok":false,"error":"…"}`: what was wrong, where, and what is accepted.
    /// What an expectation checks of the inbox now.
    indirect case state(InboxReport)
    /// `{"ok":true,"activity":ID,"accepted":B,"discarded":WHY}`: what the device did with a
    /// `liveactivity` push (APNs answers 200 either way).
    indirect case activityPush(ActivityPushReply)
    /// `{"ok":true,"activities":[…],"unmatched":[…],"at":…}`: the `activity` op's list, states at `at`.
    indirect case activities([Activity], unmatched: [ActivityUpdate], at: Date)
    /// `{"ok":true,"requests":[…]}`: the provider request log, in arrival order.
    case requests([ProviderRequestRecord])
    /// `{"ok":true,"fault":{…}}`: the fault `fault add` armed.
    indirect case fault(ArmedFault)
    /// `{"ok":true,"faults":[…]}`: the armed faults, by id.
    case faults([ArmedFault])
    /// `{"ok":true,"cleared":N}`: how many faults `fault clear` disarmed.
    case faultsCleared(Int)
    /// `{"ok":true,"channels":[…]}`: the `channel` op's channel made or read, or an app's list.
    case channels([BroadcastChannel])
    /// `{"ok":true,"broadcast":ID,"reached":N,"stored":S}`: a broadcast push, the subscribed
    /// activities it reached and for how many the channel stored it (their device offline).
    indirect case broadcast(BroadcastReply)
    case error(String)
    /// A push for a token registered on another instance of the team bus, committed to the
    /// outbox as `id` and published to its token's topic (the broker has acknowledged it when the
    /// gateway answers).
    indirect case forwarded(id: String, topic: String)
    /// The push needed the team bus and it is not connected: nothing was kept, the vendor's
    /// "unavailable" answer goes back (APNs 503 ServiceUnavailable).
    case unavailable(String)
    /// `pushdeck bus`: the connection and the instances seen (the bus's own JSON).
    case bus(JSONObject)
    /// `{"ok":true,"clock":"manual","elapsed":S}`: a manual clock and the seconds it has been
    /// moved on; `{"ok":true,"clock":"system"}` (`elapsed` nil): the system's clock.
    case clock(elapsed: Double?)

    /// False for an error.
    public var isOK: Bool {
        switch self {
        case .error, .unavailable: false
        default: true
        }
    }

    /// The error's text, nil for any other reply.
    public var errorMessage: String? {
        switch self {
        case .error(let message), .unavailable(let message): message
        default: nil
        }
    }

    /// The push's reply, nil for any other.
    public var pushReply: PushReply? {
        if case .push(let push) = self { return push }
        return nil
    }
}

/// What the device did with one `liveactivity` push: the activity it reached (none for a
/// `start` it refused), whether it applied it, why not, and a new activity's push token.
public struct ActivityPushReply: Sendable, Equatable {
    public var activity: String?
    public var accepted: Bool
    public var why: String?
    public var pushToken: String?

    public init(activity: String?, accepted: Bool, why: String? = nil, pushToken: String? = nil) {
        self.activity = activity
        self.accepted = accepted
        self.why = why
        self.pushToken = pushToken
    }
}

/// What a backend needs to call the gateway as one vendor: a registered key's credentials
/// (`registered`), else made-up ones a gateway with no key of that vendor takes.
public enum GatewayCredentials: Sendable, Equatable {
    /// An APNs provider token (a JWT signed ES256) and the key id and team it names.
    case apns(keyId: String, team: String, token: String, registered: Bool)
    /// JPush's appKey and master secret (HTTP Basic `appKey:masterSecret`).
    case jpush(appKey: String, masterSecret: String, registered: Bool)
    /// Getui's appId, appKey and master secret (the auth call's `sign` is made from them).
    case getui(appId: String, appKey: String, masterSecret: String, registered: Bool)
    /// A service account's key file (its JSON text, `token_uri` the gateway's `/token`): a
    /// registered account's, else one with a throwaway key the gateway takes while none is.
    case fcm(serviceAccount: String, registered: Bool)

    /// Whether these are a registered key's (else made-up ones the gateway takes while none is).
    public var registered: Bool {
        switch self {
        case .apns(_, _, _, let registered), .jpush(_, _, let registered), .getui(_, _, _, let registered), .fcm(_, let registered): registered
        }
    }
}

/// What became of a push (the `push` reply): its fate, the icon badge of its app after it,
/// and what became of the request's further messages (a JPush body with both `notification` and
/// `message`).
public struct PushReply: Sendable, Equatable {
    public var fate: PushFate
    /// The icon badge after the push — after the last further message when there are some.
    public var badge: Int
    /// The further messages, in order; empty for a push of one message.
    public var also: [FurtherPush]

    public init(_ fate: PushFate, badge: Int, also: [FurtherPush] = []) {
        self.fate = fate
        self.badge = badge
        self.also = also
    }
}

/// One further message of a push request and what became of it.
public struct FurtherPush: Sendable, Equatable {
    public var channel: Channel
    public var fate: PushFate

    public init(channel: Channel, fate: PushFate) {
        self.channel = channel
        self.fate = fate
    }
}

/// Delivered, held or not delivered, and why.
public enum PushFate: Sendable, Equatable {
    /// Delivered as message `id`: listed, counted, perhaps a banner.
    case delivered(id: Int64)
    /// Delivered over the earlier message with its collapse id, keeping that message's `id`.
    case replaced(id: Int64)
    /// A pass-through message held while the app is terminated (Getui's offline queue).
    case held(id: Int64)
    /// Stored for an offline device, as the vendor stores it, delivered when it comes online.
    case storedOffline(id: Int64)
    /// Not delivered and not kept.
    case dropped(PushDrop)

    /// The message the push became; nil when it was dropped.
    public var id: Int64? {
        switch self {
        case .delivered(let id), .replaced(let id), .held(let id), .storedOffline(let id): id
        case .dropped: nil
        }
    }

    /// Whether it reached the list now (delivered or replaced).
    public var isDelivered: Bool {
        switch self {
        case .delivered, .replaced: true
        case .held, .storedOffline, .dropped: false
        }
    }

    /// Whether it is a pass-through message held for the app (the wire's `"held":true`).
    public var isHeld: Bool {
        if case .held = self { return true }
        return false
    }

    /// Whether it waits to be delivered later (held, or stored for an offline device).
    public var isWaiting: Bool {
        switch self {
        case .held, .storedOffline: true
        case .delivered, .replaced, .dropped: false
        }
    }

    /// The wire's `reason` for a push not delivered now; nil when delivered or held.
    public var reason: String? {
        switch self {
        case .delivered, .replaced, .held: nil
        case .storedOffline: "device offline"
        case .dropped(let drop): drop.rawValue
        }
    }
}

/// Why a push was dropped; the raw value is the wire's `reason` (`"push mode off"`, …).
public enum PushDrop: String, Sendable, Equatable {
    /// Push mode is off: nothing is added, the dropped count grows.
    case modeOff = "push mode off"
    /// For an offline device, and already expired (`apns-expiration: 0`, time to live 0).
    case expiresOffline = "device offline and the push expires at once: not stored"
    /// A push by the team bus whose id this inbox already took (its sender published it again).
    case repeated = "a repeat of a push by the bus already taken"
}
