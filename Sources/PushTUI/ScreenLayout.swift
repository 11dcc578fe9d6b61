/// Where the header, the body (list or detail) and the footer go for a terminal size.
public struct ScreenLayout: Sendable, Equatable {
    public var header: Rect
    public var body: Rect
    public var footer: Rect
    /// The Live Activity cards between the header and the body (empty when there are none).
    public var cards: Rect

    /// The header is the top row, the footer the bottom row, the body what is between; tiny
    /// terminals lose the body first, then the footer.
    /// `cardRows`: rows the Live Activity cards take off the top of the body.
    public init(size: Size, cardRows: Int = 0) {
        let w = size.width
        let h = size.height
        header = Rect(x: 0, y: 0, width: w, height: min(1, h))
        footer = h >= 2 ? Rect(x: 0, y: h - 1, width: w, height: 1) : Rect(x: 0, y: h, width: w, height: 0)
        let bodyHeight = max(0, h - 2)
        let taken = min(max(0, cardRows), bodyHeight)
        cards = Rect(x: 0, y: 1, width: w, height: taken)
        body = Rect(x: 0, y: 1 + taken, width: w, height: bodyHeight - taken)
    }
}
