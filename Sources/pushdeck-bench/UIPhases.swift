/// The UI figures (banner latency, frame time, memory, start-up, idle CPU). Filled in with the UI.
struct UIPhases {
    let settings: Bench.Settings
    let folder: String

    func run(into results: inout Results) throws {}
}
