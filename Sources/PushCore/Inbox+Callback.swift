// MARK: - Which iOS callback a message reaches in each app state

extension Inbox {
    /// The callback an iOS app would get for `message` in the current app state, for the detail
    /// view: pass-through goes to the Getui SDK callback (online, or from its offline queue);
    /// APNs depends on the state, and the launch notification arrives in the launch options.
    public func callback(for message: Message) -> String {
        switch message.channel {
        case .android:
            return message.callback ?? "system tray"
        case .transparent:
            if let callback = message.callback { return callback }
            return message.offline
                ? "GeTuiSdkDidReceivePayloadData offLine:YES" : "GeTuiSdkDidReceivePayloadData offLine:NO"
        case .apns:
            // A silent (background) push wakes the app for a fetch, whatever its state.
            if message.silent { return "application:didReceiveRemoteNotification:fetchCompletionHandler:" }
            if message.launch { return Self.launchCallback }
            switch settings.appState {
            case .foreground: return "userNotificationCenter:willPresentNotification:"
            case .background: return "didReceiveRemoteNotification:fetchCompletionHandler: (shown in notification center)"
            case .terminated: return Self.launchCallback
            }
        }
    }

    private static let launchCallback = "launchOptions[UIApplicationLaunchOptionsRemoteNotificationKey]"
}
