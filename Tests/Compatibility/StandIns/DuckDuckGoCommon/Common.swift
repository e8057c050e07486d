// A stand-in for DuckDuckGo's `Common` module (https://github.com/duckduckgo/iOS, Apache-2.0), which its
// action extension imports; the names the extension uses come from `Core` (StandIns/DuckDuckGoCore). The
// compatibility suite only; not a product.
