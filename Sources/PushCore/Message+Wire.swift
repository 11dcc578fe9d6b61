extension Message {
    /// The message object of the wire (DESIGN §3): every field, `null` when absent, `payload` as
    /// the parsed raw payload object. STUB — to be written (issue 2).
    public var wireJSON: JSON { .null }
}
