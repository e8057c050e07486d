/// Ways a host misbehaves when the extension loads, so that an extension can be tried against them
/// (`sharing run --fault`, the conformance matrix): every load answered late, one load failing, one never
/// answered. Injected on the host's side, between the extension's ask and the host's provider: the extension
/// sees what it would see from a slow or broken host, through the same calls.
public struct HostFaults: Sendable, Equatable {
    /// How much later than its provider each load is answered.
    public var loadDelay: Duration
    /// The load, counted from 1 in the order the extension asks, that fails with `NSItemProviderErrorDomain`'s
    /// `itemUnavailableError` without its provider being asked.
    public var failingLoad: Int?
    /// The load, counted the same way, that is never answered.
    public var hangingLoad: Int?

    public init(loadDelay: Duration = .zero, failingLoad: Int? = nil, hangingLoad: Int? = nil) {
        self.loadDelay = loadDelay
        self.failingLoad = failingLoad
        self.hangingLoad = hangingLoad
    }
}
