import Foundation
import PushCore
import PushJSON

/// What `play` prints and writes: failure lines, JUnit XML, a JSON report.
extension PlayResult {
    /// One line per failed field: where (file, step, time), expected, got.
    public var failureLines: [String] {
        failures.flatMap { outcome in
            outcome.mismatches.map { mismatch in
                "\(scenario.file): step \(outcome.step.number) (at \(Self.seconds(outcome.step.time)) s): \(mismatch)"
            }
        }
    }

    /// The summary line: name, expects, failures.
    public var summary: String {
        let failed = failures.count
        return "\(scenario.name): \(expects.count) expect\(expects.count == 1 ? "" : "s"), "
            + (failed == 0 ? "all passed" : "\(failed) failed")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3f", value)
    }

    /// The expect's name in reports: its step, time and app.
    static func caseName(_ step: Step) -> String {
        "step \(step.number) at \(seconds(step.time)) s" + (step.app.map { " (\($0))" } ?? "")
    }

    /// JUnit XML, as CI systems read it: one `testsuite` per scenario, one `testcase` per expect,
    /// a `failure` (with its message) per failed expect.
    public static func junit(_ results: [PlayResult]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = results.reduce(0) { $0 + $1.expects.count }
        let failures = results.reduce(0) { $0 + $1.failures.count }
        let time = results.reduce(0) { $0 + $1.seconds }
        xml += #"<testsuites name="pushdeck play" tests="\#(tests)" failures="\#(failures)" errors="0" time="\#(format(time))">"# + "\n"
        for result in results {
            xml += "  <testsuite name=\"\(escape(result.scenario.name))\" tests=\"\(result.expects.count)\" "
                + "failures=\"\(result.failures.count)\" errors=\"0\" skipped=\"0\" time=\"\(format(result.seconds))\">\n"
            for outcome in result.expects {
                xml += "    <testcase name=\"\(escape(caseName(outcome.step)))\" classname=\"\(escape(result.scenario.file))\" time=\"0\""
                if outcome.passed {
                    xml += "/>\n"
                    continue
                }
                let message = outcome.mismatches.map(\.description).joined(separator: "; ")
                xml += ">\n      <failure message=\"\(escape(message))\" type=\"expect\">"
                xml += escape(outcome.mismatches.map(\.description).joined(separator: "\n"))
                xml += "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    static func format(_ seconds: Double) -> String { String(format: "%.6f", seconds) }

    /// Text made safe for an XML attribute or element; characters XML 1.0 cannot hold at all
    /// (most control characters) become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// The JSON report: per scenario, every expect with its failures.
    public static func json(_ results: [PlayResult]) -> JSON {
        .object([
            "passed": .bool(results.allSatisfy(\.passed)),
            "scenarios": .array(results.map { result in
                .object([
                    "name": .string(result.scenario.name), "file": .string(result.scenario.file),
                    "passed": .bool(result.passed), "steps": .number(JSONNumber(result.scenario.steps.count)),
                    "expects": .array(result.expects.map { outcome in
                        .object([
                            "step": .number(JSONNumber(outcome.step.number)),
                            "at": .number(JSONNumber(text: seconds(outcome.step.time))),
                            "app": .string(orNull: outcome.step.app), "passed": .bool(outcome.passed),
                            "failures": .array(outcome.mismatches.map { mismatch in
                                .object([
                                    "field": .string(mismatch.field), "expected": .string(mismatch.expected),
                                    "got": .string(mismatch.got),
                                ])
                            }),
                        ])
                    }),
                ])
            }),
        ])
    }
}
