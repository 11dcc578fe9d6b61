import PushCore

/// Listed-message counts kept while the store does not change: counting a million rows took
/// longer than drawing the frame that needed the count, and a scroll needs it again.
final class ListedCounts {
    private var revision = -1
    private var counts: [String: Int] = [:]
    /// Where the expanded thread's row is in the grouped list (nil inside: it has none).
    private var positions: [ThreadKey: Int?] = [:]

    func count(filter: String, revision: Int) -> Int? {
        revision == self.revision ? counts[filter] : nil
    }

    func remember(_ count: Int, filter: String, revision: Int) {
        start(revision)
        counts[filter] = count
    }

    func position(of thread: ThreadKey, revision: Int) -> Int?? {
        revision == self.revision ? positions[thread] : nil
    }

    func remember(position: Int?, of thread: ThreadKey, revision: Int) {
        start(revision)
        positions[thread] = .some(position)
    }

    private func start(_ revision: Int) {
        guard revision != self.revision else { return }
        self.revision = revision
        counts = [:]
        positions = [:]
    }
}
