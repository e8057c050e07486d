// A stand-in for the three names DuckDuckGo's action extension takes from the app's own `Core` framework
// (https://github.com/duckduckgo/iOS, Apache-2.0), which brings the whole browser with it. The deep-link
// scheme is DuckDuckGo's (`AppDeepLinks.quickLink`); a search keeps DuckDuckGo's query parameter and source
// but none of its statistics, and only web addresses with a scheme are taken as addresses. The compatibility
// suite only; not a product.

import Foundation
import os

public struct AppDeepLinks {
    public static let quickLink = "ddgQuickLink://"
}

extension URL {
    public struct StatisticsDependent {
        public init() {}

        /// `query` itself if it is a web address, else a DuckDuckGo search for it.
        public func makeSearch(forQuery query: String) -> URL? {
            if let url = URL(string: query), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil {
                return url
            }
            var components = URLComponents(string: "https://duckduckgo.com/")
            components?.queryItems = [URLQueryItem(name: "q", value: query), URLQueryItem(name: "t", value: "ddg_ios")]
            return components?.url
        }
    }
}

extension OSLog {
    public static let lifecycleLog = OSLog(subsystem: "com.duckduckgo.mobile.ios", category: "Lifecycle")
}
