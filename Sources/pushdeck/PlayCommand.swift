import Foundation
import PushCore
import PushScenario
import PushServer
import PushJSON

/// `pushdeck play FILE...`: scenarios played in process on the manual clock, or with
/// `--live` into the running pushdeck. Exit 0 when every expect holds, 1 otherwise, 2 when a file
/// cannot be played (reported before anything runs).
enum PlayCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let live = arguments.flag("--live")
        let instant = arguments.flag("--instant")
        let speedText = try arguments.option("--speed")
        let junit = try arguments.option("--junit")
        let json = arguments.flag("--json")
        let allowReset = arguments.flag("--allow-reset")
        let bannerText = try arguments.option("--banner-seconds")
        let files = try arguments.positionals()
        guard !files.isEmpty else { throw UsageError("give the scenario FILE to play", command: "play") }
        if instant && speedText != nil { throw UsageError("--instant and --speed cannot be used together", command: "play") }
        if !live && speedText != nil { throw UsageError("--speed goes with --live (instant play has no real time)", command: "play") }
        let speed = try speedValue(speedText, command: "play")
        var bannerSeconds = Banner.defaultSeconds
        if let bannerText {
            guard let value = Double(bannerText), value >= 0, value <= 3600 else {
                throw UsageError("--banner-seconds takes seconds from 0 to 3600, not '\(bannerText)'", command: "play")
            }
            bannerSeconds = value
        }

        // Every file is read and checked before anything plays.
        var scenarios: [Scenario] = []
        for file in files {
            do {
                scenarios.append(try ScenarioLoader.load(path: file))
            } catch {
                throw Failure(code: 2, message: error.description)
            }
        }
        for scenario in scenarios {
            try check(scenario, live: live, allowReset: allowReset)
        }

        var results: [PlayResult] = []
        if live {
            let player = try LivePlayer(socket: socket, speed: speed, instant: instant)
            if !json { player.narrate = { step, say in writeLine(String(format: "%6.1fs  %@", step.time, say)) } }
            for scenario in scenarios { results.append(try player.play(scenario)) }
        } else {
            for scenario in scenarios {
                let started = DispatchTime.now().uptimeNanoseconds
                var player = InstantPlayer(bannerSeconds: bannerSeconds)
                var result = player.play(scenario)
                result.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                results.append(result)
            }
        }

        if let junit {
            do {
                try Data(PlayResult.junit(results).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                throw Failure(code: 1, message: "cannot write the JUnit file \(junit): \(error.localizedDescription)")
            }
        }
        if json {
            writeLine(PlayResult.json(results).compactText)
        } else {
            for result in results {
                for line in result.failureLines { writeLine(line) }
                writeLine(result.summary)
            }
        }
        return results.allSatisfy(\.passed) ? 0 : 1
    }

    /// Refuses, before anything plays, a scenario that would check nothing (no expect step: it
    /// would pass whatever happened) and, under --live without --allow-reset, one with a reset
    /// step (it would wipe the running pushdeck's inbox, which is not the scenario's own).
    static func check(_ scenario: Scenario, live: Bool, allowReset: Bool) throws(Failure) {
        if !scenario.steps.contains(where: { if case .expect = $0.action { true } else { false } }) {
            throw Failure(
                code: 2,
                message: "\(scenario.file): no expect step, so playing it would check nothing; "
                    + "add one, like {\"at\": 5, \"expect\": {\"badge\": 1}}")
        }
        if live, !allowReset, let step = scenario.steps.first(where: { if case .reset = $0.action { true } else { false } }) {
            let what = step.app.map { "\($0)'s messages, badges and held queue" } ?? "every message, badge and the held queue"
            throw Failure(
                code: 2,
                message: "\(scenario.file): step \(step.number) is a reset: under --live it wipes the running pushdeck's inbox "
                    + "(\(what)); nothing was played. Pass --allow-reset to play it anyway")
        }
    }

    static func speedValue(_ text: String?, command: String) throws(UsageError) -> Double {
        guard let text else { return 1 }
        guard let value = Double(text), value > 0, value <= 1000 else {
            throw UsageError("--speed takes a number above 0 up to 1000 (2 plays twice as fast), not '\(text)'", command: command)
        }
        return value
    }
}
