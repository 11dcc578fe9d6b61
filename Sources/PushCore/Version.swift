/// pushdeck's version, as `--version` and the `ping` reply show it.
public enum Version {
    public static let current = "0.1.0"
}
