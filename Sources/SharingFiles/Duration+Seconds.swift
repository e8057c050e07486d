extension Duration {
    /// The duration in seconds, as the APIs that take a `TimeInterval` or a `Double` want it.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
