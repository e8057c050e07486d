public import Foundation

/// How a person is reached: an address, a phone number, or an account's name. Stands in for Intents'
/// `INPersonHandle`.
open class INPersonHandle: NSObject, @unchecked Sendable {
    /// The kind of handle. Stands in for `INPersonHandle.HandleType` (`INPersonHandleType`).
    public enum HandleType: Int, Sendable {
        case unknown = 0
        case emailAddress = 1
        case phoneNumber = 2
    }

    public let value: String?
    public let type: HandleType
    public let label: INPersonHandleLabel?

    public init(value: String?, type: HandleType) {
        self.value = value
        self.type = type
        label = nil
    }

    public init(value: String?, type: HandleType, label: INPersonHandleLabel?) {
        self.value = value
        self.type = type
        self.label = label
    }
}

/// A handle's label (home, work, mobile …). Stands in for Intents' `INPersonHandleLabel`.
public struct INPersonHandleLabel: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// An image for an intent's parameter: a person's avatar, a group's picture. Stands in for Intents'
/// `INImage`; it holds what it was made from and draws nothing.
open class INImage: NSObject, @unchecked Sendable {
    /// What the image was made from.
    package enum Source: Sendable, Equatable {
        case data(Data)
        case url(URL)
        case named(String)
    }

    package let source: Source

    public init(imageData: Data) { source = .data(imageData) }

    public init(url: URL) { source = .url(url) }

    public init(named name: String) { source = .named(name) }

    /// The image as a report says it: its bytes' count, its URL, or its name.
    package var summary: String {
        switch source {
        case .data(let data): "image data, \(data.count) bytes"
        case .url(let url): "image at \(url.absoluteString)"
        case .named(let name): "image named \(name)"
        }
    }
}

/// A phrase Siri speaks, with what identifies it. Stands in for Intents' `INSpeakableString`.
open class INSpeakableString: NSObject, @unchecked Sendable {
    public let spokenPhrase: String
    public let vocabularyIdentifier: String?
    public let pronunciationHint: String?

    public init(spokenPhrase: String) {
        self.spokenPhrase = spokenPhrase
        vocabularyIdentifier = nil
        pronunciationHint = nil
    }

    public init(vocabularyIdentifier: String, spokenPhrase: String, pronunciationHint: String?) {
        self.vocabularyIdentifier = vocabularyIdentifier
        self.spokenPhrase = spokenPhrase
        self.pronunciationHint = pronunciationHint
    }
}

/// How Siri may suggest a person. Stands in for Intents' `INPersonSuggestionType`.
public enum INPersonSuggestionType: Int, Sendable {
    case none = 0
    case socialProfile = 1
    case instantMessageAddress = 2
}

/// A person in an intent: a message's sender or recipients. Stands in for Intents' `INPerson`.
open class INPerson: NSObject, @unchecked Sendable {
    public let personHandle: INPersonHandle?
    public let nameComponents: PersonNameComponents?
    /// The name shown: the one given, else the name components' given and family names, else the handle's value.
    public let displayName: String
    public let image: INImage?
    public let contactIdentifier: String?
    public let customIdentifier: String?
    public let isMe: Bool
    public let aliases: [INPersonHandle]?
    public let suggestionType: INPersonSuggestionType

    public init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        self.displayName = displayName
            ?? nameComponents.map { [$0.givenName, $0.familyName].compactMap { $0 }.joined(separator: " ") }.flatMap { $0.isEmpty ? nil : $0 }
            ?? personHandle.value ?? ""
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        self.isMe = isMe
        aliases = nil
        self.suggestionType = suggestionType
    }

    public convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                            contactIdentifier: String?, customIdentifier: String?) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: false, suggestionType: .none)
    }

    public convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                            contactIdentifier: String?, customIdentifier: String?, isMe: Bool) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: isMe, suggestionType: .none)
    }
}
