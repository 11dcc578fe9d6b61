import Foundation
import Testing
import TestSupport
@testable import pushdeck

/// Flags > environment > config file > defaults, and the config file's own checks, in process.
@Suite struct SettingsTests {
    static let socket = CommandTable.clientSocket
    static let noColor = CommandTable.ui.option("--no-color")

    static func file(_ values: [String: Settings.Given]) -> ConfigFile {
        ConfigFile(path: "/c/config.json", values: values.mapValues { ConfigFile.Entry(given: $0, line: 2) })
    }

    @Test func theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFile() {
        let settings = Settings(environment: ["PUSHDECK_SOCKET": "/env.sock"], file: Self.file(["socket": .value("/file.sock")]))
        #expect(settings.resolve(Self.socket, commandLine: .value("/flag.sock"))?.given == .value("/flag.sock"))
        #expect(settings.resolve(Self.socket, commandLine: .value("/flag.sock"))?.source == .commandLine)
        #expect(settings.resolve(Self.socket, commandLine: nil)?.given == .value("/env.sock"))
        #expect(settings.resolve(Self.socket, commandLine: nil)?.source == .environment("PUSHDECK_SOCKET"))
    }

    @Test func theFileCountsWhenTheEnvironmentIsUnsetOrEmpty() {
        for environment in [[:], ["PUSHDECK_SOCKET": ""]] {
            let settings = Settings(environment: environment, file: Self.file(["socket": .value("/file.sock")]))
            let resolved = settings.resolve(Self.socket, commandLine: nil)
            #expect(resolved?.given == .value("/file.sock"))
            #expect(resolved?.source == .file(path: "/c/config.json", line: 2))
        }
    }

    @Test func nothingGivenLeavesTheCommandsDefault() {
        #expect(Settings(environment: [:], file: Self.file([:])).resolve(Self.socket, commandLine: nil) == nil)
        #expect(Settings(environment: [:], file: nil).resolve(Self.socket, commandLine: nil) == nil)
    }

    @Test func aFlagsVariableSetsItAndAnOptionWithoutASettingIgnoresTheFile() throws {
        let noColor = try #require(Self.noColor)
        #expect(Settings(environment: ["NO_COLOR": "1"]).resolve(noColor, commandLine: nil)?.given == .bare)
        #expect(Settings(environment: ["NO_COLOR": ""]).resolve(noColor, commandLine: nil) == nil)
        // play's --banner-seconds is not a setting: the file's banner_seconds is the server's.
        let play = try #require(CommandTable.play.option("--banner-seconds"))
        #expect(Settings(file: Self.file(["banner_seconds": .value("9")])).resolve(play, commandLine: nil) == nil)
    }

    @Test func argumentsReadTheLayersBelowTheCommandLine() throws {
        let settings = Settings(environment: ["PUSHDECK_DB": "/env.sqlite"], file: Self.file([
            "banner_seconds": .value("8"), "db": .value("/file.sqlite"), "gateway": .bare, "no_color": .bare,
        ]))
        var arguments = Arguments(CommandTable.ui, ["--banner-seconds", "3"], settings: settings)
        let banner = try arguments.option("--banner-seconds")
        let database = try arguments.option("--db")
        let gateway = arguments.optionalValue("--gateway", bare: "127.0.0.1:2197")
        let noColor = arguments.flag("--no-color")
        #expect(banner == "3")
        #expect(database == "/env.sqlite")
        #expect(gateway == "127.0.0.1:2197")
        #expect(noColor)
        #expect(arguments.onCommandLine == ["--banner-seconds"])
        // An option the command does not take gets nothing from the file.
        var list = Arguments(CommandTable.list, [], settings: settings)
        let listDatabase = try list.option("--db")
        #expect(listDatabase == nil)
    }

    // MARK: - The file

    static func parse(_ text: String) throws(ConfigError) -> ConfigFile {
        try ConfigFile.parse(Array(text.utf8), path: "/home/u/.config/pushdeck/config.json")
    }

    @Test func aGoodFileGivesEveryKeyWithItsLine() throws {
        let file = try Self.parse("""
            {
              "banner_seconds": 8,
              "socket": "/run/me/pd.sock",
              "gateway": true,
              "devices": "strict",
              "no_color": false,
              "max_payload": 8192,
            }
            """)
        #expect(file.values["banner_seconds"] == ConfigFile.Entry(given: .value("8"), line: 2))
        #expect(file.values["socket"] == ConfigFile.Entry(given: .value("/run/me/pd.sock"), line: 3))
        #expect(file.values["gateway"] == ConfigFile.Entry(given: .bare, line: 4))
        #expect(file.values["devices"]?.given == .value("strict"))
        #expect(file.values["no_color"] == nil)
        #expect(file.values["max_payload"]?.given == .value("8192"))
    }

    static let badFiles: [(text: String, error: String)] = [
        ("{\n  \"socket\": \"/a\",\n  \"banner_seconds\": 99999\n}",
         ":3: \"banner_seconds\" must be a number of seconds above 0 (at most 3600)"),
        ("{\n  \"banner_seconds\": \"8\"\n}", ":2: \"banner_seconds\" must be a number of seconds above 0 (at most 3600)"),
        ("{\n\n  \"colour\": \"blue\"\n}", ":3: unknown key \"colour\"; accepted keys: banner_seconds, clock, control_token, db, devices, gateway,"),
        ("{\"devices\": \"lax\"}", ":1: \"devices\" must be open or strict"),
        ("{\"max_request\": 12.5}", ":1: \"max_request\" must be a whole number from 1024 to 16777216"),
        ("{\"gateway\": \"nowhere\"}", ":1: \"gateway\" must be HOST:PORT"),
        ("{\"no_color\": \"yes\"}", ":1: \"no_color\" must be true or false"),
        ("{\"socket\": \"\"}", ":1: \"socket\" must be a path"),
        ("{\n\"db\": \"/a\",\n\"db\": \"/b\"}", ":3: \"db\" is set twice (first on line 2)"),
        ("{\n  \"socket\": \"/a\"\n  \"db\": \"/b\"\n}", ":3: not valid JSON: expected ',' or '}' after an object"),
        ("[\"socket\"]", ":1: the config file is one JSON object"),
        ("", ":1: not valid JSON"),
    ]

    @Test(arguments: badFiles.indices)
    func aBadFileNamesTheFileTheLineAndTheKey(index: Int) {
        let (text, expected) = Self.badFiles[index]
        do {
            let file = try Self.parse(text)
            Issue.record("accepted \(text) as \(file)")
        } catch {
            #expect(error.description.hasPrefix("/home/u/.config/pushdeck/config.json" + expected), "\(error.description)")
        }
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/pushdeck/config.json")
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/pushdeck/config.json")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/pushdeck/config.json")
    }
}
