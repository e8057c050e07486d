extension Duration {
    /// The duration in seconds, as Foundation and Dispatch count time.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
